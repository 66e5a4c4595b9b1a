package io.blit.queue;

import io.blit.core.BlockCopier;
import io.blit.core.TriviallyCopyable;
import io.blit.queue.internal.directory.SegmentDirectory;
import io.blit.queue.internal.directory.TimeRolls;
import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.record.RecordCursor;
import io.blit.queue.internal.record.RecordProtocol;
import io.blit.queue.internal.record.RecordTimes;
import io.blit.queue.internal.segment.FileType;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.Pretouch;
import io.blit.queue.internal.sidecar.FenceFile;
import io.blit.queue.internal.sidecar.HandedToNote;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Objects;

/**
 * Appends messages to a {@link BlitQueue}. Any number of appenders, in any threads and processes, may
 * append to one queue concurrently; each message gets the next free index.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li><b>Single-threaded.</b> An appender belongs to the thread of its first {@code append} (or
 *       {@link #pretouch}): it maps the current segment file in an arena confined to that thread (so Blit copies
 *       with its fast path), and any use from another thread, {@link #close()} included, throws
 *       {@link WrongThreadException}.</li>
 *   <li><b>Protocol.</b> A record is claimed by a compare-and-set of its header word from 0 to CLAIMED, its payload
 *       written with plain stores (in a file with record checksums, then its CRC32C over the whole record:
 *       {@link QueueOptions#recordChecksums()}), and it is published by a release store of the COMMITTED word,
 *       which tailers load with acquire. A message is visible in full or not at all.</li>
 *   <li><b>Allocation.</b> {@code append} allocates nothing except when it rolls to the next file.</li>
 *   <li><b>Rolling.</b> Moving into a file starts the background preparation of the next one (created zero-filled
 *       under a temporary name, published when an appender rolls to it: complete for a queue of one message class,
 *       whose next first index is known; a blank whose header is written at the roll otherwise), so that a roll and
 *       the first writes to the new file's pages stay cheap.</li>
 *   <li><b>Fencing.</b> An appender writes in the term its queue was in when it was opened. Before every claim it
 *       loads the directory's fence word (the highest term the directory knows of, in a file every process maps) with
 *       acquire and compares it with its term: no system call, no allocation. Once another copy of the queue is
 *       promoted and this directory learns its newer term, every append throws {@link QueueFencedException} and
 *       appends nothing. An append whose load came before the raise may still complete: the fence stops the appends
 *       that start after it.</li>
 *   <li><b>Failures.</b> If the filler or the copy fails after the claim, the claim is marked ABANDONED before the
 *       exception propagates, so tailers skip the index instead of waiting for it.</li>
 * </ul>
 *
 * @param <T> the message class ({@link Void} for a raw queue)
 */
public final class Appender<T> implements AutoCloseable {
    private final BlitQueue<T> queue;
    private final SegmentDirectory files;
    /** This process's writer id in the queue directory, which its claims name, and that id in a word's place. */
    private final long writer;
    private final long writerBits;
    /**
     * What the records of the files this appender writes hold beyond format 4's: 8 bytes (checksum and reserved word)
     * in format 5, else 0; added to a type's record length and to its CLAIMED word (whose low 32 bits are the length).
     */
    private final long checksumBytes;
    /** Where the next record is claimed: the current file (mapped at the first append), header position, ordinal. */
    private final RecordCursor cursor = RecordCursor.forAppender();
    private boolean closed;
    /** The directory's fence word ({@link FenceFile}), mapped for any thread, and the term this appender writes in. */
    private final MemorySegment fence;
    private final long term;

    /** The queue's types, or null for a raw queue: each type's record length and CLAIMED word are computed once. */
    private final MessageTypes<T> types;
    /** Where each record's time comes from, and the roll period by time (0: none). */
    private final QueueClock clock;
    private final long rollPeriodNanos;
    /** When the current file's period ends (rolls by time): the next append at or after it starts a new file. */
    private long rollAt = Long.MAX_VALUE;

    /**
     * @param fence the directory's fence ({@link FenceFile#map})
     * @param term  the queue's current term, which this appender writes in
     * @throws QueueFencedException if the fence is above {@code term} already
     */
    Appender(BlitQueue<T> queue, MemorySegment fence, long term) {
        this.queue = queue;
        this.fence = fence;
        this.term = term;
        requireUnfenced();
        this.files = queue.files();
        this.types = queue.tables().types();
        this.clock = queue.timing().clock();
        this.rollPeriodNanos = queue.timing().rollEveryNanos();
        this.writer = files.writerId();
        this.writerBits = RecordHeader.claimerBits(writer);
        this.checksumBytes = files.bodyPrefix() - RecordHeader.TIME_LENGTH;
        clock.acquire();
    }

