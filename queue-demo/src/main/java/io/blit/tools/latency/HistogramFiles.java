package io.blit.tools.latency;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * How a consumer process hands its histograms back: an HdrHistogram interval log ({@link IntervalLog}) of one
 * untagged interval per run, which keeps each run's start and end time stamps, written to a temporary name and
 * moved into place so a reader never sees half a file. Stateless.
 */
final class HistogramFiles {
    private HistogramFiles() {
    }

    static void write(Path file, Histogram[] histograms) {
        writeAtomically(file, IntervalLog.text(Arrays.asList(histograms), List.of("consumer's histograms")));
    }

    /**
     * @throws IllegalStateException naming the file if it cannot be read or is not an interval log of histograms
     */
    static List<Histogram> read(Path file) {
        String log;
        try {
            log = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the consumer's histograms from " + file, e);
        }
        try {
            return IntervalLog.read(log);
        } catch (RuntimeException e) {
            throw new IllegalStateException(file + " is not a log of encoded histograms: " + e, e);
        }
    }

    /** Writes {@code text} to a temporary sibling of {@code file}, then renames it atomically. */
    static void writeAtomically(Path file, String text) {
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.writeString(temporary, text);
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
