package io.blit.queue.internal.record;

import io.blit.queue.internal.file.FileModes;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.segment.SegmentHeader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.zip.CRC32C;

/**
 * The tail of a queue from a given index: its end, a copy of a file's records from an index on into a file of their
 * own, and the cut that ends a queue at an index. The file-level steps of {@code io.blit.queue.replica.Quarantine};
 * each walks records with {@link RecordStep}, counting records of every state (as a replica's resume does).
 *
 * <p>No method takes a lock or coordinates with writers: callers guarantee that nothing appends to the queue
 * meanwhile. Stateless; thread-safe as far as that guarantee holds.
 */
public final class SegmentTail {
    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private SegmentTail() {
    }

    /** Scans {@code file} from its nearest checkpoint to ordinal {@code ordinal}, or to the end of its records. */
    private static RecordScan.Stop walk(MappedSegment file, long ordinal) {
        return RecordScan.toOrdinal(file, ordinal);
    }

    /**
     * The end of the queue in {@code dir}: the index after the newest file's last record of any state (its padding
     * word or its end counts as the end), or 0 without files.
     *
     * @throws io.blit.queue.QueueCorruptedException if a header or record word of the newest file is invalid
     */
    public static long end(Path dir) {
        long[] firsts = SegmentFiles.list(dir);
        if (firsts.length == 0) {
            return 0;
        }
        long first = firsts[firsts.length - 1];
        try (MappedSegment file = new MappedSegment(SegmentFiles.readHeader(dir, first), true)) {
            return first + walk(file, Long.MAX_VALUE).ordinal();
        }
    }