    /**
     * Appends one message: one Blit block copy into the mapped file. The record carries the message's type (its class
     * found among the queue's types in O(1), with no allocation).
     *
     * @param message the message, of one of the queue's types; its fields are copied, the object is not kept
     * @return the message's index
     * @throws NullPointerException     if {@code message} is null
     * @throws IllegalArgumentException if the message's class is not one of the queue's types (a subclass is not)
     * @throws IllegalStateException    if this appender or its queue is raw or closed
     * @throws LayoutMismatchException  if an appender of other message layouts took the queue over (a rolling deploy:
     *                                  nothing was appended; docs/queue.md, "Upgrading")
     * @throws WrongThreadException     if called from another thread than the first append's
     * @throws QueueFencedException     if a newer term fenced the queue (nothing was appended; {@link Appender})
     * @throws QueueCorruptedException  if a record header in the file is invalid, or the mapped file was
     *                                  truncated under this appender (by another process)
     * @throws java.io.UncheckedIOException if rolling to a new file applied the retention policy and a deletion
     *                                  failed (the message was not appended)
     */
    public long append(T message) {
        return append(message, null);
    }

    /**
     * Appends one message that carries its own index: claims the record, calls
     * {@code filler.fill(message, index)} with the index the record got, then copies the message into it
     * and commits. Unlike filling the message before {@link #append(Object)}, the index is exact even when
     * other appenders (threads or processes) append concurrently, because it is known before the copy.
     * Allocates nothing when {@code filler} is a non-capturing lambda or a reused object.
     *
     * @param message the message to fill and append
     * @param filler  writes the index-dependent fields; {@code null} for none
     * @return the message's index (the one passed to {@code filler})
     * @throws NullPointerException     if {@code message} is null
     * @throws IllegalStateException    if this appender or its queue is raw or closed
     * @throws WrongThreadException     if called from another thread than the first append's
     * @throws QueueCorruptedException  if a record header in the file is invalid
     * @throws QueueFencedException     if a newer term fenced the queue (nothing was appended, nothing filled)
     * @throws RuntimeException         whatever {@code filler} throws; the claimed index is then abandoned
     */
    public long append(T message, IndexedFiller<? super T> filler) {
        try {
            if (filler == null && message instanceof TriviallyCopyable block && types != null) {
                TypeEntry<?> type = types.entryFor(block.getClass());
                if (type != null) {
                    long index = appendInPlace(block, (type.claimWord() | writerBits) + checksumBytes,
                            type.recordLength() + checksumBytes);
                    if (index >= 0) {
                        return index;
                    }
                }
            }
            return appendBlock(message, filler);
        } catch (RuntimeException | Error e) {
            throw cursor.failure(e);
        }
    }

    /**
     * The common case in one short method that C2 compiles as one piece with its caller: the record protocol's
     * {@link RecordProtocol#tryClaimInPlace} (the current file is mapped, the record fits and its header word is
     * free), the copy through {@link TriviallyCopyable#writeTo} (the class's default copier, as
     * the type's copier; the JIT folds the call site for the exact class) and {@link RecordProtocol#commit}:
     * the same steps as {@link #appendBlock}, with the record length and CLAIMED word computed once per type.
     * Returns -1 having done nothing if the in-place claim fails; {@link #appendBlock} then takes the general path
     * (closed, first append, roll, records claimed by others).
     */
    private long appendInPlace(TriviallyCopyable block, long claimWord, long recordLength) {
        requireUnfenced();
        long now = clock.epochNanos();
        // Read before the claim: its CAS orders all memory, so C2 would load them again after it, in front of the copy.
        MemorySegment segment = cursor.segment();
        long payload = cursor.payloadPosition();
        long time = cursor.bodyPosition();
        if (now >= rollAt || !RecordProtocol.tryClaimInPlace(cursor, claimWord, recordLength)) {
            return -1;
        }
        long index = cursor.index();
        segment.set(ValueLayout.JAVA_LONG, time, now);
        block.writeTo(segment, payload);
        RecordProtocol.commit(cursor, claimWord);
        return index;
    }

