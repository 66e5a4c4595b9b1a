package io.blit.queue;

import io.blit.queue.internal.BlankSegmentPreparer;
import io.blit.queue.internal.Checkpoints;
import io.blit.queue.internal.MappedFaults;
import io.blit.queue.internal.MappedSegment;
import io.blit.queue.internal.RecordHeader;
import io.blit.queue.internal.ReplicaMarker;
import io.blit.queue.internal.SegmentFiles;
import io.blit.queue.internal.SegmentHeader;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * Writes a replica: a queue directory that holds a byte-identical copy of another queue's files, record by record,
 * from the events of a {@link RecordStream} on the source (carried between machines by the replication module).
 * Each file is created from the source file's header bytes (same first index, segment size, creation stamp and layout
 * descriptor), each record lands at the same index and position with the same header word and payload bytes, and
 * the checkpoints are the source's; so {@code check}, {@code dump} and tailers work on the replica unchanged, and a
 * {@link RecordStream} on it can feed further replicas.
 *
 * <p><b>Crash safety.</b> A record's payload is written before its header word, which is stored last with release
 * semantics: a writer killed at any point leaves either the whole record or an empty header word (whatever payload
 * bytes it had copied lie behind a 0 word, which readers never pass, and are overwritten when the record is written
 * again). {@link #open} therefore resumes at the first empty word: {@link #nextIndex()} is the last complete index
 * + 1. Files are published complete ({@code link(2)} of a forced temporary), as the queue's own appenders do; the
 * next file is zero-filled in a background thread before the source rolls to it, so that
 * writing into it faults no page in from a hole.
 *
 * <p><b>Refusals.</b> {@link #open} marks the directory as a replica ({@code replica-of}, naming the source): from
 * then on {@link BlitQueue#appender()} throws in every process. Events out of order (a gap, a duplicate, a record
 * that does not fit, a file whose header differs from the copy already held) throw {@link IllegalStateException}
 * and write nothing.
 *
 * <p>Not thread-safe: it belongs to the thread that opened it (its mapping is confined to that thread).
 */
public final class ReplicaWriter implements AutoCloseable {
    /**
     * The most bytes of a {@link #writeRun run} of two or more records. A writer killed while it copied a run leaves
     * that run's bytes (header words included) behind the run's still-empty first word; {@link #open} clears this
     * many bytes from the first empty word on, so that a later write finds empty words where it starts.
     */
    public static final int MAX_RUN_BYTES = 1 << 20;
    /** The largest segment size of a file a replica creates: the checkpoint slots hold u32 positions (Checkpoints). */
    private static final long MAX_SEGMENT_SIZE = 1L << 32;
    private static final ValueLayout.OfLong WORD_IN_COPY = ValueLayout.JAVA_LONG_UNALIGNED;

    private final Path dir;
    /** The next file, zero-filled in the background before the source rolls (see {@link BlankSegmentPreparer}). */
    private final BlankSegmentPreparer blanks;
    private MappedSegment file;
    private long position;
    private long ordinal;
    /** The current file ended with a padding word: the next event must be the next file. */
    private boolean padded;
    private long nextIndex = -1;

    private ReplicaWriter(Path dir) {
        this.dir = dir;
        this.blanks = new BlankSegmentPreparer(dir);
    }

    /**
     * Opens (creating and marking if needed) the replica in {@code dir} and finds where it resumes.
     *
     * @param source what the {@code replica-of} marker names (e.g. the source's address and directory)
     * @throws IllegalStateException   if {@code dir} holds a queue that is not a replica (it has files but no marker)
     * @throws QueueCorruptedException if a file's header is invalid, a record points past its file's end, or clearing
     *                                 what a killed writer left faults (the file system failed)
     */
    public static ReplicaWriter open(Path dir, String source) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(source, "source");
        long[] firsts = Files.isDirectory(dir) ? SegmentFiles.list(dir) : new long[0];
        if (firsts.length > 0 && ReplicaMarker.sourceOf(dir) == null) {
            throw new IllegalStateException("queue " + dir + " is not a replica (it has segment files and no "
                    + ReplicaMarker.NAME + " marker): replicate into an empty or replica directory");
        }
        ReplicaMarker.mark(dir, source);
        SegmentFiles.deleteStaleTemporaries(dir);
        ReplicaWriter writer = new ReplicaWriter(dir);
        if (firsts.length > 0) {
            writer.resumeIn(firsts[firsts.length - 1]);
        }
        return writer;
    }

    /** Maps the newest file and walks to its first empty header word (or its padding word, or its end). */
    private void resumeIn(long first) {
        file = new MappedSegment(SegmentFiles.readHeader(dir, first));
        int checkpoint = Checkpoints.nearest(file.segment(), Long.MAX_VALUE);
        position = Checkpoints.position(file, checkpoint);
        ordinal = (long) checkpoint << Checkpoints.INTERVAL_SHIFT;
        while (position + RecordHeader.LENGTH <= file.size()) {
            long word = RecordHeader.loadAcquire(file.segment(), position);
            if (word == 0) {
                break;
            }
            if (RecordHeader.isPadding(word)) {
                padded = true;
                break;
            }
            position += RecordHeader.recordLength(file.checkedLength(word, position));
            ordinal++;
        }
        if (!padded) {
            clearLeftovers();
        }
        nextIndex = first + ordinal;
        blanks.request(file.info().segmentSize());
    }

    /**
     * Clears what a writer killed during a run may have left behind the first empty word (see
     * {@link #MAX_RUN_BYTES}): only the words that are not zero, so that the holes of a sparse file stay holes (a
     * full file system can then still be opened).
     */
    private void clearLeftovers() {
        MemorySegment segment = file.segment();
        long end = Math.min(file.size(), position + MAX_RUN_BYTES);
        try {
            for (long at = position; at + Long.BYTES <= end; at += Long.BYTES) {
                if (segment.get(ValueLayout.JAVA_LONG, at) != 0) {
                    segment.set(ValueLayout.JAVA_LONG, at, 0);
                }
            }
            MappedFaults.surfacePending();
        } catch (InternalError fault) {
            throw MappedFaults.translate(fault, file, position, true);
        }
    }

    /** The index of the next record this replica expects, or -1 if it holds no file yet (it takes any first file). */
    public long nextIndex() {
        return nextIndex;
    }

    /** The header bytes of the newest file held (what a source compares with its own file), or null if none. */
    public byte[] newestFileHeader() {
        return file == null ? null : SegmentHeader.copyOf(file.segment(), file.info().file());
    }

    /**
     * Takes a {@link RecordStream#FILE} event: creates the file of {@code header} (the source's file header, as
     * {@link RecordStream#fileHeader()} gives it) unless the replica holds it already, and moves there.
     *
     * @throws IllegalStateException   if the file does not start at {@link #nextIndex()}, the current file is not
     *                                 finished (no padding word and room for a record), or the replica's file of
     *                                 that index has another header (another queue)
     * @throws QueueCorruptedException if the header is invalid ({@link #checkFileHeader}; checked before anything is
     *                                 created)
     * @throws java.io.UncheckedIOException if the file cannot be created (e.g. the file system is full: every page of
     *                                 a replica's file is allocated when it is created; nothing is written then)
     */
    public void startFile(byte[] header) {
        checkFileHeader(header);
        long first = SegmentHeader.firstIndexOf(header);
        long segmentSize = SegmentHeader.segmentSizeOf(header);
        if (file != null && file.firstIndex() == first) {
            requireSameHeader(first, newestFileHeader(), header);
            return;
        }
        if (nextIndex >= 0 && first != nextIndex) {
            throw new IllegalStateException("replica " + dir + " expects index " + nextIndex
                    + " next; the source's file starts at " + first);
        }
        if (file != null && !padded && position + RecordHeader.LENGTH <= file.size()) {
            throw new IllegalStateException("replica " + dir + ": file " + file.firstIndex()
                    + " has no padding word at " + position + " yet the source moved to file " + first);
        }
        if (!Files.exists(SegmentFiles.path(dir, first))) {
            SegmentFiles.publish(dir, first, prepared(first, segmentSize, header));
        }
        requireSameHeader(first, SegmentFiles.readHeaderBytes(dir, first), header); // before anything changes
        MappedSegment next = new MappedSegment(SegmentFiles.readHeader(dir, first));
        if (file != null) {
            file.segment().force(); // what force() promised for the finished file holds after the roll too
            file.close();
        }
        file = next;
        position = SegmentHeader.RECORDS_START;
        ordinal = 0;
        padded = false;
        nextIndex = first;
        blanks.request(segmentSize);
    }

    /**
     * Checks a source's file header as {@link #startFile} takes it, reading and changing nothing of this replica's:
     * a valid segment header (magic, version, header length, CRC, descriptor) of exactly its header length plus the 4
     * CRC bytes, a segment size that is a multiple of 4096 from 12 KiB to 4 GiB (the checkpoint slots hold u32 record
     * positions), and a first index from 0 to what leaves its file's records below 2^63. The header may come from the
     * network, and its segment size is what the replica allocates and zero-fills. {@link #startFile} checks this
     * first; a caller that must tell a header it was sent from a failure of its own files calls it before.
     *
     * @throws QueueCorruptedException naming the file of the header's first index and the offset of the problem
     */
    public void checkFileHeader(byte[] header) {
        long first = SegmentHeader.firstIndexOf(header);
        long segmentSize = SegmentHeader.segmentSizeOf(header);
        Path path = SegmentFiles.path(dir, first);
        byte[] area = Arrays.copyOf(header, SegmentHeader.HEADER_AREA);
        SegmentHeader.decode(path, area, segmentSize, first);
        if (!Arrays.equals(SegmentHeader.copyOf(MemorySegment.ofArray(area), path), header)) {
            throw new QueueCorruptedException(path, 0, "a header copy of " + header.length
                    + " bytes: not exactly its header and CRC");
        }
        if (segmentSize < SegmentHeader.MIN_SEGMENT_SIZE || segmentSize > MAX_SEGMENT_SIZE || segmentSize % 4096 != 0) {
            throw new QueueCorruptedException(path, SegmentHeader.SEGMENT_SIZE_OFFSET, "segment size " + segmentSize
                    + " is not a multiple of 4096 from " + SegmentHeader.MIN_SEGMENT_SIZE + " to " + MAX_SEGMENT_SIZE);
        }
        if (first < 0 || first > Long.MAX_VALUE - MAX_SEGMENT_SIZE / RecordHeader.LENGTH) {
            throw new QueueCorruptedException(path, SegmentHeader.FIRST_INDEX_OFFSET, "first index " + first
                    + " out of range");
        }
    }

    /**
     * The file of {@code header} under a temporary name: the prepared blank completed, or (if none) one zero-filled
     * now. Every page of a replica's file is allocated before a record is written into it, so a full file system
     * fails here, with {@link java.io.UncheckedIOException} ("No space left on device"), not in a write to the mapping.
     */
    private Path prepared(long first, long segmentSize, byte[] header) {
        Path blank = blanks.take(segmentSize);
        if (blank == null) { // zero-filled here: a sparse file on a full file system would fault on the first write
            return SegmentFiles.prepare(dir, first, segmentSize, header, true);
        }
        try {
            SegmentFiles.completeBlank(blank, header);
            return blank;
        } catch (RuntimeException e) {
            SegmentFiles.deleteQuietly(blank);
            throw e;
        }
    }

    private void requireSameHeader(long first, byte[] held, byte[] header) {
        if (!Arrays.equals(held, header)) {
            throw new IllegalStateException("replica " + dir + " holds file " + first
                    + " with another header than the source's: a replica of another queue");
        }
    }

    /**
     * Takes a {@link RecordStream#RECORD} event: writes {@code payload} at the record's position, then stores
     * {@code word} there with release semantics (a tailer of the replica that sees the word sees the payload), and
     * the record's checkpoint if its ordinal has a slot. A padding word is stored alone.
     *
     * @param word    the record's header word as stored on the source (COMMITTED, ABANDONED, or padding; the same
     *                padding word again is ignored)
     * @param payload the record's payload bytes (empty for padding)
     * @return the record's index (for padding: the index the next file starts at)
     * @throws IllegalStateException    if no file is open or the current one ended; if the record does not fit in
     *                                  the file or its header word is not empty (this replica diverged)
     * @throws IllegalArgumentException if {@code word} is not a final record word (a padding word: committed, of
     *                                  length 0) or its length is not the payload's
     * @throws QueueCorruptedException  if writing into the mapped file faulted (the file system is out of space, or
     *                                  the file was truncated or failed): the record's word is not stored
     */
    public long write(long word, MemorySegment payload) {
        return write(word, payload, 0, payload.byteSize());
    }

    /**
     * As {@link #write(long, MemorySegment)}, with the payload the {@code length} bytes of {@code source} from
     * {@code offset} (no slice to allocate per record).
     */
    public long write(long word, MemorySegment source, long offset, long size) {
        if (padded && RecordHeader.isPadding(word)) {
            return nextIndex; // the same padding word again (a stream restarted at the file's end)
        }
        if (file == null || padded) {
            throw new IllegalStateException("replica " + dir + " expects the file of index " + nextIndex + " first");
        }
        long state = RecordHeader.state(word);
        if (state != RecordHeader.STATE_COMMITTED && state != RecordHeader.STATE_ABANDONED) {
            throw new IllegalArgumentException("not a committed, abandoned or padding record word: "
                    + RecordHeader.describe(word));
        }
        long length = RecordHeader.length(word);
        if (RecordHeader.isPadding(word) && (state != RecordHeader.STATE_COMMITTED || length != 0)) {
            throw new IllegalArgumentException("not a padding word as a queue writes it (committed, length 0): "
                    + RecordHeader.describe(word));
        }
        long recordLength = RecordHeader.isPadding(word) ? RecordHeader.LENGTH : RecordHeader.recordLength(length);
        if (size != (RecordHeader.isPadding(word) ? 0 : length)) {
            throw new IllegalArgumentException("record word " + RecordHeader.describe(word) + " with "
                    + size + " payload bytes");
        }
        if (position + recordLength > file.size()) {
            throw new IllegalStateException("replica " + dir + ": record " + nextIndex + " of " + recordLength
                    + " bytes does not fit at " + position + " in file " + file.firstIndex() + " of " + file.size());
        }
        MemorySegment segment = file.segment();
        long held = RecordHeader.loadAcquire(segment, position);
        if (held != 0) {
            throw new IllegalStateException("replica " + dir + ": index " + nextIndex + " at " + position
                    + " is written already (" + RecordHeader.describe(held) + ")");
        }
        if (RecordHeader.isPadding(word)) {
            RecordHeader.storeRelease(segment, position, word);
            padded = true;
            return nextIndex;
        }
        try {
            MemorySegment.copy(source, offset, segment, position + RecordHeader.LENGTH, length);
            MappedFaults.surfacePending(); // a faulted copy (no space for a page) must not get its word
            RecordHeader.storeRelease(segment, position, word);
            Checkpoints.record(segment, ordinal, position);
            MappedFaults.surfacePending();
        } catch (InternalError fault) {
            throw MappedFaults.translate(fault, file, position, true);
        }
        long index = nextIndex;
        position += recordLength;
        ordinal++;
        nextIndex++;
        return index;
    }

    /**
     * Takes a {@link RecordStream#RUN}: {@code count} records stored back to back, as {@link RecordStream#copyRun}
     * gives them, which must start at {@link #nextIndex()} and at this replica's position in its current file. Every
     * header word in the run is checked (a final record word whose record ends inside the run, the last one exactly at
     * its end) before anything is written; then the bytes after the first word are copied, and the first word is
     * stored last with release semantics, so a tailer of the replica that sees it sees the whole run; then the
     * records' checkpoints.
     *
     * @param index    the run's first index
     * @param position the file offset of the run's first header word on the source
     * @param source   holds the run's bytes from {@code offset}
     * @param length   the run's length in bytes (a multiple of 8)
     * @param count    how many records it holds
     * @return the index after the run
     * @throws IllegalStateException    if no file is open or the current one ended; if the run does not start at
     *                                  {@link #nextIndex()} and this replica's position, does not fit in the file, or
     *                                  its first header word is not empty here (this replica diverged)
     * @throws IllegalArgumentException if a header word in the run is not a final record word, the records do not
     *                                  fill it exactly, their number is not {@code count}, or a run of two or more
     *                                  records is longer than {@link #MAX_RUN_BYTES}
     * @throws QueueCorruptedException  if writing into the mapped file faulted (the file system is out of space, or
     *                                  the file was truncated or failed): the run's first word is not stored
     */
    public long writeRun(long index, long position, MemorySegment source, long offset, long length, int count) {
        if (file == null || padded) {
            throw new IllegalStateException("replica " + dir + " expects the file of index " + nextIndex + " first");
        }
        if (index != nextIndex || position != this.position) {
            throw new IllegalStateException("replica " + dir + " expects index " + nextIndex + " at " + this.position
                    + " in file " + file.firstIndex() + "; a run starts at index " + index + " at " + position);
        }
        if (count < 1 || length < RecordHeader.LENGTH || (count > 1 && length > MAX_RUN_BYTES)) {
            throw new IllegalArgumentException("a run of " + count + " records in " + length + " bytes");
        }
        if (position + length > file.size()) {
            throw new IllegalStateException("replica " + dir + ": a run of " + length + " bytes does not fit at "
                    + position + " in file " + file.firstIndex() + " of " + file.size());
        }
        long first = checkedRun(source, offset, length, count);
        MemorySegment segment = file.segment();
        long held = RecordHeader.loadAcquire(segment, position);
        if (held != 0) {
            throw new IllegalStateException("replica " + dir + ": index " + nextIndex + " at " + position
                    + " is written already (" + RecordHeader.describe(held) + ")");
        }
        try {
            MemorySegment.copy(source, offset + RecordHeader.LENGTH, segment, position + RecordHeader.LENGTH,
                    length - RecordHeader.LENGTH);
            MappedFaults.surfacePending(); // a faulted copy (no space for a page) must not get its word
            RecordHeader.storeRelease(segment, position, first);
            for (long at = 0; at < length; ordinal++) {
                Checkpoints.record(segment, ordinal, position + at);
                at += RecordHeader.recordLength(source.get(WORD_IN_COPY, offset + at) & RecordHeader.LENGTH_MASK);
            }
            MappedFaults.surfacePending();
        } catch (InternalError fault) {
            throw MappedFaults.translate(fault, file, position, true);
        }
        this.position += length;
        nextIndex += count;
        return nextIndex;
    }

    /** Checks the header words of a run (see {@link #writeRun}); returns its first. */
    private static long checkedRun(MemorySegment source, long offset, long length, int count) {
        long at = 0;
        int records = 0;
        while (at < length) {
            if (at + RecordHeader.LENGTH > length) {
                throw new IllegalArgumentException("a run's last record ends " + (length - at) + " bytes into a header");
            }
            long word = source.get(WORD_IN_COPY, offset + at);
            long state = RecordHeader.state(word);
            if (RecordHeader.isPadding(word)
                    || (state != RecordHeader.STATE_COMMITTED && state != RecordHeader.STATE_ABANDONED)) {
                throw new IllegalArgumentException("not a committed or abandoned record word in a run: "
                        + RecordHeader.describe(word));
            }
            // unsigned: as an int, a length of 2^31 or more made a record of 0 bytes (an endless walk) or fewer
            long recordLength = RecordHeader.recordLength(word & RecordHeader.LENGTH_MASK);
            if (at + recordLength > length) {
                throw new IllegalArgumentException("record " + RecordHeader.describe(word) + " ends past its run");
            }
            at += recordLength;
            records++;
        }
        if (records != count) {
            throw new IllegalArgumentException("a run of " + records + " records announced as " + count);
        }
        return source.get(WORD_IN_COPY, offset);
    }

    /** Whether {@code word} is the padding word that ends a file (format: docs/queue-design.md, "Records"). */
    public static boolean isPadding(long word) {
        return RecordHeader.isPadding(word);
    }

    /** Forces the current file to storage ({@link MemorySegment#force()}): what a {@code sync} replica acknowledges. */
    public void force() {
        if (file != null) {
            file.segment().force();
        }
    }

    /** The replica's directory. */
    public Path directory() {
        return dir;
    }

    /** Unmaps the current file and deletes a prepared blank. Idempotent. */
    @Override
    public void close() {
        blanks.close();
        if (file != null) {
            file.close();
            file = null;
        }
    }
}
