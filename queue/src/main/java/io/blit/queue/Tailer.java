package io.blit.queue;

import io.blit.core.BlockReader;
import io.blit.core.TriviallyCopyable;
import io.blit.queue.internal.Checkpoints;
import io.blit.queue.internal.MappedFaults;
import io.blit.queue.internal.MappedSegment;
import io.blit.queue.internal.QueueErrors;
import io.blit.queue.internal.RecordHeader;
import io.blit.queue.internal.RecordProtocol;
import io.blit.queue.internal.Retention;
import io.blit.queue.internal.SegmentFiles;
import io.blit.queue.internal.SegmentHeader;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
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
 *       A record left CLAIMED for longer than the queue's abandon grace by a process that is no longer alive is
 *       marked ABANDONED by the tailer that notices (pid reuse within the grace is not detected). A record
 *       CLAIMED by a live process blocks the tailer, as it must to keep order, until it is committed.</li>
 *   <li><b>Retention.</b> A file deleted while this tailer reads it stays mapped, and the tailer reads it to its
 *       end. If its next file was deleted (the tailer lagged behind retention, in this or another process), reads
 *       throw {@link MessagesDeletedException} naming the missing indices, on every call, and the tailer stays
 *       where it is: messages are never skipped silently.</li>
 *   <li><b>Truncation.</b> If its file is truncated under its mapping (by another process), the fault HotSpot
 *       reports as an {@link InternalError} is thrown as {@link QueueCorruptedException} naming the file and the
 *       record's offset, before the record is returned or stepped over (one cheap native call per read
 *       delivers a fault whose delivery JIT-compiled code deferred).</li>
 *   <li><b>Cost.</b> Starting from an index walks at most 4095 record headers from the nearest checkpoint of
 *       its file (more if that checkpoint's claimer died before writing it); reading allocates nothing except
 *       when moving to the next file.</li>
 * </ul>
 *
 * @param <T> the message class ({@link Void} for a raw queue)
 */
public final class Tailer<T> implements AutoCloseable {
    /** The page size {@link #pretouch} steps by (4 KiB base pages). */
    private static final long PAGE = 4096;
    private final BlitQueue<T> queue;
    /** Sum of the words {@link #pretouch} loaded; written only so that the loads are not dead code. */
    private long touched;
    private final long ownPid = ProcessHandle.current().pid() & RecordHeader.PID_MASK;
    private long fileFirst;
    private long position;
    private long index;
    private MappedSegment file;
    /** The reader of {@link #readerFile}'s layout; renewed when {@link #file} changes. */
    private BlockReader<T> reader;
    private MappedSegment readerFile;
    private long watchedWord;
    private Path nextFile;
    private long nextFileIndex = -1;
    private long watchedIndex = -1;
    private long watchedSince;
    /** The absent next file last checked for deletion, and when (System.nanoTime), to bound directory listings. */
    private long missingFile = -1;
    private long missingCheckedAt;
    private boolean closed;

    private Tailer(BlitQueue<T> queue, long fileFirst, long position, long index) {
        this.queue = queue;
        this.fileFirst = fileFirst;
        this.position = position;
        this.index = index;
    }

    static <T> Tailer<T> atStart(BlitQueue<T> queue) {
        long first = queue.files()[0];
        return new Tailer<>(queue, first, SegmentHeader.RECORDS_START, first);
    }

    static <T> Tailer<T> atEnd(BlitQueue<T> queue) {
        return seek(queue, Long.MAX_VALUE);
    }

    static <T> Tailer<T> atIndex(BlitQueue<T> queue, long target) {
        Tailer<T> tailer = seek(queue, target);
        if (tailer.index != target) {
            throw QueueErrors.indexBeyondEnd(queue.directory(), target, tailer.index);
        }
        return tailer;
    }

    /**
     * Walks from the nearest checkpoint before {@code target} in the file holding it to it, or to the end of the queue (the first
     * empty or still CLAIMED record) for {@code Long.MAX_VALUE}. Maps files in a temporary arena of this thread.
     */
    private static <T> Tailer<T> seek(BlitQueue<T> queue, long target) {
        long[] firsts = queue.files();
        int at = target == Long.MAX_VALUE ? firsts.length - 1 : SegmentFiles.fileHolding(firsts, target);
        if (at < 0) {
            if (target >= 0) { // every queue starts at index 0: the files before the first were deleted
                throw QueueErrors.messagesDeleted(queue.directory(), target, firsts[0]);
            }
            throw QueueErrors.indexBeforeStart(queue.directory(), target, firsts[0]);
        }
        long first = firsts[at];
        long position = SegmentHeader.RECORDS_START;
        long index = first;
        while (true) {
            boolean nextFile = false;
            try (MappedSegment file = map(queue, first, target == Long.MAX_VALUE ? first : target)) {
                int checkpoint = Checkpoints.nearest(file.segment(), target == Long.MAX_VALUE ? target : target - first);
                position = Checkpoints.position(file, checkpoint);
                index = first + ((long) checkpoint << Checkpoints.INTERVAL_SHIFT);
                while (index < target) {
                    if (position + RecordHeader.LENGTH > file.size()) {
                        nextFile = true;
                        break;
                    }
                    long word = RecordHeader.loadAcquire(file.segment(), position);
                    long state = RecordHeader.state(word);
                    if (word == 0 || (state == RecordHeader.STATE_CLAIMED && target == Long.MAX_VALUE)) {
                        break;
                    }
                    if (RecordHeader.isPadding(word)) {
                        nextFile = true;
                        break;
                    }
                    position += RecordHeader.recordLength(file.checkedLength(word, position));
                    index++;
                }
            }
            if (!nextFile || !Files.exists(SegmentFiles.path(queue.directory(), index))) {
                return new Tailer<>(queue, first, position, index);
            }
            first = index;
        }
    }

    /**
     * Reads the next message into {@code into} if one is committed, without waiting. A message of a file
     * written under another layout is read as the queue's {@link BlitQueue#layoutPolicy()} says (validated when
     * the file was opened): translated field by field under TRANSLATE.
     *
     * @return true if a message was read (and {@link #index()} advanced), false if none is ready
     * @throws IllegalStateException   if the queue is raw, or this tailer is closed
     * @throws QueueCorruptedException if a record header or a file is invalid, or the mapped file was truncated
     *                                 under this tailer (by another process)
     * @throws MessagesDeletedException if the next message's file was deleted by retention before it was read
     */
    public boolean readNext(T into) {
        try {
            boolean read = readBlock(into);
            if (!read) {
                file.surfacePendingFault(); // a faulting header load can read as "nothing yet"
            }
            return read;
        } catch (InternalError e) {
            throw MappedFaults.translate(e, file, position, false);
        }
    }

    private boolean readBlock(T into) {
        Objects.requireNonNull(into, "into");
        queue.copier(); // throws for a raw queue
        int payload = advance();
        if (payload < 0) {
            return false;
        }
        if (readerFile != file) {
            reader = queue.reader(file.info());
            readerFile = file;
        }
        long length = reader.byteSize();
        if (payload != length) {
            throw QueueErrors.wrongRecordLength(file.info().file(), position, payload, length, queue.type());
        }
        if (!reader.translates() && into.getClass() == queue.type() && into instanceof TriviallyCopyable block) {
            // Same layout: the same copier (the class's default) reached through TriviallyCopyable's constant call
            // site, which the JIT folds for the exact class (docs/copy-engine.md).
            block.readFrom(file.segment(), position + RecordHeader.LENGTH);
        } else {
            reader.readFrom(file.segment(), position + RecordHeader.LENGTH, into); // translates, or checks the class
        }
        file.surfacePendingFault(); // a fault of the copy (file truncated) is thrown before the step
        step(length);
        return true;
    }

    /**
     * Copies the next message's payload into {@code into} at offset 0 if one is committed, without waiting.
     *
     * @return the payload's length, or -1 if no message is ready
     * @throws IllegalArgumentException if the payload is longer than {@code into} (the message is not consumed)
     * @throws QueueCorruptedException  as {@link #readNext}
     * @throws MessagesDeletedException as {@link #readNext}
     */
    public long readNextBytes(MemorySegment into) {
        try {
            long read = readBytes(into);
            if (read < 0) {
                file.surfacePendingFault(); // a faulting header load can read as "nothing yet"
            }
            return read;
        } catch (InternalError e) {
            throw MappedFaults.translate(e, file, position, false);
        }
    }

    private long readBytes(MemorySegment into) {
        Objects.requireNonNull(into, "into");
        int length = advance();
        if (length < 0) {
            return -1;
        }
        if (length > into.byteSize()) {
            throw QueueErrors.targetTooSmall(index, length, into.byteSize());
        }
        MemorySegment.copy(file.segment(), position + RecordHeader.LENGTH, into, 0, length);
        file.surfacePendingFault(); // a fault of the copy (file truncated) is thrown before the step
        step(length);
        return length;
    }

    /**
     * Reads the next message into {@code into}, waiting with {@code strategy} up to {@code timeoutNanos}.
     *
     * @return true if a message was read, false on time-out (never blocks longer, even on a stuck record)
     */
    public boolean next(T into, WaitStrategy strategy, long timeoutNanos) {
        Objects.requireNonNull(strategy, "strategy");
        if (readNext(into)) {
            return true; // the common case of a busy queue: no clock read
        }
        long start = System.nanoTime();
        for (int attempt = 0; ; attempt++) {
            if (System.nanoTime() - start >= timeoutNanos) {
                return false;
            }
            strategy.idle(attempt);
            if (readNext(into)) {
                return true;
            }
        }
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
    public long pretouch(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
        }
        if (closed) {
            throw QueueErrors.closed("tailer", queue.directory());
        }
        try {
            if (file == null) {
                file = map(queue, fileFirst, index);
            }
            MemorySegment segment = file.segment();
            long end = position + Math.min(bytes, file.size() - position);
            long sum = 0;
            for (long page = position & -PAGE; page < end; page += PAGE) {
                sum += segment.get(ValueLayout.JAVA_LONG, page);
            }
            touched = sum; // keeps the loads: the JIT may drop loads whose values are unused
            file.surfacePendingFault();
            return end - position;
        } catch (InternalError e) {
            throw MappedFaults.translate(e, file, position, false);
        }
    }

    /** The index of the next message this tailer will return. */
    public long index() {
        return index;
    }

    /** Unmaps the current file. Idempotent; must be called from the tailer's thread once it has read. */
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

    /** Moves to the next COMMITTED message record; returns its payload length, or -1 if there is none yet. */
    private int advance() {
        if (closed) {
            throw QueueErrors.closed("tailer", queue.directory());
        }
        if (file == null) {
            file = map(queue, fileFirst, index);
        }
        while (true) {
            if (position + RecordHeader.LENGTH > file.size()) {
                if (!roll()) {
                    return -1;
                }
                continue;
            }
            long word = RecordHeader.loadAcquire(file.segment(), position);
            long state = RecordHeader.state(word);
            if (word == 0) {
                return -1;
            } else if (RecordHeader.isPadding(word)) {
                if (!roll()) {
                    return -1;
                }
            } else if (state == RecordHeader.STATE_COMMITTED) {
                return file.checkedLength(word, position);
            } else if (state == RecordHeader.STATE_ABANDONED) {
                step(file.checkedLength(word, position));
            } else if (!abandonIfDead(word)) {
                return -1;
            }
        }
    }

    private void step(long payloadLength) {
        position += RecordHeader.recordLength(payloadLength);
        index++;
    }

    /**
     * Moves to the file that starts at {@link #index}, if it exists yet.
     *
     * @throws MessagesDeletedException if that file was deleted (a later one exists); checked the first time
     *                                  the file is found absent, then at most once a millisecond (each check
     *                                  lists the directory), and on every call once it was found deleted
     */
    private boolean roll() {
        if (nextFileIndex != index) {
            // A tailer that has caught up polls here until an appender publishes the next file: name it once
            nextFile = SegmentFiles.path(queue.directory(), index);
            nextFileIndex = index;
        }
        if (!Files.exists(nextFile)) {
            long now = System.nanoTime();
            if (missingFile != index || now - missingCheckedAt >= 1_000_000L) {
                Retention.failIfDeleted(queue.directory(), index);
                missingFile = index; // not created yet: look again in a millisecond at the earliest
                missingCheckedAt = now;
            }
            return false;
        }
        MappedSegment next = map(queue, index, index);
        file.close();
        file = next;
        fileFirst = index;
        position = SegmentHeader.RECORDS_START;
        return true;
    }

    /**
     * Maps the file starting at {@code first}, in which the next wanted index is {@code wanted}.
     *
     * @throws MessagesDeletedException if the file was deleted (by retention)
     */
    private static MappedSegment map(BlitQueue<?> queue, long first, long wanted) {
        try {
            return new MappedSegment(queue.file(first));
        } catch (UncheckedIOException e) {
            throw Retention.deletedOr(e, queue.directory(), wanted);
        }
    }

    /**
     * Called while the record at {@link #position} is CLAIMED: after it has stayed so (same word) for the
     * abandon grace, checks its claimer's pid and, if that process is gone, CASes it to ABANDONED.
     *
     * @return true if the record is no longer the CLAIMED word seen (re-read it)
     */
    private boolean abandonIfDead(long word) {
        long now = System.nanoTime();
        if (word != watchedWord || index != watchedIndex) {
            watchedWord = word;
            watchedIndex = index;
            watchedSince = now;
            return false;
        }
        if (now - watchedSince < queue.abandonGraceNanos()) {
            return false;
        }
        watchedSince = now;
        long pid = RecordHeader.pid(word);
        if (pid == ownPid || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        RecordProtocol.abandonDead(file.segment(), position, word);
        return true;
    }
}
