package io.blit.queue.replica;

import io.blit.queue.Quarantined;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.file.FileModes;
import io.blit.queue.internal.record.SegmentTail;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.sidecar.QuarantineMarker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
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
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
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
 * its {@code quarantine-of} marker (which makes every process refuse appenders in it, wherever it is copied, and
 * {@code replicate status} say {@code role quarantine}) and a {@code cut-pending} file naming {@code from}, forced. (2) It is renamed to its name and the {@code quarantine}
 * directory and {@code dir} forced: the queue is complete and the cut is due. (3) The live queue is cut: its files
 * of first index {@code from} and later are deleted, newest first (all but its first file), the directory forced,
 * then the newest file left has its records from {@code from} on cleared, with their checkpoints, and is forced; a
 * file whose records end at {@code from} with a padding word keeps it, so that the next file, the source's or an
 * appender's, starts at {@code from}. (4) {@code cut-pending} is deleted. Every call first finishes what a killed call
 * left: a {@code .partial} directory (a copy; the live queue still holds its records) is deleted, a quarantine queue
 * that still holds {@code cut-pending} has its cut done again (each step is idempotent) and the file deleted. So no
 * record is ever only in a file being written, and a rerun after a crash at any step quarantines once.
 *
 * <p><b>What a rerun believes.</b> Nothing in {@code quarantine/} is acted on unchecked. The {@code quarantine}
 * directory must be a directory, not a symbolic link. A {@code .partial} entry is deleted only if it is what a move
 * makes: a directory (not a link) holding nothing but regular files or links named as a move names them (segment
 * files, {@code cut-pending}, {@code quarantine-of}); anything else is refused, naming it, and left alone. A
 * {@code cut-pending} is read without following links and believed only if it is a decimal index that names the
 * quarantine's own first index (its directory's name and its first segment file) and lies within the live queue
 * (at or after its first index): anything else is a {@link QueueCorruptedException} naming the file, and nothing is
 * cut. Entries that are symbolic links are never looked into.
 *
 * <p><b>Assumptions.</b> Nothing writes the queue meanwhile: the caller holds the directory as a replica (its
 * follower's {@link ReplicaLock} held, so no {@link ReplicaWriter}, and the {@code replica-of} marker refusing
 * appenders) or otherwise knows that no process appends. A record still CLAIMED in the moved tail is therefore a dead
 * writer's and is stored ABANDONED. Tailers of the live queue that read past {@code from} before the cut have read
 * records that are no longer in it. Stateless; thread-safe for different directories.
 */
