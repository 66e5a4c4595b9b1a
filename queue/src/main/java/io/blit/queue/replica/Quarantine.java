package io.blit.queue.replica;

import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.FileModes;
import io.blit.queue.internal.MappedSegment;
import io.blit.queue.internal.SegmentFiles;
import io.blit.queue.internal.SegmentTail;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Moves a queue's records from an index on into a quarantine queue inside its directory: the divergent tail of an old
 * primary that rejoins as a replica, kept (never deleted) and never served.
 *
 * <p>The quarantine queue is {@code <dir>/quarantine/from-<from>-<UTC time yyyyMMdd'T'HHmmss'Z'>} (with {@code -2},
 * {@code -3}, ... appended if a move from the same index took that name in the same second), a queue of its own:
 * its first file starts at index {@code from} (as a queue whose older files retention deleted), and its records are
 * the moved ones byte for byte at the same indices, with their types and append times. The live queue in {@code dir}
 * then ends at {@code from}: its next record gets index {@code from}. Nothing that lists a queue's files looks into
 * the {@code quarantine} subdirectory.
 *
 * <p><b>Order and crash safety.</b> (1) The quarantine queue is built under {@code <name>.partial}: the file holding
 * {@code from} copied from that record on, every later file hard-linked, each with its checkpoints and forced, then
 * a {@code cut-pending} file naming {@code from}, forced. (2) It is renamed to its name and the {@code quarantine}
 * directory and {@code dir} forced: the queue is complete and the cut is due. (3) The live queue is cut: its files
 * of first index {@code from} and later are deleted, newest first (all but its first file), the directory forced,
 * then the newest file left has its records from {@code from} on cleared, with their checkpoints, and is forced; a
 * file whose records end at {@code from} with a padding word keeps it, so that the next file, the source's or an
 * appender's, starts at {@code from}. (4) {@code cut-pending} is deleted. Every call first finishes what a killed call
 * left: a {@code .partial} directory (a copy; the live queue still holds its records) is deleted, a quarantine queue
 * that still holds {@code cut-pending} has its cut done again (each step is idempotent) and the file deleted. So no
 * record is ever only in a file being written, and a rerun after a crash at any step quarantines once.
 *
 * <p><b>Assumptions.</b> Nothing writes the queue meanwhile: the caller holds the directory as a replica (its
 * follower's {@link ReplicaLock} held, so no {@link ReplicaWriter}, and the {@code replica-of} marker refusing
 * appenders) or otherwise knows that no process appends. A record still CLAIMED in the moved tail is therefore a dead
 * writer's and is stored ABANDONED. Tailers of the live queue that read past {@code from} before the cut have read
 * records that are no longer in it. Stateless; thread-safe for different directories.
 */
public final class Quarantine {
    /** The subdirectory of a queue directory that holds its quarantine queues. */
    public static final String DIRECTORY = "quarantine";
    /** The file in a quarantine queue whose cut of the live queue is not finished; holds {@code from} in decimal. */
    static final String CUT_PENDING = "cut-pending";
    private static final String PARTIAL = ".partial";
    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    /**
     * A quarantine queue.
     *
     * @param directory its directory, {@code <dir>/quarantine/from-<from>-<time>}
     * @param from      the index of its first record
     * @param end       the index after its last record (the live queue's end before the move)
     */
    public record Quarantined(Path directory, long from, long end) {
        public Quarantined {
            Objects.requireNonNull(directory, "directory");
            if (from < 0 || end <= from) {
                throw new IllegalArgumentException("a quarantine holds indices [from, end): from=" + from
                        + " end=" + end);
            }
        }
    }

    private Quarantine() {
    }

    /**
     * Moves the records of index {@code from} and later of the queue in {@code dir} into a new quarantine queue (see
     * the class comment), leaving {@code dir} ending at {@code from}. Creates nothing when {@code from} is at or past
     * the queue's end; first finishes a move a crash interrupted (and returns that move's quarantine if it was from
     * the same index). The quarantine directories are {@code rwx------}, and their files {@code rw-------}, if
     * {@code dir} grants nothing to group and others.
     *
     * @param dir  a queue directory that nothing appends to while this runs
     * @param from the first index to move
     * @return the quarantine queue, or empty if there was nothing to move
     * @throws IllegalArgumentException if {@code from} is negative or below the queue's first index (retention
     *                                  deleted those records)
     * @throws QueueCorruptedException  if a header or record word of a file read is invalid
     * @throws UncheckedIOException     if the file system fails (the live queue keeps every record; a rerun converges)
     */
    public static Optional<Quarantined> moveFrom(Path dir, long from) {
        Objects.requireNonNull(dir, "dir");
        if (from < 0) {
            throw new IllegalArgumentException("cannot quarantine from a negative index: from=" + from);
        }
        Optional<Quarantined> finished = finishInterrupted(dir, from);
        if (finished.isPresent()) {
            return finished;
        }
        long[] firsts = SegmentFiles.list(dir);
        long end = SegmentTail.end(dir);
        if (from >= end) {
            return Optional.empty();
        }
        if (from < firsts[0]) {
            throw new IllegalArgumentException("cannot quarantine queue " + dir + " from index " + from
                    + ": its first index is " + firsts[0] + " (retention deleted the records before it)");
        }
        boolean ownerOnly = SegmentTail.ownerOnly(dir);
        Path quarantines = dir.resolve(DIRECTORY);
        Path target = quarantines.resolve("from-" + from + "-" + STAMP.format(Instant.now()));
        for (int again = 2; Files.exists(target) || Files.exists(target.resolveSibling(target.getFileName() + PARTIAL));
             again++) { // a second move from the same index within the same second
            target = quarantines.resolve("from-" + from + "-" + STAMP.format(Instant.now()) + "-" + again);
        }
        publish(dir, firsts, from, target, ownerOnly);
        cut(dir, from, target);
        return Optional.of(new Quarantined(target, from, end));
    }