    /**
     * Writes into {@code target} (a directory that is not yet a queue) the file of first index {@code from}: the
     * header of {@code dir}'s file {@code first} with that first index, then that file's records from index
     * {@code from} on, byte for byte, from the first record position, then the source file's padding word (or one
     * of its own if the source file ended at its end without one: its next file exists), and their checkpoints. A
     * record still CLAIMED (its writer is dead: the caller guarantees no writer) is stored ABANDONED, as a reader that
     * may write stores it. Forced before return.
     *
     * @param privateFiles whether the file is created {@code rw-------}
     * @throws UncheckedIOException if the file system fails
     * @throws io.blit.queue.QueueCorruptedException if a header or record word of the source file is invalid
     */
    public static void copyFrom(Path dir, long first, long from, Path target, boolean privateFiles) {
        SegmentHeader.Info info = SegmentFiles.readHeader(dir, first);
        byte[] header = withFirstIndex(SegmentFiles.readHeaderBytes(dir, first), from);
        Path file = SegmentFiles.path(target, from);
        try (MappedSegment source = new MappedSegment(info, true)) {
            RecordScan.Stop start = walk(source, from - first);
            RecordScan.Stop end = walk(source, Long.MAX_VALUE);
            long bytes = end.position() - start.position();
            try (FileChannel channel = FileModes.open(file, privateFiles, EnumSet.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.READ, StandardOpenOption.WRITE));
                 Arena arena = Arena.ofConfined()) {
                channel.write(ByteBuffer.wrap(header), 0);
                channel.write(ByteBuffer.allocate(1), info.segmentSize() - 1);
                MemorySegment copy = channel.map(FileChannel.MapMode.READ_WRITE, 0, info.segmentSize(), arena);
                MemorySegment.copy(source.segment(), start.position(), copy, SegmentFormat.RECORDS_START, bytes);
                long after = SegmentFormat.RECORDS_START + bytes;
                if (end.word() != 0 && end.word() != RecordStep.FILE_END) { // the source's padding word
                    RecordHeader.storeRelease(copy, after, end.word());
                } else if (end.word() == RecordStep.FILE_END && after + RecordHeader.LENGTH <= info.segmentSize()) {
                    RecordHeader.storeRelease(copy, after, RecordHeader.padding(0)); // its records moved up
                }
                settle(MappedSegment.view(SegmentHeader.decodeCopy(target, header), copy));
                copy.force();
                channel.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Walks every record of {@code file}, writing each ordinal's checkpoint and storing a CLAIMED record's word
     * ABANDONED (same bits, state 11); forces the file.
     *
     * @throws io.blit.queue.QueueCorruptedException if a record word is invalid
     */
    public static void settle(MappedSegment file) {
        RecordScan.fromStart(file, (position, ordinal, word) -> {
            if (RecordHeader.state(word) == RecordHeader.STATE_CLAIMED) {
                RecordHeader.storeRelease(file.segment(), position, RecordHeader.abandoned(word));
            }
            Checkpoints.record(file.segment(), ordinal, position);
            return false;
        });
        file.segment().force();
    }

    /**
     * Ends the records of {@code dir}'s file {@code first} at index {@code from}: clears every checkpoint slot of an
     * ordinal at or after it, then every non-zero word from that record's position to the file's end (holes of a
     * sparse file stay holes), and forces the file. A file whose records end at {@code from} with its padding word
     * or its end is left as it is (its next file starts at {@code from}). Idempotent: a file whose records end at
     * or before {@code from} with an empty word has its bytes from there on cleared again.
     *
     * @throws io.blit.queue.QueueCorruptedException if a header or record word before {@code from} is invalid
     */
    public static void cutAt(Path dir, long first, long from) {
        try (MappedSegment file = new MappedSegment(SegmentFiles.readHeader(dir, first))) {
            long ordinal = from - first;
            RecordScan.Stop stop = walk(file, ordinal);
            if (stop.endsFile()) {
                return; // the file's records end at from with its padding word or its end: nothing after from here
            }
            clear(file, ordinal, stop.position());
        }
    }

    /**
     * As {@link #cutAt}, for a file whose record of index {@code from} may be damaged: its word is never read (the
     * walk stops at the record before it, which must be whole). {@code from} must be above {@code first}.
     *
     * @throws io.blit.queue.QueueCorruptedException if a header or record word before {@code from} is invalid
     */
    public static void cutAtDamage(Path dir, long first, long from) {
        try (MappedSegment file = new MappedSegment(SegmentFiles.readHeader(dir, first))) {
            long ordinal = from - first;
            RecordScan.Stop before = walk(file, ordinal - 1);
            if (before.atEnd()) {
                return; // the file's records end before from: nothing of from or after is here
            }
            clear(file, ordinal, before.position() + RecordHeader.recordLength(RecordHeader.length(before.word())));
        }
    }

    /** Clears the checkpoint slots of ordinals from {@code ordinal} on and every byte from {@code position}; forces. */
    private static void clear(MappedSegment file, long ordinal, long position) {
        MemorySegment segment = file.segment();
        for (long slot = Math.max(1, (ordinal + SegmentFormat.CHECKPOINT_INTERVAL - 1) >>> SegmentFormat.CHECKPOINT_INTERVAL_SHIFT);
             slot < SegmentFormat.CHECKPOINT_SLOTS; slot++) {
            segment.set(ValueLayout.JAVA_INT, SegmentFormat.CHECKPOINT_AREA_OFFSET + slot * Integer.BYTES, 0);
        }
        for (long at = position; at + Long.BYTES <= file.size(); at += Long.BYTES) {
            if (segment.get(ValueLayout.JAVA_LONG, at) != 0) {
                segment.set(ValueLayout.JAVA_LONG, at, 0);
            }
        }
        segment.force();
    }

    /**
     * {@code header} (a file header as stored, CRC included) stating {@code firstIndex}, its CRC recomputed; every
     * other byte as it was.
     */
    static byte[] withFirstIndex(byte[] header, long firstIndex) {
        byte[] copy = header.clone();
        MemorySegment bytes = MemorySegment.ofArray(copy);
        bytes.set(LE_LONG, SegmentFormat.FIRST_INDEX_OFFSET, firstIndex);
        int headerLength = bytes.get(LE_INT, SegmentFormat.HEADER_LENGTH_OFFSET);
        CRC32C crc = new CRC32C();
        crc.update(copy, 0, headerLength);
        bytes.set(LE_INT, headerLength, (int) crc.getValue());
        return copy;
    }

    /**
     * Forces {@code dir}'s entries (names created, renamed or deleted in it) to storage.
     *
     * @throws UncheckedIOException if the file system fails
     */
    public static void forceDirectory(Path dir) {
        try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
            directory.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force directory " + dir, e);
        }
    }

    /**
     * Forces the file {@code file} (its data and size) to storage.
     *
     * @throws UncheckedIOException if the file system fails
     */
    public static void forceFile(Path file) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS)) {
            channel.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force " + file, e);
        }
    }

    /** Whether {@code dir} grants nothing to group and others (its queue's files are then owner-only too). */
    public static boolean ownerOnly(Path dir) {
        try {
            return Files.getPosixFilePermissions(dir).stream().allMatch(p -> p.name().startsWith("OWNER"));
        } catch (UnsupportedOperationException | IOException e) {
            return false;
        }
    }
}
