package io.blit.queue.replica;

import io.blit.queue.TermHistory;
import io.blit.queue.internal.file.FileModes;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.record.RecordScan;
import io.blit.queue.internal.record.SegmentTail;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.segment.SegmentHeader;
import io.blit.queue.replica.QueueVerifier.Problem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Restores a queue's damaged segment files from another copy of the same queue (a replica, or the primary of a
 * damaged replica), byte for byte: what {@code blit repair --dir D --from R} runs. Replicas hold byte-identical files
 * (docs/replication.md), so every byte of a file of {@code D} that {@code check} finds damaged, and that {@code R}
 * holds intact, is the byte {@code R} holds at the same offset.
 *
 * <p><b>What is restored.</b> Only segment files in which {@link QueueVerifier} finds damage, only from a copy
 * of that file in {@code R} in which it finds none, and only the part both copies must agree on: the header area,
 * and the records and checkpoint slots below the <i>agreed end</i>, the lesser of {@code R}'s end in that file and the
 * first index where the two directories' term histories part (an old primary's records after a failover are not the
 * new primary's: they are never copied over each other). Within that part, every byte that differs is written from
 * {@code R} in place (positional writes, never through a link, then forced), so that processes that map the file
 * see the restored bytes; appenders, which write only after the queue's end, may run meanwhile. Sidecar files are
 * each node's own and never restored.
 *
 * <p><b>Nothing lost.</b> Before a file is written, its damaged copy is kept whole in {@code D/repair/<UTC time>/}
 * (created with the queue's modes, never through a link), beside a text file {@code restored} listing each range
 * restored (file, offset, length).
 *
 * <p>Not thread-safe against another repair of the same directory. Reads {@code R} only.
 */
public final class QueueRepair {
    /** The directory, inside the queue's, where damaged copies are kept. */
    public static final String KEPT_DIRECTORY = "repair";

    private QueueRepair() {
    }

    /**
     * One range restored.
     *
     * @param file   the file of {@code D}
     * @param offset the byte offset of the range
     * @param length its length in bytes
     */
    public record Restored(Path file, long offset, long length) {
    }

    /**
     * What a repair did.
     *
     * @param restored   every range restored, in file and offset order
     * @param kept       the directory holding the damaged copies, or null if nothing was restored
     * @param unrepaired each damage found before the repair that it could not restore, with why
     * @param remaining  what {@code check} finds in {@code D} after the repair (empty: the queue is whole)
     */
    public record Result(List<Restored> restored, Path kept, List<String> unrepaired, List<Problem> remaining) {
    }

    /**
     * Repairs {@code dir} from {@code from}.
     *
     * @param dir  the damaged queue directory
     * @param from another copy of the same queue: a replica of it, or its source
     * @return what was restored, and what is left
     * @throws IllegalArgumentException if either is not a queue directory, if they are the same directory, or if
     *                                  their queue ids differ (another queue's files are never copied in)
     * @throws UncheckedIOException     if a file cannot be read or written
     */
    public static Result repair(Path dir, Path from) {
        requireQueue(dir, "the queue to repair");
        requireQueue(from, "the copy to repair from");
        try {
            if (Files.isSameFile(dir, from)) {
                throw new IllegalArgumentException(dir + " and " + from + " are the same directory");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Problem> before = QueueVerifier.verify(dir);
        Map<Path, List<Problem>> damagedFiles = new LinkedHashMap<>();
        List<String> unrepaired = new ArrayList<>();
        for (Problem problem : before) {
            if (SegmentFiles.isSegmentName(problem.file().getFileName().toString())) {
                damagedFiles.computeIfAbsent(problem.file(), file -> new ArrayList<>()).add(problem);
            } else {
                unrepaired.add(problem + " (a sidecar file: each node's own, never copied from another)");
            }
        }
        if (damagedFiles.isEmpty()) {
            return new Result(List.of(), null, unrepaired, before);
        }
        long agreed = agreedEnd(dir, from, damagedFiles, unrepaired);
        List<Problem> fromProblems = QueueVerifier.verify(from);
        List<Restored> restored = new ArrayList<>();
        Path kept = null;
        for (Map.Entry<Path, List<Problem>> damaged : damagedFiles.entrySet()) {
            Path file = damaged.getKey();
            Path copy = from.resolve(file.getFileName());
            String refusal = agreed == Long.MIN_VALUE ? "the term histories cannot be compared"
                    : !Files.isRegularFile(copy, LinkOption.NOFOLLOW_LINKS) ? from + " holds no " + file.getFileName()
                    : fromProblems.stream().anyMatch(p -> p.file().equals(copy)) ? "the copy in " + from
                    + " is damaged too" : null;
            if (refusal != null) {
                damaged.getValue().forEach(p -> unrepaired.add(p + " (" + refusal + ")"));
                continue;
            }
            List<long[]> ranges = differingRanges(file, copy, agreed);
            if (ranges.isEmpty()) {
                damaged.getValue().forEach(p -> unrepaired.add(p + " (" + from + " holds the same bytes there,"
                        + " or the damage is after the end both copies agree on)"));
                continue;
            }
            if (kept == null) {
                kept = keptDirectory(dir);
            }
            restore(file, copy, ranges, kept);
            ranges.forEach(range -> restored.add(new Restored(file, range[0], range[1])));
        }
        if (kept != null) {
            writeList(kept, restored, from);
        }
        return new Result(List.copyOf(restored), kept, List.copyOf(unrepaired), QueueVerifier.verify(dir));
    }

    /**
     * The first index at which the histories of {@code dir} and {@code from} part, or Long.MAX_VALUE if they never do;
     * Long.MIN_VALUE (and every damage unrepaired) if a history cannot be read.
     *
     * @throws IllegalArgumentException if their queue ids differ
     */
    private static long agreedEnd(Path dir, Path from, Map<Path, List<Problem>> damaged, List<String> unrepaired) {
        TermHistory ours;
        TermHistory theirs;
        try {
            ours = QueueIdentity.history(dir);
            theirs = QueueIdentity.history(from);
        } catch (RuntimeException e) { // a damaged terms.blitt: check names it
            return Long.MIN_VALUE;
        }
        if (ours == null || theirs == null) {
            return ours == theirs ? Long.MAX_VALUE : Long.MIN_VALUE; // a build before terms wrote both, or refuse
        }
        if (!ours.queueId().equals(theirs.queueId())) {
            throw new IllegalArgumentException(from + " holds queue " + theirs.queueId() + ", not " + ours.queueId()
                    + " as " + dir + ": another queue's files are never copied in");
        }
        List<TermHistory.Term> a = ours.terms();
        List<TermHistory.Term> b = theirs.terms();
        for (int k = 0; k < Math.max(a.size(), b.size()); k++) {
            if (k >= a.size()) {
                return b.get(k).firstIndex();
            }
            if (k >= b.size()) {
                return a.get(k).firstIndex();
            }
            if (!a.get(k).equals(b.get(k))) {
                return Math.min(a.get(k).firstIndex(), b.get(k).firstIndex());
            }
        }
        return Long.MAX_VALUE;
    }

    /**
     * The ranges, as {offset, length}, where the damaged {@code file} differs from its intact {@code copy}: in the header
     * area, the checkpoint slots of ordinals below the agreed end and the records before it.
     */
    private static List<long[]> differingRanges(Path file, Path copy, long agreedIndex) {
        String name = copy.getFileName().toString();
        SegmentHeader.Info copyInfo = SegmentFiles.readHeader(copy.getParent(),
                Long.parseLong(name.substring("segment-".length(), name.length() - ".blitq".length())));
        List<long[]> ranges = new ArrayList<>();
        if (agreedIndex <= copyInfo.firstIndex()) {
            return ranges; // the file is after the histories part: each copy's own, even its header
        }
        try (MappedSegment intact = new MappedSegment(copyInfo, true);
             FileChannel damaged = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
             java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            if (damaged.size() != intact.size()) {
                return ranges; // a file of another size is not this file: check names its size
            }
            long agreedOrdinal = agreedIndex - copyInfo.firstIndex();
            RecordScan.Stop end = RecordScan.fromStart(intact, (position, ordinal, word) -> ordinal >= agreedOrdinal);
            MemorySegment ours = damaged.map(FileChannel.MapMode.READ_ONLY, 0, damaged.size(), arena);
            MemorySegment theirs = intact.segment();
            diff(ours, theirs, 0, SegmentFormat.HEADER_AREA, ranges);
            long slots = Math.min(SegmentFormat.CHECKPOINT_SLOTS, (end.ordinal() + SegmentFormat.CHECKPOINT_INTERVAL - 1)
                    >>> SegmentFormat.CHECKPOINT_INTERVAL_SHIFT); // slots of ordinals below the end
            diff(ours, theirs, SegmentFormat.HEADER_AREA, SegmentFormat.HEADER_AREA + slots * Integer.BYTES, ranges);
            long recordsEnd = end.endsFile() && end.word() != io.blit.queue.internal.record.RecordStep.FILE_END
                    ? end.position() + Long.BYTES : end.position(); // a padding word is the copy's too
            diff(ours, theirs, SegmentFormat.RECORDS_START, Math.min(recordsEnd, intact.size()), ranges);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compare " + file + " with " + copy, e);
        }
        return ranges;
    }

    /** Adds the ranges of [from, to) where {@code a} and {@code b} differ, whole 8-byte words, merged when adjacent. */
    private static void diff(MemorySegment a, MemorySegment b, long from, long to, List<long[]> ranges) {
        long at = from;
        while (at < to) {
            long mismatch = MemorySegment.mismatch(a, at, to, b, at, to);
            if (mismatch < 0) {
                return;
            }
            long start = at + mismatch & ~7L;
            long stop = Math.min(to, start + 8);
            while (stop < to && !equalWords(a, b, stop, Math.min(to, stop + 8))) {
                stop = Math.min(to, stop + 8);
            }
            long[] last = ranges.isEmpty() ? null : ranges.getLast();
            if (last != null && last[0] + last[1] == start) {
                last[1] += stop - start;
            } else {
                ranges.add(new long[] {start, stop - start});
            }
            at = stop;
        }
    }

    private static boolean equalWords(MemorySegment a, MemorySegment b, long from, long to) {
        return MemorySegment.mismatch(a, from, to, b, from, to) < 0;
    }

    private static void restore(Path file, Path copy, List<long[]> ranges, Path kept) {
        try {
            Files.copy(file, kept.resolve(file.getFileName()), LinkOption.NOFOLLOW_LINKS,
                    StandardCopyOption.COPY_ATTRIBUTES);
            try (FileChannel in = FileChannel.open(copy, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
                 FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                for (long[] range : ranges) {
                    java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate((int) Math.min(range[1], 1 << 20));
                    for (long done = 0; done < range[1]; ) {
                        bytes.clear().limit((int) Math.min(bytes.capacity(), range[1] - done));
                        while (bytes.hasRemaining()) {
                            if (in.read(bytes, range[0] + done + bytes.position()) < 0) {
                                throw new IOException(copy + " ended before byte " + (range[0] + done));
                            }
                        }
                        bytes.flip();
                        while (bytes.hasRemaining()) {
                            out.write(bytes, range[0] + done + bytes.position());
                        }
                        done += bytes.limit();
                    }
                }
                out.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot restore " + file + " from " + copy + " (its damaged copy is in "
                    + kept + ")", e);
        }
    }

    static Path keptDirectory(Path dir) {
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC)
                .format(Instant.now());
        boolean ownerOnly = SegmentTail.ownerOnly(dir);
        try {
            Path parent = dir.resolve(KEPT_DIRECTORY);
            FileModes.requireNoLink(parent);
            FileModes.createDirectories(parent, ownerOnly);
            for (int n = 1; ; n++) {
                Path kept = parent.resolve(n == 1 ? stamp : stamp + "-" + n);
                if (!Files.exists(kept, LinkOption.NOFOLLOW_LINKS)) {
                    FileModes.createDirectory(kept, ownerOnly);
                    return kept;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the directory for damaged copies in " + dir, e);
        }
    }

    private static void writeList(Path kept, List<Restored> restored, Path from) {
        StringBuilder text = new StringBuilder("restored from ").append(from.toAbsolutePath()).append('\n');
        for (Restored range : restored) {
            text.append(range.file().getFileName()).append(' ').append(range.offset()).append(' ')
                    .append(range.length()).append('\n');
        }
        try (FileChannel out = FileModes.open(kept.resolve("restored"), SegmentTail.ownerOnly(kept.getParent().getParent()),
                Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))) {
            out.write(java.nio.ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)));
            out.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the list of restored ranges in " + kept, e);
        }
    }

    private static void requireQueue(Path dir, String what) {
        Objects.requireNonNull(dir, what);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) || SegmentFiles.list(dir).length == 0) {
            throw new IllegalArgumentException("no queue in " + dir + " (" + what + ")");
        }
    }
}