public final class Quarantine {
    /** The subdirectory of a queue directory that holds its quarantine queues. */
    public static final String DIRECTORY = QuarantineMarker.PARENT;
    /** The file in a quarantine queue whose cut of the live queue is not finished; holds {@code from} in decimal. */
    static final String CUT_PENDING = "cut-pending";
    private static final String PARTIAL = ".partial";
    /** The longest {@code cut-pending} read: an index of up to 19 digits and a line end. */
    private static final int CUT_PENDING_MAX = 32;
    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

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
            FileModes.createDirectories(quarantines, ownerOnly);
            requireDirectory(quarantines);
            FileModes.createDirectory(partial, ownerOnly); // nothing of the name exists: not even a link
            int holding = SegmentFiles.fileHolding(firsts, from);
            SegmentTail.copyFrom(dir, firsts[holding], from, partial, ownerOnly);
            for (int k = holding + 1; k < firsts.length; k++) {
                Path linked = Files.createLink(SegmentFiles.path(partial, firsts[k]), SegmentFiles.path(dir, firsts[k]));
                try (MappedSegment file = new MappedSegment(SegmentFiles.readHeader(partial, firsts[k]))) {
                    SegmentTail.settle(file);
                }
                SegmentTail.forceFile(linked);
            }
            QuarantineMarker.mark(partial, dir, ownerOnly);
            Path pending = partial.resolve(CUT_PENDING);
            try (FileChannel out = FileModes.open(pending, ownerOnly, Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS))) {
                ByteBuffer text = ByteBuffer.wrap(Long.toString(from).getBytes(StandardCharsets.US_ASCII));
                while (text.hasRemaining()) {
                    out.write(text);
                }
                out.force(true);
            }
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
     * holds {@code cut-pending}, each checked first (see the class comment).
     *
     * @return the finished quarantine from {@code from}, if there was one
     * @throws IllegalStateException   if a {@code .partial} entry or the {@code quarantine} directory is not what a
     *                                 move makes: nothing is deleted or cut
     * @throws QueueCorruptedException if a {@code cut-pending} is invalid: nothing is cut
     */
    private static Optional<Quarantined> finishInterrupted(Path dir, long from) {
        Path quarantines = dir.resolve(DIRECTORY);
        if (!Files.exists(quarantines, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        requireDirectory(quarantines);
        Optional<Quarantined> same = Optional.empty();
        try {
            for (Path entry : entries(quarantines)) {
                if (entry.getFileName().toString().endsWith(PARTIAL)) {
                    requireMovesOwn(entry);
                    deleteTree(entry);
                    SegmentTail.forceDirectory(quarantines);
                    continue;
                }
                Path pending = entry.resolve(CUT_PENDING);
                if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)
                        && Files.exists(pending, LinkOption.NOFOLLOW_LINKS)) {
                    long pendingFrom = pendingFrom(dir, entry, pending);
                    long end = SegmentTail.end(entry);
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

    /**
     * The index {@code cut-pending} of quarantine {@code entry} names, checked: a regular file (not a link) holding a
     * decimal index, which is the quarantine's first index (its name's and its first file's) and lies within the live
     * queue in {@code dir}.
     *
     * @throws QueueCorruptedException naming the file, if it is anything else
     */
    private static long pendingFrom(Path dir, Path entry, Path pending) throws IOException {
        if (!Files.isRegularFile(pending, LinkOption.NOFOLLOW_LINKS)) {
            throw badPending(pending, 0, "not a regular file (a symbolic link, a directory, ...): a move writes a file"
                    + " holding its first index");
        }
        String text;
        try (FileChannel in = FileChannel.open(pending, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer bytes = ByteBuffer.allocate(CUT_PENDING_MAX + 1);
            while (bytes.hasRemaining() && in.read(bytes) > 0) {
                // read at most one byte more than a valid file holds
            }
            if (!bytes.hasRemaining()) {
                throw badPending(pending, CUT_PENDING_MAX, "longer than " + CUT_PENDING_MAX + " bytes, not an index");
            }
            text = new String(bytes.array(), 0, bytes.position(), StandardCharsets.US_ASCII).strip();
        }
        if (!text.matches("[0-9]{1,19}")) {
            throw badPending(pending, 0, "\"" + text.replaceAll("[^\\x20-\\x7e]", "?") + "\" is not a decimal index");
        }
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw badPending(pending, 0, text + " is beyond the largest index " + Long.MAX_VALUE);
        }
        String name = entry.getFileName().toString();
        if (!QuarantineMarker.DIRECTORY_NAME.matcher(name).matches() || !name.startsWith("from-" + value + "-")) {
            throw badPending(pending, 0, "index " + value + " is not the first index its quarantine's name "
                    + name + " gives (from-<first index>-<time>)");
        }
        long[] moved = SegmentFiles.list(entry);
        if (moved.length == 0 || moved[0] != value) {
            throw badPending(pending, 0, "index " + value + " is not the first index of the quarantine's records ("
                    + (moved.length == 0 ? "it holds no segment file: cutting the live queue would lose them"
                    : "its first file starts at " + moved[0]) + ")");
        }
        long[] live = SegmentFiles.list(dir);
        if (live.length == 0 || value < live[0]) {
            throw badPending(pending, 0, "index " + value + " is " + (live.length == 0 ? "in a queue without files"
                    : "before the live queue's first index " + live[0]) + ": no move makes such a cut");
        }
        return value;
    }

    private static QueueCorruptedException badPending(Path pending, long offset, String problem) {
        return new QueueCorruptedException(pending, offset, "a quarantine's cut-pending (the live queue is cut from"
                + " that index on when a move is finished): " + problem + "; nothing was cut. Look at the quarantine"
                + " and the live queue: if the quarantine holds the live queue's records from its first index on,"
                + " write that index into the file; if it is not a quarantine of this queue, move it out of "
                + pending.getParent().getParent());
    }

    /**
     * Refuses a {@code .partial} entry that is not what a move makes (a directory, not a link, of segment files, a
     * {@code cut-pending} and a marker): it is then not deleted.
     */
    private static void requireMovesOwn(Path partial) throws IOException {
        if (!Files.isDirectory(partial, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalStateException("quarantine " + partial + " is not a directory" + (Files.isSymbolicLink(
                    partial) ? " but a symbolic link" : "") + ": it is not a quarantine being written by Blit, which"
                    + " deletes only what it made; look at it and remove it by hand");
        }
        for (Path inside : entries(partial)) {
            String name = inside.getFileName().toString();
            boolean ownName = name.equals(CUT_PENDING) || name.equals(QuarantineMarker.NAME)
                    || SegmentFiles.isSegmentName(name);
            if (!ownName || Files.isDirectory(inside, LinkOption.NOFOLLOW_LINKS)) {
                throw new IllegalStateException("quarantine " + partial + " holds " + inside + ", which no move"
                        + " writes: it is not a quarantine being written by Blit, which deletes only what it made;"
                        + " look at it and remove it by hand");
            }
        }
    }

    /** Refuses a {@code quarantine} directory that is a link or not a directory: its entries are never looked into. */
    private static void requireDirectory(Path quarantines) {
        if (!Files.isDirectory(quarantines, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalStateException(quarantines + " is not a directory" + (Files.isSymbolicLink(quarantines)
                    ? " but a symbolic link" : "") + ": Blit keeps a queue's quarantines in a directory of its own"
                    + " and never follows a link there; move it away");
        }
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

    /**
     * Deletes a {@code .partial} quarantine ({@link #requireMovesOwn} checked): copies and links of records the live
     * queue still holds. Its entries are deleted as themselves (a link, not its target), then the directory.
     */
    private static void deleteTree(Path partial) throws IOException {
        for (Path inside : entries(partial)) {
            Files.delete(inside);
        }
        Files.delete(partial);
    }
}
