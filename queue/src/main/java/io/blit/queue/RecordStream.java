package io.blit.queue;

import io.blit.queue.internal.MappedSegment;
import io.blit.queue.internal.QueueErrors;
import io.blit.queue.internal.RecordCursor;
import io.blit.queue.internal.RecordHeader;
import io.blit.queue.internal.SegmentHeader;
import java.lang.foreign.MemorySegment;

/**
 * Every record of a queue as it is stored, in index order, for replication: unlike a {@link Tailer}, it also
 * reports the records a dead writer left ABANDONED (their index is taken, their bytes are whatever the writer
 * wrote), the padding word that ends a file, and each file it enters with that file's header bytes — what a
 * {@link ReplicaWriter} needs to make a byte-identical copy. Obtained from {@link BlitQueue#recordStream(long)}.
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

    private final BlitQueue<?> queue;
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
    private boolean closed;

    RecordStream(BlitQueue<?> queue, long from) {
        this.queue = queue;
        this.walker = new RecordWalker(queue.files(), queue.abandonGraceNanos());
        RecordCursor start = RecordWalker.seek(queue.files(), from);
        if (start.index() != from) {
            start.close();
            throw QueueErrors.indexBeyondEnd(queue.directory(), from, start.index());
        }
        this.cursor = start;
    }

    /**
     * Moves past the event last returned and returns the next one.
     *
     * @return {@link #NONE}, {@link #FILE} or {@link #RECORD}
     * @throws MessagesDeletedException if the next file was deleted by retention before the stream reached it
     * @throws QueueCorruptedException  if a record header points past the end of its file, or the file was
     *                                  truncated under the mapping
     * @throws IllegalStateException    if closed
     */
    public int poll() {
        if (closed) {
            throw QueueErrors.closed("record stream", queue.directory());
        }
        try {
            lastEvent = next();
            return lastEvent;
        } catch (RuntimeException | Error e) {
            throw cursor.failure(e);
        }
    }

    private int next() {
        if (pendingSkip >= 0) {
            cursor.skip(pendingSkip);
            pendingSkip = -1;
        }
        walker.ensureMapped(cursor);
        if (announceFile) {
            announceFile = false;
            return FILE;
        }
        while (true) {
            MappedSegment file = cursor.file();
            long position = cursor.position();
            if (paddingReturned || position + RecordHeader.LENGTH > file.size()) {
                if (!walker.roll(cursor)) {
                    return NONE;
                }
                paddingReturned = false;
                return FILE;
            }
            long w = RecordHeader.loadAcquire(cursor.segment(), position);
            if (w == 0) {
                return NONE;
            }
            if (RecordHeader.isPadding(w)) {
                paddingReturned = true;
                word = w;
                payloadLength = 0;
                return RECORD;
            }
            long state = RecordHeader.state(w);
            if (state == RecordHeader.STATE_COMMITTED || state == RecordHeader.STATE_ABANDONED) {
                int length = file.checkedLength(w, position);
                word = w;
                payloadLength = length;
                pendingSkip = length;
                return RECORD;
            }
            if (!walker.abandonIfDead(cursor, w)) {
                return NONE;
            }
        }
    }

    /** For {@link #RECORD}: the record's index (for a padding word: the index the next file starts at); for {@link #FILE}: its first index. */
    public long index() {
        return lastEvent == FILE ? cursor.firstIndex() : cursor.index();
    }

    /** For {@link #RECORD}: the record's 64-bit header word as stored (format: docs/queue-design.md, "Records"). */
    public long word() {
        return word;
    }

    /** For {@link #RECORD}: whether it is the padding word that ends its file (it has no index and no payload). */
    public boolean isPadding() {
        return RecordHeader.isPadding(word);
    }

    /** For {@link #RECORD}: a view of the payload bytes in the mapped file, valid until the next poll. */
    public MemorySegment payload() {
        return payloadLength == 0 ? MemorySegment.NULL : cursor.segment().asSlice(cursor.payloadPosition(), payloadLength);
    }

    /** For {@link #RECORD}: the payload's length in bytes (0 for padding). */
    public int payloadLength() {
        return payloadLength;
    }

    /** For {@link #RECORD}: copies the payload to {@code target} at {@code offset} (no slice allocated). */
    public void copyPayload(MemorySegment target, long offset) {
        MemorySegment.copy(cursor.segment(), cursor.payloadPosition(), target, offset, payloadLength);
    }

    /** For {@link #FILE}: the file's header bytes as stored, up to and including its CRC. */
    public byte[] fileHeader() {
        return SegmentHeader.copyOf(cursor.segment(), cursor.file().info().file());
    }

    /** Unmaps the current file. Idempotent; call it from the stream's thread once it has polled. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            cursor.close();
            queue.unregister(this);
        }
    }
}
