package io.blit.layout.baseline;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A layout baseline: the recorded layout of each class in each JVM mode, as a project commits it
 * ({@code layout-baseline.txt}) and checks it in CI. The text format is described in
 * {@link #format(String)} and in {@code docs/layout-compatibility.md}.
 *
 * <p>Immutable and thread-safe. Entries are kept sorted by class name, then mode (in
 * {@link JvmMode} order), so that a recorded file is stable and diffs line by line.
 *
 * @param entries one per (class, mode), sorted
 */
public record Baseline(List<BaselineEntry> entries) {
    private static final Comparator<BaselineEntry> ORDER =
            Comparator.comparing(BaselineEntry::className).thenComparing(BaselineEntry::mode);

    /**
     * Sorts the entries and checks that no class and mode has two.
     *
     * @throws NullPointerException     if the list or an entry is null
     * @throws IllegalArgumentException if two entries have the same class and mode
     */
    public Baseline {
        List<BaselineEntry> sorted = new ArrayList<>(entries);
        sorted.sort(ORDER);
        for (int i = 1; i < sorted.size(); i++) {
            if (ORDER.compare(sorted.get(i - 1), sorted.get(i)) == 0) {
                throw new IllegalArgumentException("two baseline entries for " + sorted.get(i));
            }
        }
        entries = List.copyOf(sorted);
    }

    /**
     * {@return a baseline of the given entries}
     *
     * @param entries the entries, in any order
     * @throws NullPointerException     if the collection or an entry is null
     * @throws IllegalArgumentException if two entries have the same class and mode
     */
    public static Baseline of(Collection<BaselineEntry> entries) {
        return new Baseline(List.copyOf(entries));
    }

    /**
     * {@return the entry for this class and mode, if recorded}
     *
     * @param className the binary name of the class
     * @param mode      the JVM mode
     */
    public Optional<BaselineEntry> entry(String className, JvmMode mode) {
        return entries.stream().filter(e -> e.className().equals(className) && e.mode() == mode).findFirst();
    }

    /**
     * {@return a baseline of the entries that match}
     *
     * @param keep selects the entries to keep
     */
    public Baseline filter(Predicate<BaselineEntry> keep) {
        return new Baseline(entries.stream().filter(keep).toList());
    }

    /**
     * {@return this baseline with {@code replacements} instead of any entry of the same class and mode}
     *
     * @param replacements the entries that replace this baseline's, or are added to them
     */
    public Baseline replacing(Baseline replacements) {
        Map<String, BaselineEntry> merged = new HashMap<>();
        for (BaselineEntry entry : entries) {
            merged.put(entry.className() + " " + entry.mode(), entry);
        }
        for (BaselineEntry entry : replacements.entries) {
            merged.put(entry.className() + " " + entry.mode(), entry);
        }
        return of(merged.values());
    }

    /**
     * The baseline as text: a format line, comment lines (which say how to re-record with
     * {@code recordCommand}), then per entry a {@code layout} line and one line per field, by offset:
     * <pre>
     * blit-layout-baseline 1
     * layout io.blit.tools.messages.MarketData mode=default start=16 length=144 fingerprint=c3bfc6d850911aec
     *   &#64;16 long securityId in io.blit.tools.messages.MarketData
     *   &#64;24 long time in io.blit.tools.messages.MarketData
     * </pre>
     *
     * @param recordCommand how to re-record this file, written into a comment; may be empty
     * @return the text, every line ended by {@code \n}
     */
    public String format(String recordCommand) {
        return BaselineFormat.format(this, recordCommand);
    }

    /**
     * Parses baseline text.
     *
     * @param text   the text, as {@link #format(String)} writes it
     * @param source names the text in error messages, e.g. the file's path
     * @return the baseline
     * @throws BaselineFormatException naming {@code source}, the line number and the problem
     */
    public static Baseline parse(String text, String source) {
        return BaselineFormat.parse(text, source);
    }

    /**
     * Reads a baseline file.
     *
     * @param file the file, UTF-8
     * @return the baseline
     * @throws UncheckedIOException    if the file cannot be read (e.g. it does not exist)
     * @throws BaselineFormatException naming the file, the line number and the problem
     */
    public static Baseline read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read layout baseline " + file + ": " + e, e);
        }
    }

    /**
     * Writes this baseline to {@code file} (creating its parent directories), replacing it whole.
     *
     * @param file          the file, written in UTF-8
     * @param recordCommand how to re-record the file, as in {@link #format(String)}
     * @throws UncheckedIOException if the file cannot be written
     */
    public void write(Path file, String recordCommand) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, format(recordCommand), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write layout baseline " + file + ": " + e, e);
        }
    }
}
