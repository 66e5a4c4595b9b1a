package io.blit.queue;

import io.blit.core.BlockReader;
import io.blit.core.TriviallyCopyable;
import io.blit.layout.LayoutDescriptor;
import io.blit.queue.internal.directory.RecordWalker;
import io.blit.queue.internal.directory.SegmentDirectory;
import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.record.RecordCursor;
import io.blit.queue.internal.record.RecordProtocol;
import io.blit.queue.internal.record.RecordStep;
import io.blit.queue.internal.segment.MappedFaults;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.Pretouch;
import io.blit.queue.internal.writer.WriterLiveness;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * Reads the messages of a {@link BlitQueue} in index order, from a start chosen when it is created.
 * Any number of tailers may read one queue; each sees every message.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li><b>Single-threaded.</b> A tailer belongs to the thread of its first read (or {@link #pretouch}): it maps
 *       files in an arena confined to that thread; use from another thread, {@link #close()} included, throws
 *       {@link WrongThreadException}. It may be created in one thread and handed to another before its first read.</li>
 *   <li><b>Ordering.</b> The header word is loaded with acquire; seeing COMMITTED, the tailer sees the whole payload
 *       the appender wrote before its release store. Messages are returned in index order, each once;
 *       {@link #index()} is the index of the next one.</li>
 *   <li><b>Gaps.</b> An ABANDONED record (its appender failed or died) is skipped: its index is never a message.
 *       A record left CLAIMED for longer than the queue's abandon grace by a writer that is no longer alive (its
 *       writer id's lock is free: docs/queue-design.md, "Writer liveness") is marked ABANDONED by the tailer that
 *       notices, or stepped over in a read-only queue. A record CLAIMED by a live writer blocks the tailer, as it
 *       must to keep order, until it is committed; {@link #pendingClaim()} tells which.</li>
 *   <li><b>Retention.</b> A file deleted while this tailer reads it stays mapped, and the tailer reads it to its
 *       end. If its next file was deleted (the tailer lagged behind retention, in this or another process), reads
 *       throw {@link MessagesDeletedException} naming the missing indices, on every call, and the tailer stays
 *       where it is: messages are never skipped silently.</li>
 *   <li><b>Truncation.</b> If its file is truncated under its mapping (by another process), the fault HotSpot
 *       reports as an {@link InternalError} is thrown as {@link QueueCorruptedException} naming the file and the
 *       record's offset, before the record is returned or stepped over.</li>
 *   <li><b>Cost.</b> Starting from an index walks at most 4095 record headers from the nearest checkpoint of
 *       its file (more if that checkpoint's claimer died before writing it); reading allocates nothing except
 *       when moving to the next file.</li>
 * </ul>
 *
 * @param <T> the message class ({@link Void} for a raw queue)
 */
public final class Tailer<T> implements QueueReader<T> {
    private final BlitQueue<T> queue;
    private final SegmentDirectory files;
    private final FileTables<T> tables;
    /** The next record to read: its file (mapped at the first read), header position and index. */
    private final RecordCursor cursor;
    /** Moves {@link #cursor} from record to record and file to file. */
    private final RecordWalker walker;
    /** The type table of {@link #tableFile}; renewed when the cursor's file changes. */
    private FileTypeTable<T> table;
    private MappedSegment tableFile;
    /** The one instance per queue type that {@link #read(MessageHandler)} delivers. */
    private TypeInstances instances;
    private long unknownRecords;
    /** The table and type slot of the last record read (any read method), or null and -1. */
    private FileTypeTable<T> lastTable;
    private int lastSlot = -1;
    /** The time (epoch ns) of the last record read, or 0. */
    private long lastTime;
    /** The index of the last message read; before the first, the index before the tailer's start. */
    private long lastRead;
    private boolean closed;

    private Tailer(BlitQueue<T> queue, RecordCursor cursor) {
        this.queue = queue;
        this.files = queue.files();
        this.tables = queue.tables();
        this.cursor = cursor;
        this.walker = new RecordWalker(files, queue.abandonGraceNanos());
        this.lastRead = cursor.index() - 1;
    }

    static <T> Tailer<T> atStart(BlitQueue<T> queue) {
        return new Tailer<>(queue, RecordWalker.atStart(queue.files()));
    }

    static <T> Tailer<T> atEnd(BlitQueue<T> queue) {
        return new Tailer<>(queue, RecordWalker.seek(queue.files(), Long.MAX_VALUE));
    }

    static <T> Tailer<T> atIndex(BlitQueue<T> queue, long target) {
        RecordCursor cursor = RecordWalker.seek(queue.files(), target);
        if (cursor.index() != target) {
            throw QueueErrors.indexBeyondEnd(queue.directory(), target, cursor.index());
        }
        return new Tailer<>(queue, cursor);
    }

    /**
     * Reads the next message into {@code into} if one is committed, without waiting. A message of a file
     * written under another layout is read as the queue's {@link BlitQueue#layoutPolicy()} says (validated when
     * the file was opened): translated field by field under TRANSLATE. A record of a type id the queue does not know
     * is skipped and counted ({@link #unknownRecords()}).
     *
     * <p>A record claimed by a writer and not committed yet reads as "none ready" (false): the order is kept. Keep
     * polling: a claim whose writer died is stepped over by the first read at least the queue's abandon grace after
     * this tailer first saw it, so polling never blocks forever on a dead writer; {@link #pendingClaim()} tells which
     * case a caller is in.
     *
     * @param into the object whose fields the message overwrites, of the next message's class
     * @return true if a message was read (and {@link #index()} advanced), false if none is ready
     * @throws IllegalArgumentException if the next message is of another of the queue's types than {@code into}'s
     *                                  class (it is not consumed: read a queue of several types with
     *                                  {@link #read(MessageHandler)})
     * @throws IllegalStateException   if the queue is raw, or this tailer is closed
     * @throws QueueCorruptedException if a record header or a file is invalid, a record's checksum does not match its
     *                                 bytes (a file with record checksums: {@link QueueOptions#recordChecksums()}), or
     *                                 the mapped file was truncated under this tailer (by another process)
     * @throws MessagesDeletedException if the next message's file was deleted by retention before it was read
     */
    @Override
    public boolean readNext(T into) {
        // One method, not a call to a helper: C2 then compiles the whole read as one piece whatever the order in
        // which it compiled the parts (a helper compiled first into a big method is no longer inlined). The cursor
        // is read once: a field read after the header's acquire load would be loaded again.
        RecordCursor cursor = this.cursor;
        try {
            Objects.requireNonNull(into, "into");
            tables.typesOrThrow();
            while (true) {
                int payload = advance(cursor);
                if (payload < 0) {
                    MappedFaults.surfacePending(); // a faulting header load can read as "nothing yet"
                    return false;
                }
                int slot = typeSlot(cursor);
                BlockReader<?> reader = table.reader(slot);
                if (reader == null) {
                    skipUnknown(cursor, slot, payload);
                    continue;
                }
                long length = reader.byteSize();
                if (payload != length) {
                    throw QueueErrors.wrongRecordLength(cursor.file().info().file(), cursor.position(), payload,
                            length, reader.copier().type());
                }
                if (!reader.translates() && into.getClass() == reader.copier().type()
                        && into instanceof TriviallyCopyable block) {
                    // Same layout: the same copier (the class's default) reached through TriviallyCopyable's constant
                    // call site, which the JIT folds for the exact class (docs/copy-engine.md).
                    block.readFrom(cursor.segment(), cursor.payloadPosition());
                } else {
                    readInto(reader, cursor, into, slot);
                }
                markRead(cursor, slot);
                RecordProtocol.consume(cursor, length);
                return true;
            }
        } catch (RuntimeException | Error e) {
            throw cursor.failure(e);
        }
    }

    /**
     * Reads the next record, if one is committed, without waiting, and delivers it to {@code handler}: a message of one
     * of the queue's types in this tailer's one reused instance of that type ({@link MessageHandler#onMessage}), a record
     * of a type id the queue does not know as its bytes ({@link MessageHandler#onUnknown}, counted in
     * {@link #unknownRecords()}). Each type is read under its own stored layout, as {@link #readNext} reads. The record
     * counts as read when the handler is called: if the handler throws, the exception propagates and this tailer is
     * past the record. Allocates nothing per message (an unknown record's view excepted).
     *
     * @param handler receives the record, in this thread, before this method returns
     * @return true if a record was delivered, false if none is ready
     * @throws IllegalStateException   if the queue is raw, this tailer is closed, or a type's instance cannot be created
     * @throws QueueCorruptedException  as {@link #readNext}
     * @throws MessagesDeletedException as {@link #readNext}
     */
    @Override
    public boolean read(MessageHandler<? super T> handler) {
        RecordCursor cursor = this.cursor;
        long index;
        Object message;
        MemorySegment unknown = null;
        try {
            Objects.requireNonNull(handler, "handler");
            tables.typesOrThrow();
            int payload = advance(cursor);
            if (payload < 0) {
                MappedFaults.surfacePending();
                return false;
            }
            int slot = typeSlot(cursor);
            BlockReader<?> reader = table.reader(slot);
            index = cursor.index();
            if (reader == null) {
                unknown = cursor.segment().asSlice(cursor.payloadPosition(), payload).asReadOnly();
                message = null;
                skipUnknown(cursor, slot, payload);
            } else {
                if (payload != reader.byteSize()) {
                    throw QueueErrors.wrongRecordLength(cursor.file().info().file(), cursor.position(), payload,
                            reader.byteSize(), reader.copier().type());
                }
                if (instances == null) {
                    instances = new TypeInstances(tables.typesOrThrow());
                }
                message = instances.of(table.queueSlot(slot));
                if (!reader.translates() && message instanceof TriviallyCopyable block) {
                    block.readFrom(cursor.segment(), cursor.payloadPosition());
                } else {
                    readInto(reader, cursor, message, slot);
                }
                markRead(cursor, slot);
                RecordProtocol.consume(cursor, payload);
            }
        } catch (RuntimeException | Error e) {
            throw cursor.failure(e);
        }
        if (unknown != null) {
            handler.onUnknown(index, lastTypeId(), unknown);
        } else {
            @SuppressWarnings("unchecked")
            T typed = (T) message;
            handler.onMessage(index, typed);
        }
        return true;
    }

    /**
     * Copies the next message's payload into {@code into} at offset 0 if one is committed, without waiting; any type.
     * {@link #lastTypeId()} then gives its type.
     *
     * @param into where the payload is copied, from offset 0; its other bytes are left as they are
     * @return the payload's length, or -1 if no message is ready
     * @throws IllegalArgumentException if the payload is longer than {@code into} (the message is not consumed)
     * @throws QueueCorruptedException  as {@link #readNext}
     * @throws MessagesDeletedException as {@link #readNext}
     */
    @Override
    public long readNextBytes(MemorySegment into) {
        RecordCursor cursor = this.cursor;
        try {
            Objects.requireNonNull(into, "into");
            int length = advance(cursor);
            if (length < 0) {
                MappedFaults.surfacePending(); // a faulting header load can read as "nothing yet"
                return -1;
            }
            if (length > into.byteSize()) {
                throw QueueErrors.targetTooSmall(cursor.index(), length, into.byteSize());
            }
            int slot = typeSlot(cursor);
            if (table.size() > 0 && !table.declared(slot)) {
                throw QueueErrors.undeclaredTypeSlot(cursor.file().info().file(), cursor.position(), slot, table.size());
            }
            MemorySegment.copy(cursor.segment(), cursor.payloadPosition(), into, 0, length);
            markRead(cursor, table.size() > 0 ? slot : -1);
            RecordProtocol.consume(cursor, length);
            return length;
        } catch (RuntimeException | Error e) {
            throw cursor.failure(e);
        }
    }

    /** {@return the type id of the last record read (any read method), or -1 before the first or for raw payloads} */
    @Override
    public int lastTypeId() {
        return lastSlot < 0 ? -1 : lastTable.typeId(lastSlot);
    }

    /** {@return the simple class name its file records for the last record's type, or null (raw, none read yet)} */
    @Override
    public String lastTypeName() {
        return lastSlot < 0 ? null : lastTable.typeName(lastSlot);
    }

    /**
     * {@return the layout its file records for the type of the last record read, by any read method, or null for raw
     * payloads or before the first} It decodes the record's bytes without the class ({@code dump}, {@code tail}).
     */
    @Override
    public LayoutDescriptor lastTypeLayout() {
        return lastSlot < 0 ? null : lastTable.layout(lastSlot);
    }

    /**
     * {@return the time (nanoseconds since the epoch, from the queue's clock: {@link QueueClock}) at which the last
     * record read, by any read method, was appended} 0 before the first, or for a record of a file written before
     * records carried times (format 1: docs/format.md).
     */
    @Override
    public long lastTimeNanos() {
        return lastTime;
    }

    /** {@return how many records of unknown type ids this tailer skipped or gave to {@code onUnknown}} */
    @Override
    public long unknownRecords() {
        return unknownRecords;
    }

    /**
     * The type slot of the record at {@code cursor}, {@link #table} made its file's first. A plain load of the header
     * word: the walker's acquire load of it came first, in this thread.
     */
    private int typeSlot(RecordCursor cursor) {
        MappedSegment file = cursor.file();
        if (tableFile != file) {
            table = tables.table(file.info());
            tableFile = file;
        }
        return RecordHeader.typeSlot(cursor.segment().get(ValueLayout.JAVA_LONG, cursor.position()));
    }

    @SuppressWarnings("unchecked")
    private void readInto(BlockReader<?> reader, RecordCursor cursor, Object into, int slot) {
        if (into.getClass() != reader.copier().type()) {
            throw QueueErrors.otherMessageType(cursor.index(), table.typeId(slot), reader.copier().type(),
                    into.getClass());
        }
        ((BlockReader<Object>) reader).readFrom(cursor.segment(), cursor.payloadPosition(), into);
    }

    /** Steps over a record of a type the queue does not know, counting it; throws if its file declares no such type. */
    private void skipUnknown(RecordCursor cursor, int slot, int payload) {
        if (!table.declared(slot)) {
            throw QueueErrors.undeclaredTypeSlot(cursor.file().info().file(), cursor.position(), slot, table.size());
        }
        markRead(cursor, slot);
        unknownRecords++;
        RecordProtocol.consume(cursor, payload);
    }

    /**
     * Touches, for reading, the pages of the current segment file from this tailer's position up to {@code bytes}
     * bytes ahead (at most to the file's end), so that the reads that later reach them take no page fault (the first
     * read of a page of a mapping faults; the kernel then maps up to 16 pages that are in the page cache at once).
     * Call it from the tailer's thread before a latency-critical period; pages not yet written are mapped too and
     * later writes by appenders need no new fault here. Maps the current file if nothing was read yet; later files
     * are not touched. Changes nothing in the file.
     *
     * @param bytes how far ahead to touch, >= 0
     * @return the number of bytes of the file covered (less than {@code bytes} at the file's end)
     * @throws IllegalArgumentException if {@code bytes} is negative
     * @throws IllegalStateException    if this tailer is closed
     * @throws WrongThreadException     if called from another thread than the one this tailer belongs to
     * @throws QueueCorruptedException  if the mapped file was truncated under this tailer
     * @throws MessagesDeletedException if the current file was deleted by retention before it was mapped
     */
    @Override
    public long pretouch(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
        }
        ensureOpen();
        try {
            walker.ensureMapped(cursor);
            return Pretouch.forReading(cursor.file(), cursor.position(), bytes);
        } catch (RuntimeException | Error e) {
            throw cursor.failure(e);
        }
    }

    /**
     * What stops this tailer when a read finds no message: the record at {@link #index()} if it is claimed by a
     * writer that has not committed it, or empty if there is simply nothing more yet (or the next record is ready).
     *
     * <p>A non-blocking reader that polls {@link #readNext} sees a claim as "no message yet". It gets past a claim
     * whose writer died by polling on: the first read at least {@link QueueOptions#abandonGrace} after this tailer
     * first saw the claim checks the writer and, if it is dead, steps over the record (marks it ABANDONED; in a
     * read-only queue, leaves the file as it is), so a poll loop never blocks forever on a dead writer. A claim of a
     * live writer holds every reader until it is committed; this method tells a caller which, so that a one-pass
     * reader (a tool) can stop and say so instead of calling a cut-short queue whole. Checks the writer's liveness
     * (a system call); allocates.
     *
     * @return the claim at the next index, if there is one
     * @throws IllegalStateException   if this tailer is closed
     * @throws WrongThreadException    if called from another thread than the one this tailer belongs to
     * @throws QueueCorruptedException if the record word there is invalid
     * @throws MessagesDeletedException if the current file was deleted by retention before it was mapped
     */
    @Override
    public java.util.Optional<PendingClaim> pendingClaim() {
        ensureOpen();
        try {
            walker.ensureMapped(cursor);
            long word = RecordStep.wordAt(cursor.file(), cursor.position());
            if (word == RecordStep.FILE_END || word == 0 || RecordHeader.state(word) != RecordHeader.STATE_CLAIMED) {
                return java.util.Optional.empty();
            }
            int version = cursor.file().info().version();
            return java.util.Optional.of(new PendingClaim(cursor.index(),
                    WriterLiveness.describeClaimer(files.writers(), version, word),
                    WriterLiveness.claimerAlive(files.writers(), version, word),
                    walker.watch().watchedFor(cursor.index(), word)));
        } catch (RuntimeException | Error e) {
            throw cursor.failure(e);
        }
    }

    /** {@return the index of the next message this tailer will return} */
    @Override
    public long index() {
        return cursor.index();
    }

    /**
     * {@return the index of the last message read (any read method); before the first, the index before the one the
     * tailer started at} Indices a tailer steps over (abandoned records) lie between it and {@link #index()}.
     */
    @Override
    public long lastReadIndex() {
        return lastRead;
    }

    /** Unmaps the current file. Idempotent; must be called from the tailer's thread once it has read. */
    @Override
    public void close() {
        if (!closed) {
            cursor.close();
            closed = true;
            queue.unregister(this);
        }
    }

    /** Moves {@code cursor} to the next COMMITTED message record: its payload length (without time), or -1 if none. */
    private int advance(RecordCursor cursor) {
        ensureOpen();
        int lengthField = walker.advance(cursor);
        return lengthField < 0 ? -1 : cursor.payloadLength(lengthField);
    }

    /** Remembers the record at {@code cursor}, of type slot {@code slot} (-1: raw), as the last one read. */
    private void markRead(RecordCursor cursor, int slot) {
        lastTable = table;
        lastSlot = slot;
        lastTime = cursor.recordTime();
        lastRead = cursor.index();
    }

    private void ensureOpen() {
        if (closed) {
            throw QueueErrors.closed("tailer", queue.directory());
        }
    }
}
