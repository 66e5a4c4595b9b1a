package io.blit.queue;

import io.blit.core.BlockCopier;
import io.blit.queue.internal.Checkpoints;
import io.blit.queue.internal.MappedSegment;
import io.blit.queue.internal.QueueErrors;
import io.blit.queue.internal.RecordHeader;
import io.blit.queue.internal.SegmentHeader;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Appends messages to a {@link BlitQueue}. Any number of appenders, in any threads and processes, may
 * append to one queue concurrently; each message gets the next free index.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li><b>Single-threaded.</b> An appender belongs to the thread of its first {@code append}: it maps the
 *       current segment file in an arena confined to that thread (so Blit copies with its fast path), and any
 *       use from another thread, {@link #close()} included, throws {@link WrongThreadException}.</li>
 *   <li><b>Protocol.</b> A record is claimed by a compare-and-set of its header word from 0 to CLAIMED, its payload
 *       written with plain stores, and it is published by a release store of the COMMITTED word, which tailers
 *       load with acquire. A message is visible in full or not at all.</li>
 *   <li><b>Allocation.</b> {@code append} allocates nothing except when it rolls to the next file.</li>
 *   <li><b>Rolling.</b> In a queue of a message class (every record the same length), moving into a file starts the
 *       background preparation of the next one (created complete and zero-filled under a temporary name, published
 *       when an appender rolls to it), so that a roll and the first writes to the new file's pages stay cheap.</li>
 *   <li><b>Failures.</b> If the copy fails after the claim, the claim is marked ABANDONED before the
 *       exception propagates, so tailers skip the index instead of waiting for it.</li>
 * </ul>
 *
 * @param <T> the message class ({@link Void} for a raw queue)
 */
public final class Appender<T> implements AutoCloseable {
    private final BlitQueue<T> queue;
    private final long pid = ProcessHandle.current().pid();
    private MappedSegment file;
    /** Position of the next header word to look at. */
    private long position;
    /** Ordinal in the file of the record at {@link #position}. */
    private long ordinal;
    private boolean closed;

    Appender(BlitQueue<T> queue) {
        this.queue = queue;
    }

    /**
     * Appends one message: one Blit block copy into the mapped file.
     *
     * @return the message's index
     * @throws NullPointerException     if {@code message} is null
     * @throws IllegalStateException    if this appender or its queue is raw or closed
     * @throws WrongThreadException     if called from another thread than the first append's
     * @throws QueueCorruptedException  if a record header in the file is invalid
     */
    public long append(T message) {
        Objects.requireNonNull(message, "message");
        BlockCopier<T> copier = queue.copier();
        int length = (int) copier.byteSize();
        long index = claim(length);
        long word = RecordHeader.claimed(pid, length);
        MemorySegment segment = file.segment();
        try {
            copier.writeTo(message, segment, position + RecordHeader.LENGTH);
        } catch (RuntimeException | Error e) {
            abandon(segment, word);
            throw e;
        }
        commit(segment, word, length);
        return index;
    }

    /**
     * Appends the bytes of {@code payload} as one message.
     *
     * @return the message's index
     * @throws IllegalArgumentException if the queue has a message class and the payload's size is not its
     *                                  block length, or the payload does not fit in a segment file
     */
    public long append(MemorySegment payload) {
        Objects.requireNonNull(payload, "payload");
        long size = payload.byteSize();
        int fixed = queue.fixedPayloadLength();
        if (fixed >= 0 && size != fixed) {
            throw QueueErrors.wrongPayloadLength(size, fixed);
        }
        if (size > queue.maxPayload()) {
            throw QueueErrors.messageTooLarge(size, queue.segmentSize());
        }
        int length = (int) size;
        long index = claim(length);
        long word = RecordHeader.claimed(pid, length);
        MemorySegment segment = file.segment();
        try {
            MemorySegment.copy(payload, 0, segment, position + RecordHeader.LENGTH, size);
        } catch (RuntimeException | Error e) {
            abandon(segment, word);
            throw e;
        }
        commit(segment, word, length);
        return index;
    }

    /** Forces the current segment file to storage ({@link MemorySegment#force()}). */
    public void sync() {
        ensureOpen();
        if (file != null) {
            file.segment().force();
        }
    }

    /** Unmaps the current file. Idempotent; must be called from the appender's thread once it has appended. */
    @Override
    public void close() {
        if (!closed) {
            if (file != null) {
                file.close();
            }
            closed = true;
            queue.unregister(this);
        }
    }

    /** Claims a record of {@code length} payload bytes at the tail; leaves {@link #position} at it. */
    private long claim(int length) {
        ensureOpen();
        if (file == null) {
            long[] firsts = queue.files();
            moveTo(queue.file(firsts[firsts.length - 1]));
        }
        long need = RecordHeader.recordLength(length);
        long claimWord = RecordHeader.claimed(pid, length);
        while (true) {
            MemorySegment segment = file.segment();
            if (position + RecordHeader.LENGTH > file.size()) {
                roll();
                continue;
            }
            boolean fits = position + need <= file.size();
            long witness = RecordHeader.compareAndExchange(segment, position, 0L,
                    fits ? claimWord : RecordHeader.padding(pid));
            if (witness == 0L) {
                if (fits) {
                    Checkpoints.record(segment, ordinal, position);
                    return file.firstIndex() + ordinal;
                }
                roll();
            } else if (RecordHeader.isPadding(witness)) {
                roll();
            } else {
                position += RecordHeader.recordLength(file.checkedLength(witness, position));
                ordinal++;
            }
        }
    }

    private void commit(MemorySegment segment, long claimedWord, int length) {
        RecordHeader.storeRelease(segment, position, RecordHeader.committed(claimedWord));
        position += RecordHeader.recordLength(length);
        ordinal++;
    }

    private void abandon(MemorySegment segment, long claimedWord) {
        if (segment.scope().isAlive()) {
            RecordHeader.storeRelease(segment, position, RecordHeader.abandoned(claimedWord));
            position += RecordHeader.recordLength(RecordHeader.length(claimedWord));
            ordinal++;
        }
    }

    /** Moves to the next file, whose first index follows this file's last record; creates it if needed. */
    private void roll() {
        long next = file.firstIndex() + ordinal;
        file.close();
        file = null;
        moveTo(queue.fileForAppend(next));
    }

    private void moveTo(SegmentHeader.Info info) {
        file = new MappedSegment(info);
        position = SegmentHeader.RECORDS_START;
        ordinal = 0;
        int fixed = queue.fixedPayloadLength();
        if (fixed >= 0) {
            // Every record of the queue has this length, so the file holds exactly this many records and the next
            // one's name (its first index) is known now: have it created and its pages brought into the page cache
            // in the background while this file fills (the roll then only links and maps it).
            long capacity = (info.segmentSize() - SegmentHeader.RECORDS_START) / RecordHeader.recordLength(fixed);
            queue.prepareFile(info.firstIndex() + capacity);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw QueueErrors.closed("appender", queue.directory());
        }
    }
}
