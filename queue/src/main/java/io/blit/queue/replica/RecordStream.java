package io.blit.queue.replica;

import io.blit.queue.MessagesDeletedException;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.QueueOptions;
import io.blit.queue.internal.directory.RecordWalker;
import io.blit.queue.internal.directory.SegmentDirectory;
import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.record.RecordCursor;
import io.blit.queue.internal.record.RecordStep;
import io.blit.queue.internal.segment.FileCheck;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.SegmentHeader;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * Every record of a queue as it is stored, in index order, for replication: unlike a {@link io.blit.queue.Tailer}, it also
 * reports the records a dead writer left ABANDONED (their index is taken, their bytes are whatever the writer
 * wrote), the padding word that ends a file, and each file it enters with that file's header bytes — what a
 * {@link ReplicaWriter} needs to make a byte-identical copy. Opened with {@link #open(Path, QueueOptions, long)} over
 * a queue's directory, whose files it opens, maps and watches itself as a raw queue opened with those options would;
 * {@link #close()} gives them back.
 *
 * <p>{@link #poll()} returns one event at a time: {@link #FILE} (accessors {@link #index()}: the file's first
 * index, {@link #fileHeader()}), {@link #RECORD} ({@link #index()}, {@link #word()}, {@link #payload()}), or
 * {@link #NONE} when nothing new is committed yet. A record stays CLAIMED until its writer commits it; one whose
 * writer died is marked ABANDONED after the queue's abandon grace, as tailers do, and then reported.
 *
 * <p>Not thread-safe: it belongs to the thread that first polls it (its mapping is confined to that thread).
 * {@link #payload()} is a view of the mapped file, valid until the next {@link #poll()} or {@link #close()}.
 */
public final class RecordStream implements AutoCloseable {
    /** Nothing new is committed yet. */
    public static final int NONE = 0;
    /** The stream entered a file: {@link #index()} is its first index, {@link #fileHeader()} its header. */
    public static final int FILE = 1;
    /** A record: COMMITTED, ABANDONED, or the padding word that ends its file ({@link #isPadding}). */
    public static final int RECORD = 2;
    /**
     * From {@link #pollRun} only: one or more consecutive COMMITTED or ABANDONED records of one file, stored
     * back to back ({@link #index()} of the first, {@link #runCount()}, {@link #runPosition()}, {@link #runLength()},
     * {@link #copyRun}).
     */
    public static final int RUN = 3;

    private final SegmentDirectory files;
    private final RecordWalker walker;
    private final RecordCursor cursor;
    private boolean announceFile = true;
    /** The payload length of the record last returned, skipped by the next poll; -1 if none. */
    private long pendingSkip = -1;
    /** The padding word of the current file was returned: the next poll rolls. */
    private boolean paddingReturned;
    private long word;
    /** The payload length of the record last returned (0 for padding). */
    private int payloadLength;
    private int lastEvent = NONE;
    /** The run last returned (bytes from the cursor's position, records), skipped by the next poll; 0 if none. */
    private long runLength;
    private int runCount;
    private boolean closed;

    private RecordStream(SegmentDirectory files, long abandonGraceNanos, RecordCursor start) {
        this.files = files;
        this.walker = new RecordWalker(files, abandonGraceNanos);
        this.cursor = start;
    }

    /**
     * A new stream of the records of the queue in {@code dir} whose first record is {@code index}. The stream opens
     * the queue's files as {@code BlitQueue.openRaw(dir, options)} does (the abandon grace, read-only mode and file
     * modes are the options'); open the queue first, as a source does, so that the directory holds one.
     *
     * @throws IllegalArgumentException if {@code index} is negative or beyond the end of the queue
     * @throws MessagesDeletedException if {@code index} was in a file deleted by retention
     * @throws QueueCorruptedException  if a file header is invalid
     * @throws IllegalStateException    if the options are read-only and {@code dir} holds no queue
     * @throws java.io.UncheckedIOException if the directory cannot be listed
     */
    public static RecordStream open(Path dir, QueueOptions options, long index) {
        SegmentDirectory files = new SegmentDirectory(dir, null, FileCheck.NONE, options);
        try {
            RecordCursor start = RecordWalker.seek(files, index);
            if (start.index() != index) {
                start.close();
                throw QueueErrors.indexBeyondEnd(dir, index, start.index());
            }
            return new RecordStream(files, options.abandonGrace().toNanos(), start);
        } catch (RuntimeException | Error e) {
            files.close();
            throw e;
        }
    }

    /**
     * Moves past the event last returned and returns the next one.
     *
     * @return {@link #NONE}, {@link #FILE} or {@link #RECORD}
     * @throws MessagesDeletedException if the next file was deleted by retention before the stream reached it
     * @throws QueueCorruptedException  if a record header points past the end of its file or has state bits 00 but is
     *                                  not 0, or the file was truncated under the mapping
     * @throws IllegalStateException    if closed
     */
    public int poll() {
        return poll(0);
    }

    /**
     * As {@link #poll()}, except that committed and abandoned records come as a {@link #RUN}: as many consecutive
     * ones of the current file as are stored by now and fit in {@code maxBytes} (headers and alignment included),
     * at least one however long it is. A replica copies a run with one copy ({@link ReplicaWriter#writeRun}).
     * FILE events and the padding word (a RECORD) come as from {@link #poll()}.
     *
     * @param maxBytes the most bytes of a run of two or more records (a replica refuses such a run longer than
     *                 {@value ReplicaWriter#MAX_RUN_BYTES})
     * @return {@link #NONE}, {@link #FILE}, {@link #RECORD} (padding) or {@link #RUN}
     * @throws IllegalArgumentException if {@code maxBytes} is not positive
     * @throws MessagesDeletedException as {@link #poll()}
     * @throws QueueCorruptedException  as {@link #poll()}
     * @throws IllegalStateException    if closed
     */
    public int pollRun(long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive, got " + maxBytes);
        }
        return poll(maxBytes);
    }

    private int poll(long maxRunBytes) {
        if (closed) {
            throw QueueErrors.closed("record stream", files.path());
        }
        try {
            lastEvent = next(maxRunBytes);
            return lastEvent;
        } catch (RuntimeException | Error e) {
            throw cursor.failure(e);
        }
    }

    private int next(long maxRunBytes) {
        if (pendingSkip >= 0) {
            cursor.skip(pendingSkip);
            pendingSkip = -1;
        }
        if (runCount > 0) {
            cursor.moveTo(cursor.position() + runLength, cursor.ordinal() + runCount);
            runCount = 0;
            runLength = 0;
        }
        walker.ensureMapped(cursor);
        if (announceFile) {
            announceFile = false;
            return FILE;
        }
        while (true) {
            if (paddingReturned) {
                if (!walker.roll(cursor)) {
                    return NONE;
                }
                paddingReturned = false;
                return FILE;
            }
            long w = RecordStep.next(cursor, true, walker.claims());
            if (w == RecordStep.FILE_END) {
                paddingReturned = true; // no room for a word: roll as after a padding word, which is not reported
                continue;
            }
            if (w == 0 || RecordHeader.state(w) == RecordHeader.STATE_CLAIMED) {
                return NONE;
            }
            word = w;
            if (RecordHeader.isPadding(w)) {
                paddingReturned = true;
                payloadLength = 0;
                return RECORD;
            }
            int length = RecordHeader.length(w);
            payloadLength = length;
            if (maxRunBytes > 0) {
                extendRun(cursor.file(), cursor.position(), RecordHeader.recordLength(length), maxRunBytes);
                return RUN;
            }
            pendingSkip = length;
            return RECORD;
        }
    }

    /** Counts the stored records after the first one of a run at {@code start} that fit in {@code maxBytes}. */
    private void extendRun(MappedSegment file, long start, long firstLength, long maxBytes) {
        long end = start + firstLength;
        int count = 1;
        while (true) {
            long w = RecordStep.wordAt(file, end); // acquire: the record's bytes are visible
            if (w == 0 || RecordStep.endsFile(w) || !RecordHeader.isFinal(w)) {
                break;
            }
            long next = end + RecordHeader.recordLength(RecordHeader.length(w));
            if (next - start > maxBytes) {
                break;
            }
            end = next;
            count++;
        }
        runLength = end - start;
        runCount = count;
    }

    /** {@return how many records the {@link #RUN} last returned holds} */
    public int runCount() {
        return runCount;
    }

    /** {@return the file offset of the first header word of the {@link #RUN} last returned} */
    public long runPosition() {
        return cursor.position();
    }

    /** {@return the length in bytes of the {@link #RUN} last returned, from its first header word to its end} */
    public long runLength() {
        return runLength;
    }

    /**
     * For {@link #RUN}: copies its bytes as stored (header words, payloads, alignment) to {@code target}.
     *
     * @param target the segment to copy into, with {@link #runLength()} bytes from {@code offset}
     * @param offset the byte offset in {@code target} of the copy's first byte
     */
    public void copyRun(MemorySegment target, long offset) {
        MemorySegment.copy(cursor.segment(), cursor.position(), target, offset, runLength);
    }

    /**
     * For {@link #RUN}: copies {@code length} of its bytes as stored from {@code from} to {@code target}, for a record
     * sent in parts ({@link ReplicaWriter#writePart}); the run stays the current event until the next poll.
     *
     * @param target the segment to copy into, with {@code length} bytes from {@code offset}
     * @param offset the byte offset in {@code target} of the copy's first byte
     * @param from   the offset in the run of the first byte to copy
     * @param length how many bytes to copy
     * @throws IndexOutOfBoundsException if {@code [from, from + length)} is not within the run
     */
    public void copyRunPart(MemorySegment target, long offset, long from, long length) {
        java.util.Objects.checkFromIndexSize(from, length, runLength);
        MemorySegment.copy(cursor.segment(), cursor.position() + from, target, offset, length);
    }

    /**
     * {@return the index of the event last returned} For {@link #RECORD}: the record's (for a padding word: the index
     * the next file starts at); for {@link #RUN}: its first record's; for {@link #FILE}: the file's first index.
     */
    public long index() {
        return lastEvent == FILE ? cursor.firstIndex() : cursor.index();
    }

    /** {@return the {@link #RECORD}'s 64-bit header word as stored} Format: docs/format.md, "Records". */
    public long word() {
        return word;
    }

    /**
     * {@return the time of the {@link #RECORD}, epoch nanoseconds, if it is COMMITTED in a file of format 2 or later;
     * else {@code Long.MIN_VALUE} (an abandoned record, the padding word, or a format-1 file, whose records carry no
     * time)}
     */
    public long time() {
        return lastEvent != RECORD || RecordHeader.isPadding(word)
                || RecordHeader.state(word) != RecordHeader.STATE_COMMITTED
                || cursor.file().payloadOffset() == RecordHeader.LENGTH ? Long.MIN_VALUE : cursor.recordTime();
    }

    /** {@return whether the {@link #RECORD} is the padding word that ends its file (no index, no payload)} */
    public boolean isPadding() {
        return RecordHeader.isPadding(word);
    }

    /**
     * {@return a view of the {@link #RECORD}'s body in the mapped file, valid until the next poll} The body is the
     * bytes its header's length field counts: in format 2 its time, then its payload.
     */
    public MemorySegment payload() {
        return payloadLength == 0 ? MemorySegment.NULL : cursor.segment().asSlice(cursor.bodyPosition(), payloadLength);
    }

    /** {@return the length of the {@link #RECORD}'s body in bytes, as its header's length field states (0: padding)} */
    public int payloadLength() {
        return payloadLength;
    }

    /** {@return a copy of the {@link #FILE}'s header bytes as stored, up to and including its CRC} */
    public byte[] fileHeader() {
        return SegmentHeader.copyOf(cursor.segment(), cursor.file().info().file());
    }

    /**
     * Unmaps the current file and gives back the queue's files. Idempotent; call it from the stream's thread once it
     * has polled.
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            try {
                cursor.close();
            } finally {
                files.close();
            }
        }
    }
}
