package io.blit.queue;

import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.format.ConsumerFormat;
import io.blit.queue.internal.sidecar.ConsumerSlots;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@link Tailer} with a name whose position survives it: a <b>named consumer</b>. It starts after the last index
 * committed under its name, or, for a new name, where its {@link Options} say; {@link #commit()} records the index of
 * the last message read, in the queue's positions file ({@code consumers.blitc}, format: docs/format.md).
 * Obtained from {@link BlitQueue#tailer(String)} and {@link BlitQueue#tailer(String, Options)}.
 *
 * <pre>{@code
 * try (NamedTailer<MarketData> risk = queue.tailer("risk")) {
 *     while (risk.next(md, WaitStrategy.PARK, timeoutNanos)) {
 *         process(md);
 *         risk.commit();                  // or Options.autoCommit(true)
 *     }
 * }
 * }</pre>
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li><b>Names.</b> 1 to {@value #MAX_NAME_LENGTH} characters of {@code [A-Za-z0-9._-]}; a positions file holds up to
 *       1023 names.</li>
 *   <li><b>One live holder.</b> Opening claims the name by a compare-and-set of the holder word in its slot; while the
 *       holder's process lives (this process included: a second open in any thread), another open throws
 *       {@link ConsumerHeldException} naming its pid. A holder whose process died (a pid now unused, or used by a
 *       process that started later) is taken over. {@link #close()} releases the name.</li>
 *   <li><b>Delivery: at least once.</b> After a crash or a close without commit, the next holder starts after the
 *       last commit, so the messages read since are read again: commit after processing, and make processing
 *       idempotent or use the exactly-once recipe of docs/queue.md (the output records the input's index). With
 *       {@link Options#autoCommit}, a message is committed when it is read, before the caller processes it: a crash
 *       while processing it skips it (at most once for that message).</li>
 *   <li><b>Crash safety.</b> A commit is two stores into the mapped file, not a system call: an opaque store of the
 *       time, then a release store of the index (one aligned 8-byte word, never torn). After {@code kill -9} of the
 *       process, the last commit survives (it is in the page cache). After a power loss or an OS crash, a commit not
 *       yet written back may revert to an earlier one — the messages after it are delivered again — but the aligned
 *       word within one sector is not torn. {@link #sync()} forces the commit to storage (an {@code msync}).</li>
 *   <li><b>Single-threaded.</b> Like a {@link Tailer}, it belongs to the thread of its first read; it may be created in
 *       one thread and handed to another before its first read. Its mapping of the positions file is shared, so a
 *       commit made before a hand-over is seen by the next thread and by every process.</li>
 *   <li><b>Memory ordering.</b> A commit's release store of the index pairs with the acquire load of the next holder
 *       (in any process) and of {@link BlitQueue#consumers()}: seeing an index, they see that commit's time too.</li>
 *   <li><b>Retention.</b> A named consumer does not hold files back unless the queue's policy says so
 *       ({@link RetentionPolicy#untilConsumed(java.time.Duration)}). If its next index was deleted, every read throws
 *       {@link MessagesDeletedException} naming the consumer and the missing indices, and it stays where it is;
 *       {@link #seek}{@code (e.firstAvailable())} goes on.</li>
 *   <li><b>Cost.</b> Reading and committing allocate nothing except when moving to the next file; a commit reads the
 *       clock ({@link System#currentTimeMillis()}) and checks that the name is still held (one load).</li>
 * </ul>
 *
 * @param <T> the message class ({@link Void} for a raw queue)
 */
public final class NamedTailer<T> implements QueueReader<T> {
    /** The longest name. */
    public static final int MAX_NAME_LENGTH = ConsumerFormat.MAX_NAME_LENGTH;

    /**
     * How a named tailer starts when its name is new, and whether it commits by itself. The one way to configure a
     * named tailer: start from {@link #defaults()} and change what differs, each method returning new options with
     * that option changed: {@code NamedTailer.Options.defaults().fromEnd().autoCommit(true)}. An option added later
     * comes with a default that keeps the behaviour of the options without it; there is no public constructor whose
     * parameter list would grow.
     *
     * <p>Immutable and thread-safe: no method changes an instance, and an instance may be shared between threads
     * without synchronisation (its state is reachable only through a final field, never written after construction).
     * Two instances are {@link #equals equal} when every option is; {@link #toString()} names each.
     */
    public static final class Options {
        /** Where a new name starts. */
        public enum Start {
            /** At the first message of the queue (of its oldest file left). */
            START,
            /** After the last message committed now, as {@link BlitQueue#tailerFromEnd()}. */
            END,
            /** At {@link Options#startIndex()}, as {@link BlitQueue#tailerFrom(long)}. */
            INDEX
        }

        private final Values values;

        private Options(Values values) {
            check(values);
            this.values = values;
        }

        /** {@return options by which a new name starts at the first message, and commits are explicit} */
        public static Options defaults() {
            return new Options(new Values());
        }

        /**
         * {@return where a new name starts ({@link Start})} An existing name always resumes after its committed index.
         * The start is recorded at once, as the commit of the index before it, so a tailer that closes before reading
         * resumes there, not at a later end. Default {@link Start#START}.
         */
        public Start start() {
            return values.start;
        }

        /** {@return the first index for {@link Start#INDEX}; 0 otherwise} */
        public long startIndex() {
            return values.startIndex;
        }

        /**
         * {@return whether every successful read commits the message it read ({@link #commit()}) before it returns}
         * Default false. A message committed on read and lost with a crash while it is processed is not read again:
         * commit after processing for at-least-once processing.
         */
        public boolean autoCommit() {
            return values.autoCommit;
        }

        /** {@return these options with a new name starting at the first message of the queue} */
        public Options fromStart() {
            return with(v -> {
                v.start = Start.START;
                v.startIndex = 0;
            });
        }

        /** {@return these options with a new name starting after the last message committed when it is opened} */
        public Options fromEnd() {
            return with(v -> {
                v.start = Start.END;
                v.startIndex = 0;
            });
        }

        /**
         * {@return these options with a new name starting at {@code index}}
         *
         * @param index the new name's first index, >= 0
         * @throws IllegalArgumentException if {@code index} is negative
         */
        public Options from(long index) {
            return with(v -> {
                v.start = Start.INDEX;
                v.startIndex = index;
            });
        }

        /**
         * {@return these options with the commit after every read turned on or off}
         *
         * @param commitEachRead whether every successful read commits ({@link #autoCommit()})
         */
        public Options autoCommit(boolean commitEachRead) {
            return with(v -> v.autoCommit = commitEachRead);
        }

        /** {@return whether {@code other} is options with the same start, start index and auto-commit} */
        @Override
        public boolean equals(Object other) {
            return other instanceof Options that && values.start == that.values.start
                    && values.startIndex == that.values.startIndex && values.autoCommit == that.values.autoCommit;
        }

        @Override
        public int hashCode() {
            return Objects.hash(values.start, values.startIndex, values.autoCommit);
        }

        /** {@return every option by name, as {@code Options[start=START, startIndex=0, autoCommit=false]}} */
        @Override
        public String toString() {
            return "Options[start=" + values.start + ", startIndex=" + values.startIndex + ", autoCommit="
                    + values.autoCommit + "]";
        }

        /** New options: a copy of these values, changed by {@code change}, then checked. */
        private Options with(Consumer<Values> change) {
            Values copy = values.copy();
            change.accept(copy);
            return new Options(copy);
        }

        /** Every check in one place: a start index is given with INDEX only. */
        private static void check(Values values) {
            if (values.startIndex < 0 || values.start != Start.INDEX && values.startIndex != 0) {
                throw new IllegalArgumentException("start index " + values.startIndex + " with start " + values.start
                        + ": an index >= 0 is given with INDEX only");
            }
        }

        /**
         * The options' state, initialised to the defaults. Mutable so that an option method changes a copy instead of
         * repeating every option; written only before it is handed to the constructor, never after.
         */
        private static final class Values implements Cloneable {
            Start start = Start.START;
            long startIndex;
            boolean autoCommit;

            /** A field-by-field copy. */
            Values copy() {
                try {
                    return (Values) clone();
                } catch (CloneNotSupportedException impossible) {
                    throw new AssertionError(impossible);
                }
            }
        }
    }

    private final BlitQueue<T> queue;
    private final String name;
    private final Arena arena;
    private final ConsumerSlots slots;
    private final int slot;
    /** This process's writer id in the queue directory: the holder word while this tailer holds the name. */
    private final long identity;
    private final boolean autoCommit;
    /** The reader at {@link #lastRead} + 1, or null while that index is deleted (every read then throws). */
    private Tailer<T> tailer;
    private long lastRead;
    /** Unknown records counted by the readers {@link #seek} replaced. */
    private long unknownBeforeSeek;
    private boolean closed;

    private NamedTailer(BlitQueue<T> queue, String name, Options options, NamedTailerClaim<T> claim) {
        this.queue = queue;
        this.name = name;
        this.autoCommit = options.autoCommit();
        this.arena = claim.arena();
        this.slots = claim.slots();
        this.slot = claim.slot();
        this.tailer = claim.tailer();
        this.lastRead = claim.committed();
        this.identity = queue.files().writerId(); // leased by the claim already
    }

    /**
     * Maps the positions file (creating it), finds or creates the name's slot, claims it and positions a tailer
     * after its committed index ({@link NamedTailerClaim}).
     */
    static <T> NamedTailer<T> open(BlitQueue<T> queue, String name, Options options) {
        queue.files().requireWritable("open named consumer " + name + " (its commits write the positions file)");
        return new NamedTailer<>(queue, name, options, NamedTailerClaim.claim(queue, name, options));
    }

    /** {@return the consumer's name} */
    public String name() {
        return name;
    }

    /**
     * As {@link Tailer#readNext}; a message read becomes {@link #lastReadIndex()}, committed on auto-commit.
     *
     * @param into the object whose fields the message overwrites, of the next message's class
     * @return true if a message was read, false if none is ready
     * @throws MessagesDeletedException naming this consumer, if its next message was deleted by retention
     * @throws IllegalStateException    if closed, or (auto-commit) the name was taken over
     */
    @Override
    public boolean readNext(T into) {
        Tailer<T> reader = reader();
        try {
            if (!reader.readNext(into)) {
                return false;
            }
        } catch (MessagesDeletedException deleted) {
            throw QueueErrors.messagesDeleted(deleted, name);
        }
        read(reader);
        return true;
    }

    /**
     * As {@link Tailer#read(MessageHandler)}; the record delivered becomes {@link #lastReadIndex()}, committed with
     * {@link Options#autoCommit} after the handler returns (so a crash inside the handler leaves it to be read again:
     * at least once, even with auto-commit).
     *
     * @param handler receives the record, in this thread, before this method returns
     * @return true if a record was delivered, false if none is ready
     * @throws MessagesDeletedException naming this consumer, if its next message was deleted by retention
     * @throws IllegalStateException    if closed, or (auto-commit) the name was taken over
     */
    @Override
    public boolean read(MessageHandler<? super T> handler) {
        Tailer<T> reader = reader();
        try {
            if (!reader.read(handler)) {
                return false;
            }
        } catch (MessagesDeletedException deleted) {
            throw QueueErrors.messagesDeleted(deleted, name);
        }
        read(reader);
        return true;
    }

    /**
     * As {@link Tailer#readNextBytes}; a message read becomes {@link #lastReadIndex()}, committed on auto-commit.
     *
     * @param into where the payload is copied, from offset 0
     * @return the payload's length, or -1 if no message is ready
     * @throws MessagesDeletedException naming this consumer, if its next message was deleted by retention
     */
    @Override
    public long readNextBytes(MemorySegment into) {
        Tailer<T> reader = reader();
        long length;
        try {
            length = reader.readNextBytes(into);
        } catch (MessagesDeletedException deleted) {
            throw QueueErrors.messagesDeleted(deleted, name);
        }
        if (length >= 0) {
            read(reader);
        }
        return length;
    }

    private void read(Tailer<T> reader) {
        lastRead = reader.index() - 1;
        if (autoCommit) {
            commit();
        }
    }

    /**
     * Commits {@link #lastReadIndex()}: the next holder of this name starts after it. A store of the time and a release
     * store of the index into the mapped positions file; no system call, nothing allocated.
     *
     * @throws IllegalStateException if closed, or if this tailer no longer holds the name (another process took it
     *                               over, having found this one dead; the commit is not made)
     */
    @Override
    public void commit() {
        ensureOpen();
        long holder = slots.holder(slot);
        if (holder != identity) {
            throw QueueErrors.consumerLost(queue.directory(), name,
                    holder == 0 ? "released" : "now held by " + queue.files().writers().describe(holder));
        }
        slots.commit(slot, lastRead, System.currentTimeMillis());
    }

    /**
     * Forces this consumer's slot of the positions file to storage ({@link MemorySegment#force()}, an {@code msync}
     * of its page), so that the last commit survives a power loss or an OS crash. It costs a write to the device:
     * commits need it only where re-reading the messages since the previous write-back is not acceptable.
     *
     * @throws IllegalStateException        if closed
     * @throws java.io.UncheckedIOException if the file system fails
     */
    public void sync() {
        ensureOpen();
        slots.force(slot);
    }

    /**
     * Moves this tailer so that its next message is {@code index}; {@link #lastReadIndex()} becomes
     * {@code index - 1}, which the next {@link #commit()} records. Nothing is committed by the move itself.
     *
     * @param index the next message's index, from 0 to {@link BlitQueue#endIndex()}
     * @throws IllegalArgumentException if {@code index} is negative or beyond the end of the queue
     * @throws MessagesDeletedException if {@code index} was deleted by retention
     * @throws WrongThreadException     if called from another thread than the one this tailer belongs to
     */
    public void seek(long index) {
        ensureOpen();
        Tailer<T> moved = Tailer.atIndex(queue, index);
        if (tailer != null) {
            unknownBeforeSeek += tailer.unknownRecords();
            tailer.close();
        }
        tailer = moved;
        lastRead = index - 1;
    }

    /**
     * {@return the claim at the next index that stops this tailer, if any} As {@link Tailer#pendingClaim()}.
     *
     * @throws IllegalStateException if this tailer is closed
     */
    @Override
    public java.util.Optional<PendingClaim> pendingClaim() {
        ensureOpen();
        return tailer == null ? java.util.Optional.empty() : tailer.pendingClaim();
    }

    /** {@return the index of the next message this tailer will return (or, after a deletion, the first missing one)} */
    @Override
    public long index() {
        return tailer != null ? tailer.index() : lastRead + 1;
    }

    /** {@return the last index read, which {@link #commit()} records; at open, the committed index, or -1 if none} */
    @Override
    public long lastReadIndex() {
        return lastRead;
    }

    /** {@return the type id of the last record read, or -1} As {@link Tailer#lastTypeId()}. */
    @Override
    public int lastTypeId() {
        return tailer == null ? -1 : tailer.lastTypeId();
    }

    /** {@return the time the last record read was appended at (epoch ns), or 0} As {@link Tailer#lastTimeNanos()}. */
    @Override
    public long lastTimeNanos() {
        return tailer == null ? 0 : tailer.lastTimeNanos();
    }

    /** {@return the stored layout of the last record's type, or null} As {@link Tailer#lastTypeLayout()}. */
    @Override
    public io.blit.layout.LayoutDescriptor lastTypeLayout() {
        return tailer == null ? null : tailer.lastTypeLayout();
    }

    /** {@return the simple class name its file records for the last record's type, or null} As {@link Tailer#lastTypeName()}. */
    @Override
    public String lastTypeName() {
        return tailer == null ? null : tailer.lastTypeName();
    }

    /**
     * {@return how many records of unknown type ids this consumer skipped or gave to {@code onUnknown} since it was
     * opened} Counted across {@link #seek}s.
     */
    @Override
    public long unknownRecords() {
        return unknownBeforeSeek + (tailer == null ? 0 : tailer.unknownRecords());
    }

    /** {@return the index committed under this name, as stored now (acquire load)} */
    public long committedIndex() {
        ensureOpen();
        return slots.committed(slot);
    }

    /**
     * As {@link Tailer#pretouch}.
     *
     * @param bytes how far ahead to touch, >= 0
     * @return the number of bytes of the file covered
     * @throws MessagesDeletedException naming this consumer, if its next message was deleted by retention
     */
    @Override
    public long pretouch(long bytes) {
        return reader().pretouch(bytes);
    }

    /**
     * Releases the name (without committing) and unmaps everything this tailer mapped. Idempotent; must be called from
     * the tailer's thread once it has read.
     *
     * @throws WrongThreadException if called from another thread than the one this tailer belongs to (it stays open)
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (tailer != null) {
            tailer.close();
        }
        closed = true;
        try {
            slots.release(slot, identity);
        } finally {
            arena.close();
            queue.unregister(this);
        }
    }

    /** The tailer at the next index; throws the deletion again if that index is deleted. */
    private Tailer<T> reader() {
        ensureOpen();
        Tailer<T> reader = tailer;
        if (reader == null) {
            try {
                reader = Tailer.atIndex(queue, lastRead + 1);
            } catch (MessagesDeletedException deleted) {
                throw QueueErrors.messagesDeleted(deleted, name);
            }
            tailer = reader;
        }
        return reader;
    }

    private void ensureOpen() {
        if (closed) {
            throw QueueErrors.closed("named tailer " + name, queue.directory());
        }
    }
}