    private long appendBlock(T message, IndexedFiller<? super T> filler) {
        Objects.requireNonNull(message, "message");
        MessageTypes<T> types = queue.tables().typesOrThrow();
        TypeEntry<?> type = types.entryFor(message.getClass());
        if (type == null) {
            throw QueueErrors.notAMessageType(message.getClass(), types.toString());
        }
        @SuppressWarnings("unchecked")
        BlockCopier<Object> copier = (BlockCopier<Object>) type.copier();
        long word = (type.claimWord() | writerBits) + checksumBytes;
        long index = claim(word, clock.epochNanos());
        if (filler != null) {
            filler.fill(message, index);
        }
        MemorySegment segment = cursor.segment();
        if (message instanceof TriviallyCopyable block) {
            // The same copier (the class's default, BlockCopier.of) and bytes, reached through TriviallyCopyable's
            // constant call site, which the JIT folds for the exact class (docs/copy-engine.md): fewer loads and
            // type checks per message than through the queue's copier field.
            block.writeTo(segment, cursor.payloadPosition());
        } else {
            copier.writeTo(message, segment, cursor.payloadPosition());
        }
        RecordProtocol.commit(cursor, word);
        return index;
    }

    /**
     * Appends the bytes of {@code payload} as one message, into a queue of raw payloads or of one message type.
     *
     * @param payload the message's bytes, all of them; read, not kept
     * @return the message's index
     * @throws IllegalArgumentException if the queue has a message class and the payload's size is not its
     *                                  block length, or the payload does not fit in a segment file or is longer than
     *                                  2^31 - 1 bytes (nothing is claimed then)
     * @throws IllegalStateException    if the queue has several types ({@link #append(int, MemorySegment)})
     * @throws QueueCorruptedException  as {@link #append(Object)}
     * @throws QueueFencedException     as {@link #append(Object)}
     */
    public long append(MemorySegment payload) {
        try {
            if (files.writeTypes().size() > 1) {
                throw QueueErrors.rawAppendToTypedFile(files.path());
            }
            return appendBytes(0, payload);
        } catch (RuntimeException | Error e) {
            throw cursor.failure(e);
        }
    }

    /**
     * Appends the bytes of {@code payload} as one message of type {@code typeId}: a block of that type's layout as
     * the queue's files record it (a bridge that forwards records it does not decode).
     *
     * @param typeId  the message's type id, one the queue's files record
     * @param payload the message's bytes, all of them; read, not kept
     * @return the message's index
     * @throws IllegalArgumentException if the queue's files take no type {@code typeId}, or the payload's size is not its
     *                                  block length (nothing is claimed then)
     * @throws QueueCorruptedException  as {@link #append(Object)}
     * @throws QueueFencedException     as {@link #append(Object)}
     */
    public long append(int typeId, MemorySegment payload) {
        try {
            List<FileType> written = files.writeTypes();
            for (int slot = 0; slot < written.size(); slot++) {
                if (written.get(slot).typeId() == typeId) {
                    return appendBytes(slot, payload);
                }
            }
            throw QueueErrors.unknownTypeId(typeId, files.path());
        } catch (RuntimeException | Error e) {
            throw cursor.failure(e);
        }
    }

    private long appendBytes(int slot, MemorySegment payload) {
        Objects.requireNonNull(payload, "payload");
        long size = payload.byteSize();
        List<FileType> written = files.writeTypes();
        int fixed = written.isEmpty() ? -1 : written.get(slot).descriptor().length();
        if (fixed >= 0 && size != fixed) {
            throw QueueErrors.wrongPayloadLength(size, fixed);
        }
        if (size > files.maxPayload()) {
            throw QueueErrors.messageTooLarge(size, files.segmentSize(), files.maxPayload());
        }
        long word = RecordHeader.claimed(writer, slot, (int) (size + files.bodyPrefix()));
        long index = claim(word, clock.epochNanos());
        MemorySegment.copy(payload, 0, cursor.segment(), cursor.payloadPosition(), size);
        RecordProtocol.commit(cursor, word);
        return index;
    }