    /** Steps 1 and 2 of the class comment: the quarantine queue {@code target}, complete, forced, its cut pending. */
    private static void publish(Path dir, long[] firsts, long from, Path target, boolean ownerOnly) {
        Path quarantines = target.getParent();
        Path partial = quarantines.resolve(target.getFileName() + PARTIAL);
        try {
            FileModes.createDirectories(partial, ownerOnly);
            int holding = SegmentFiles.fileHolding(firsts, from);
            SegmentTail.copyFrom(dir, firsts[holding], from, partial, ownerOnly);
            for (int k = holding + 1; k < firsts.length; k++) {
                Path linked = Files.createLink(SegmentFiles.path(partial, firsts[k]), SegmentFiles.path(dir, firsts[k]));
                try (MappedSegment file = new MappedSegment(SegmentFiles.readHeader(partial, firsts[k]))) {
                    SegmentTail.settle(file);
                }
                SegmentTail.forceFile(linked);
            }
            Path pending = partial.resolve(CUT_PENDING);
            Files.writeString(pending, Long.toString(from), StandardCharsets.US_ASCII);
            SegmentTail.forceFile(pending);
            SegmentTail.forceDirectory(partial);
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
            SegmentTail.forceDirectory(quarantines);
            SegmentTail.forceDirectory(dir); // the quarantine directory's own entry, if this move created it
        } catch (IOException e) {
            throw new UncheckedIOException("cannot quarantine queue " + dir + " from index " + from + " into "
                    + partial + ": " + e.getMessage(), e);
        }
    }

    /**
     * Deletes the {@code .partial} quarantines a killed call left and finishes the cut of every quarantine that still
     * holds {@code cut-pending}.
     *
     * @return the finished quarantine from {@code from}, if there was one
     */
    private static Optional<Quarantined> finishInterrupted(Path dir, long from) {
        Path quarantines = dir.resolve(DIRECTORY);
        if (!Files.isDirectory(quarantines)) {
            return Optional.empty();
        }
        Optional<Quarantined> same = Optional.empty();
        try {
            for (Path entry : entries(quarantines)) {
                if (entry.getFileName().toString().endsWith(PARTIAL)) {
                    deleteTree(entry);
                    SegmentTail.forceDirectory(quarantines);
                    continue;
                }
                Path pending = entry.resolve(CUT_PENDING);
                if (Files.isRegularFile(pending)) {
                    long pendingFrom = Long.parseLong(Files.readString(pending, StandardCharsets.US_ASCII).strip());
                    long[] moved = SegmentFiles.list(entry);
                    long end = moved.length == 0 ? pendingFrom + 1 : SegmentTail.end(entry);
                    cut(dir, pendingFrom, entry);
                    if (pendingFrom == from && end > from) {
                        same = Optional.of(new Quarantined(entry, from, end));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot finish the quarantines in " + quarantines + ": " + e.getMessage(), e);
        }
        return same;
    }

    /** Step 3 and 4 of the class comment; each step idempotent. */
    private static void cut(Path dir, long from, Path quarantine) {
        long[] firsts = SegmentFiles.list(dir);
        try {
            int k = firsts.length - 1;
            for (; k > 0 && firsts[k] >= from; k--) {
                Files.delete(SegmentFiles.path(dir, firsts[k])); // its records are in the quarantine
            }
            SegmentTail.forceDirectory(dir);
            if (k >= 0) {
                SegmentTail.cutAt(dir, firsts[k], from);
            }
            Files.delete(quarantine.resolve(CUT_PENDING));
            SegmentTail.forceDirectory(quarantine);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot cut queue " + dir + " at index " + from + ": " + e.getMessage(), e);
        }
    }

    private static List<Path> entries(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return new ArrayList<>(entries.sorted().toList());
        }
    }

    /** Deletes a {@code .partial} quarantine: copies and links of records the live queue still holds. */
    private static void deleteTree(Path partial) throws IOException {
        try (Stream<Path> tree = Files.walk(partial)) {
            for (Path path : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