    /**
     * Touches, for writing, the pages of the current segment file from this appender's position up to {@code bytes}
     * bytes ahead (at most to the file's end), so that the appends that later write them take no page fault. The
     * first write to each 4 KiB page of a mapping faults (a microsecond or more on a virtual machine, once every ~20
     * BookUpdates), which shows in the high percentiles of a latency-critical producer; call this from the
     * appender's thread before such a period (the latency harness does, before its schedule starts). Costs about one
     * such fault per page now. Maps the current file if nothing was appended yet; later files are not touched.
     *
     * <p>Safe while other appenders (threads or processes) write the same pages: each page is touched by an atomic
     * compare-and-set of one word from 0 to 0 (after a plain load), which leaves any value another writer stored
     * there unchanged, and never writes a word that is not 0.
     *
     * @param bytes how far ahead to touch, >= 0
     * @return the number of bytes of the file covered (less than {@code bytes} at the file's end)
     * @throws IllegalArgumentException if {@code bytes} is negative
     * @throws IllegalStateException    if this appender or its queue is closed
     * @throws WrongThreadException     if called from another thread than the one this appender belongs to
     * @throws QueueCorruptedException  if the mapped file was truncated under this appender
     */
    public long pretouch(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
        }
        try {
            ensureMapped();
            return Pretouch.forWriting(cursor.file(), cursor.position(), bytes);
        } catch (RuntimeException | Error e) {
            throw cursor.failure(e);
        }
    }

    /** Forces the current segment file to storage ({@link MemorySegment#force()}). */
    public void sync() {
        ensureOpen();
        if (cursor.isMapped()) {
            cursor.segment().force();
        }
    }

    /** Unmaps the current file. Idempotent; must be called from the appender's thread once it has appended. */
    @Override
    public void close() {
        if (!closed) {
            cursor.close();
            closed = true;
            clock.release();
            queue.unregister(this);
        }
    }

    /**
     * Claims a record at the tail with {@code word} (this process's CLAIMED word for its length) with
     * {@link RecordProtocol#claim}, mapping the newest file first if none is, ending the current file if its period is
     * over at {@code now} (rolls by time), and rolling to the next file while the current one is full; then stores
     * {@code now} as the record's time.
     *
     * @return the claimed record's index; the cursor holds the claim
     */
    private long claim(long word, long now) {
        ensureMapped();
        requireUnfenced(); // before the roll too: ending a file is a write
        if (now >= rollAt) {
            if (cursor.ordinal() == 0 && RecordHeader.loadAcquire(cursor.segment(), cursor.position()) == 0) {
                rollAt = TimeRolls.boundaryAfter(now, rollPeriodNanos); // an empty file: it starts in this period
            } else {
                roll(RecordProtocol.endFile(cursor, writer));
            }
        }
        long paddingWord = RecordHeader.padding(writer);
        while (!RecordProtocol.claim(cursor, word, paddingWord)) {
            roll(cursor.index());
        }
        cursor.segment().set(ValueLayout.JAVA_LONG, cursor.bodyPosition(), now);
        return cursor.index();
    }

    /** Maps the newest file if no file is mapped (the first use, or after a roll failed). */
    private void ensureMapped() {
        ensureOpen();
        if (!cursor.isMapped()) {
            enter(files.mapNewestForAppend());
        }
    }

    /** Moves to the next file, of first index {@code next} (after this file's last record); creates it if needed. */
    private void roll(long next) {
        cursor.close(); // unmapped first: if creating the next file fails, the next append starts from the newest
        enter(files.mapForAppend(next));
        queue.applyRetention();
    }

    private void enter(MappedSegment file) {
        cursor.enter(file);
        if (rollPeriodNanos != 0) { // the file's period: its first message's, or now's for a file without one yet
            long first = RecordTimes.firstMessageTime(file);
            rollAt = TimeRolls.boundaryAfter(first == Long.MIN_VALUE ? clock.epochNanos() : first, rollPeriodNanos);
        }
        int fixed = files.fixedPayloadLength();
        if (fixed >= 0) {
            // Every record of the queue has this length, so the file holds exactly this many records and the next
            // one's name (its first index) is known now: have it created and its pages brought into the page cache
            // in the background while this file fills (the roll then only links and maps it).
            long capacity = (file.size() - SegmentFormat.RECORDS_START)
                    / (RecordHeader.messageRecordLength(fixed) + checksumBytes);
            files.prepareFile(file.firstIndex() + capacity);
        } else {
            // Records of several lengths: the next file's first index is known only at the roll. A zero-filled blank
            // prepared meanwhile gets its header then (the same cost saved, one header write added).
            files.prepareBlankFile();
        }
    }

    /**
     * Refuses to append once the directory knows of a newer term than this appender's: one acquire load of the fence
     * word and a compare (the exception is built out of line, so that this stays small enough to inline).
     *
     * @throws QueueFencedException naming both terms
     */
    private void requireUnfenced() {
        long known = FenceFile.load(fence);
        if (known > term) {
            throw fenced(known);
        }
    }

    private QueueFencedException fenced(long known) {
        return new QueueFencedException(queue.directory(), term, known,
                HandedToNote.primaryOf(queue.directory(), known));
    }

    private void ensureOpen() {
        if (closed) {
            throw QueueErrors.closed("appender", queue.directory());
        }
    }
}
