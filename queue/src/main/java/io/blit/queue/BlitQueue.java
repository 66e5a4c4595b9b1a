package io.blit.queue;

import io.blit.core.LayoutPolicy;
import io.blit.layout.LayoutDescriptor;
import io.blit.queue.internal.directory.RecordWalker;
import io.blit.queue.internal.directory.Retention;
import io.blit.queue.internal.directory.SegmentDirectory;
import io.blit.queue.internal.directory.TimeLookup;
import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.record.AppendTiming;
import io.blit.queue.internal.record.OpenCursors;
import io.blit.queue.internal.sidecar.FenceFile;
import io.blit.queue.internal.sidecar.HandedToNote;
import io.blit.queue.internal.sidecar.QuarantineMarker;
import io.blit.queue.internal.sidecar.ReplicaMarker;
import io.blit.queue.internal.sidecar.TermHistoryFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A persisted, multi-producer, multi-consumer queue of messages in a directory of memory-mapped segment files
 * (format: {@code docs/format.md}): the field blocks of trivially copyable classes, copied with Blit, of one class
 * ({@link #open(Path, Class)}) or of several types in one order ({@link #open(Path, MessageTypes)}), or raw byte
 * payloads ({@link #openRaw(Path)}). {@code queue.appender().append(md)}; {@code queue.tailer().readNext(into)} or
 * {@code .read(handler)}; {@code queue.tailer("risk")} resumes after its last commit.
 *
 * <h2>Contracts</h2>
 * Opening validates every segment file's header ({@link QueueCorruptedException} names file and offset). Every
 * message gets a unique, contiguous index and is visible to tailers whole or not at all (release store of its header
 * word, acquire load). Each type stored under another layout is read as {@link QueueOptions#layoutPolicy} says, or refused
 * with a {@link LayoutMismatchException}; an appender of other layouts continues the queue in a new file. This object
 * is thread-safe; {@link Appender}s, {@link Tailer}s and {@link NamedTailer}s belong to the thread that first uses
 * them. Old files go only by {@link #deleteFilesBefore}, {@link #applyRetention} or a {@link RetentionPolicy}, and no
 * tailer skips a deleted message silently ({@link MessagesDeletedException}). Named consumers are delivered at least
 * once across crashes. The whole list, with every option's measured costs: {@code docs/queue.md}.
 *
 * @param <T> the message class, a common supertype of the message types, or {@link Void} for a raw queue
 */
public final class BlitQueue<T> implements AutoCloseable {
    /** Default size of a segment file, 64 MiB; 256 MiB or more sustains higher rates ({@link QueueOptions#segmentSize}). */
    public static final long DEFAULT_SEGMENT_SIZE = QueueOptions.DEFAULT_SEGMENT_SIZE;

    private final Path dir;
    private final SegmentDirectory files;
    private final FileTables<T> tables;
    private final AppendTiming timing;
    private final long abandonGraceNanos;
    private final RetentionPolicy retention;
    /** The appenders and tailers created here that are still open; guarded by this queue. */
    private final OpenCursors cursors;
    private final boolean privateFiles;
    /** The directory's fence word, mapped at the first appender in a shared arena the queue closes; guarded by this. */
    private Arena fenceArena;
    private MemorySegment fence;
    private final QueueMonitor monitor = new QueueMonitor(this);

    private BlitQueue(Path dir, MessageTypes<T> types, QueueOptions options) {
        this.dir = dir;
        this.abandonGraceNanos = options.abandonGrace().toNanos();
        this.retention = options.retention();
        this.cursors = new OpenCursors(dir);
        this.tables = new FileTables<>(dir, types, options.layoutPolicy());
        this.timing = AppendTiming.of(options);
        this.files = new SegmentDirectory(dir, tables.writeTypes(), tables, options);
        this.privateFiles = options.privateFiles();
    }

    /**
     * {@return the queue of {@code type} messages in {@code dir}, opened (created if needed) with default options}
     *
     * @param <T>  the message class
     * @param dir  the queue directory
     * @param type the message class, trivially copyable
     */
    public static <T> BlitQueue<T> open(Path dir, Class<T> type) {
        return open(dir, type, QueueOptions.defaults());
    }

    /**
     * {@return the queue of {@code type} messages in {@code dir}, that is
     * {@link #open(Path, MessageTypes, QueueOptions)} of {@link MessageTypes#single}{@code (type)} (type id 0)}
     *
     * @param <T>     the message class
     * @param dir     the queue directory
     * @param type    the message class
     * @param options how the queue is opened and written ({@link QueueOptions#defaults()} for the defaults)
     * @throws io.blit.layout.NotTriviallyCopyableException if {@code type} is not trivially copyable
     */
    public static <T> BlitQueue<T> open(Path dir, Class<T> type, QueueOptions options) {
        return open(dir, MessageTypes.single(Objects.requireNonNull(type, "type")), options);
    }

    /**
     * {@return the queue of the message types {@code types} in {@code dir}, opened (created if needed) with defaults}
     *
     * @param <T>   the common supertype of the message types
     * @param dir   the queue directory
     * @param types the message classes and their type ids
     */
    public static <T> BlitQueue<T> open(Path dir, MessageTypes<T> types) {
        return open(dir, types, QueueOptions.defaults());
    }

    /**
     * {@return the queue of the message types {@code types} in {@code dir}, opened (creating the directory and first
     * file if needed, unless read-only)} Every record carries its type; files record each type's id and layout.
     *
     * @param <T>     the common supertype of the message types
     * @param dir     the queue directory
     * @param types   the message classes and their type ids
     * @param options how the queue is opened and written ({@link QueueOptions#defaults()} for the defaults)
     * @throws LayoutMismatchException      if a file holds raw bytes, or stores a type of {@code types} in a layout
     *                                      {@link QueueOptions#layoutPolicy} cannot read (STRICT: any other;
     *                                      TRANSLATE: a field of another type)
     * @throws QueueCorruptedException      if a segment file's header is invalid
     * @throws java.io.UncheckedIOException if the file system fails ("No space left on device" creating the first file)
     */
    public static <T> BlitQueue<T> open(Path dir, MessageTypes<T> types, QueueOptions options) {
        return new BlitQueue<>(Objects.requireNonNull(dir, "dir"), Objects.requireNonNull(types, "types"),
                Objects.requireNonNull(options, "options"));
    }

    /**
     * {@return the queue of raw byte payloads in {@code dir}, opened (created if needed) with default options}
     *
     * @param dir the queue directory
     */
    public static BlitQueue<Void> openRaw(Path dir) {
        return openRaw(dir, QueueOptions.defaults());
    }

    /**
     * {@return the queue of raw byte payloads in {@code dir}, opened (created if needed)} A queue of a message
     * class may be opened raw: its payloads are then the class's blocks, and raw appends must have that length.
     *
     * @param dir     the queue directory
     * @param options how the queue is opened and written ({@link QueueOptions#defaults()} for the defaults)
     * @throws QueueCorruptedException if a segment file's header is invalid
     */
    public static BlitQueue<Void> openRaw(Path dir, QueueOptions options) {
        return new BlitQueue<>(Objects.requireNonNull(dir, "dir"), null, Objects.requireNonNull(options, "options"));
    }

    /**
     * {@return a new appender} It belongs to the thread that first appends with it, and writes in the queue's current
     * term. If the newest file records other types or layouts than this queue's (a deploy changed a message class),
     * the queue continues in a new file of this queue's types at the next index: no gap, no duplicate (docs/queue.md,
     * "Layouts that evolve").
     *
     * @throws LayoutMismatchException if the newest file of a raw queue changed its types since it was opened
     * @throws ReplicaAppendException  if the queue is a replica: only its replication writes it
     * @throws IllegalStateException   naming the directory, if it is a quarantine (records an old primary set aside
     *                                 when it rejoined, {@code quarantine-of}; docs/failover.md): kept to be read only
     * @throws QueueFencedException    if the directory knows of a newer term than the queue's (another copy of the
     *                                 queue was promoted): nothing is written
     * @throws IllegalStateException   if the queue was opened read-only
     */
    public Appender<T> appender() {
        String source = ReplicaMarker.sourceOf(dir);
        if (source != null) {
            throw QueueErrors.appendOnReplica(dir, source);
        }
        String quarantined = QuarantineMarker.originOf(dir);
        if (quarantined != null) {
            throw QueueErrors.appendOnQuarantine(dir, quarantined);
        }
        files.requireWritable("append");
        long term = giveIdentity().currentTerm();
        MemorySegment fence = fence(term);
        long known = FenceFile.load(fence);
        if (known > term) { // before anything is written: continuing in own types may end a file
            throw new QueueFencedException(dir, term, known, HandedToNote.primaryOf(dir, known));
        }
        files.recordTerm(term);
        files.continueInOwnTypes();
        return register(new Appender<>(this, fence, term));
    }

    /**
     * The first appender gives the queue its identity ({@code terms.blitt}: a random queue id, term 0 from index 0),
     * which replication binds into its handshakes and every replica keeps; a queue of a build before ids gets one here.
     *
     * @return the queue's term history
     */
    private TermHistory giveIdentity() {
        return TermHistoryFile.createIfAbsent(dir, TermHistory.createNew(), privateFiles, processTag());
    }

    /**
     * The directory's fence ({@code fence.blitf}), created holding {@code term} if the queue has none yet (a queue of
     * a build before fences), mapped once per queue object for every appender of it, in any thread.
     */
    private synchronized MemorySegment fence(long term) {
        if (fence == null) {
            FenceFile.createIfAbsent(dir, term, privateFiles, processTag());
            fenceArena = Arena.ofShared();
            fence = FenceFile.map(dir, false, fenceArena);
            if (fence == null) {
                fenceArena.close();
                fenceArena = null;
                throw new IllegalStateException("the fence " + dir.resolve(FenceFile.NAME) + " was deleted while the"
                        + " queue opened an appender; it must stay while the queue exists");
            }
        }
        return fence;
    }

    private static String processTag() {
        return ProcessHandle.current().pid() + "-" + Thread.currentThread().threadId();
    }

    /** {@return a new tailer at the first message of the queue} */
    public Tailer<T> tailer() {
        return register(Tailer.atStart(this));
    }

    /** {@return a new tailer after the last message committed now} It reads only messages committed later. */
    public Tailer<T> tailerFromEnd() {
        return register(Tailer.atEnd(this));
    }

    /**
     * {@return a new tailer whose next message is {@code index}}
     *
     * @param index the index of the first message to read, from 0 to {@link #endIndex()}
     * @throws IllegalArgumentException if {@code index} is negative or beyond the end of the queue
     * @throws MessagesDeletedException if {@code index} was in a file deleted by retention
     */
    public Tailer<T> tailerFrom(long index) {
        return register(Tailer.atIndex(this, index));
    }

    /**
     * {@return {@link #tailer(String, NamedTailer.Options)} with the defaults: a new name starts at the first message}
     *
     * @param name the consumer's name: 1 to {@value NamedTailer#MAX_NAME_LENGTH} characters of {@code [A-Za-z0-9._-]}
     */
    public NamedTailer<T> tailer(String name) {
        return tailer(name, NamedTailer.Options.defaults());
    }

    /**
     * {@return the named consumer {@code name}, which holds the name until closed} It starts after the last index
     * committed under that name (a new name: where {@code options} say); positions file, delivery: {@link NamedTailer}.
     *
     * @param name    the consumer's name
     * @param options where a new name starts, and whether each read commits
     * @throws IllegalArgumentException if {@code name} is not 1 to {@value NamedTailer#MAX_NAME_LENGTH} characters of
     *                                  {@code [A-Za-z0-9._-]}, or a new name's start index is beyond the end
     * @throws ConsumerHeldException    if a live process holds the name (this one included), naming its pid
     * @throws MessagesDeletedException if a new name's start index was deleted by retention
     * @throws IllegalStateException    if the positions file's 1023 names are all used, or the queue is closed
     * @throws QueueCorruptedException  if the positions file is invalid
     */
    public NamedTailer<T> tailer(String name, NamedTailer.Options options) {
        NamedTailer<T> tailer = NamedTailer.open(this, name, options);
        try {
            return register(tailer);
        } catch (RuntimeException closedQueue) {
            tailer.close();
            throw closedQueue;
        }
    }

    /** {@return the named consumers as stored now, oldest first} An invalid positions file: QueueCorruptedException. */
    public List<ConsumerPosition> consumers() {
        return Consumers.list(this);
    }

    /**
     * Forgets the named consumer {@code name}: it holds no file back; opening the name starts it anew.
     *
     * @param name the consumer's name
     * @return true if it was removed, false if there was no consumer of that name
     * @throws ConsumerHeldException    if a live process holds it
     * @throws IllegalArgumentException if {@code name} is not a valid consumer name
     */
    public boolean removeConsumer(String name) {
        return Consumers.remove(this, name);
    }

    /**
     * {@return the index after the last record of the queue now, committed or claimed} The next append gets it. A
     * record claimed and not yet committed counts (its writer may be about to commit it, or dead: readers step over
     * it then), so every message below this index is committed or will be, or its index is abandoned.
     * {@link #tailerFromEnd()} starts at the first record not yet committed by a live writer, at or before it.
     */
    public long endIndex() {
        return RecordWalker.tail(files);
    }

    /**
     * {@return the index of the first message appended at or after {@code time} (each record's time:
     * {@link QueueClock}), or {@link #endIndex()} if every message so far is older} Start a {@link #tailerFrom}
     * there. O(log n) over files and checkpoints, then at most 4095 records; exact while records' times do not
     * decrease in index order (the contract and its limits: docs/queue.md, "Time"). Reads only.
     *
     * @param time the instant to search for; instants outside 1677-2262 are clamped
     * @throws QueueCorruptedException  if a header or record read is invalid
     * @throws MessagesDeletedException if retention deleted a file while the search was reading it (search again)
     */
    public long firstIndexAtOrAfter(Instant time) {
        return TimeLookup.firstIndexAtOrAfter(files, epochNanos(time));
    }

    /** {@code time} in nanoseconds since the epoch, clamped to the range of a {@code long}. */
    static long epochNanos(Instant time) {
        try {
            return Math.addExact(Math.multiplyExact(time.getEpochSecond(), 1_000_000_000L), time.getNano());
        } catch (ArithmeticException outOfRange) {
            return time.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /**
     * Deletes every segment file all of whose messages have indices below {@code index}, oldest first, never the
     * newest. Safe while appenders and tailers of any process run: a cursor inside a deleted file finishes it; a
     * tailer reaching a deleted file, or {@link #tailerFrom} a deleted index, throws {@link MessagesDeletedException}.
     *
     * @param index the first index to keep: files whose messages are all below it go
     * @return the files this call deleted, oldest first (those another deleter removed first are not listed)
     * @throws java.io.UncheckedIOException if the file system refuses a deletion (the older files are deleted)
     */
    public List<Path> deleteFilesBefore(long index) {
        files.requireWritable("delete files");
        return Retention.deleteBefore(dir, index);
    }

    /**
     * Applies this queue's {@link QueueOptions#retention() retention policy} now, as appenders do each time they roll
     * to a new file; same guarantees as {@link #deleteFilesBefore(long)}.
     *
     * @return the files this call deleted, oldest first
     */
    public List<Path> applyRetention() {
        files.requireWritable("apply retention");
        return Retention.apply(dir, retention, timing.clock().epochNanos());
    }

    /** {@return the first message indices of the queue's segment files, ascending (the names of the files)} */
    public long[] fileFirstIndices() {
        return files.firsts();
    }

    /**
     * {@return the bytes a message occupies in a segment file appenders write now} That is its header word, its time
     * and its payload, rounded up to a multiple of 8 (docs/format.md, "Records"). For sizing segment files.
     *
     * @param payloadBytes the message's payload length in bytes (a class's block length)
     */
    public static long recordBytes(long payloadBytes) {
        return RecordHeader.messageRecordLength(payloadBytes);
    }

    /**
     * {@return the bytes a message occupies in a segment file with record checksums or without} With them
     * ({@link QueueOptions#recordChecksums()}), 8 bytes more than {@link #recordBytes(long)}: the checksum and a
     * reserved word.
     *
     * @param payloadBytes    the message's payload length in bytes (a class's block length)
     * @param recordChecksums whether the file's records carry checksums
     */
    public static long recordBytes(long payloadBytes, boolean recordChecksums) {
        return RecordHeader.messageRecordLength(payloadBytes) + (recordChecksums
                ? RecordHeader.CHECKSUMMED_PAYLOAD_OFFSET - RecordHeader.LENGTH - RecordHeader.TIME_LENGTH : 0);
    }

    /** {@return the queue's figures now} Reads only; the rate is measured between samples of this object. */
    public QueueStats stats() {
        return monitor.sample();
    }

    /**
     * Registers this queue's {@link QueueMXBean} (idempotent; {@link #close()} unregisters it).
     *
     * @return the name the MBean is registered under
     * @throws IllegalStateException if another MBean has its name (the same directory open twice in this JVM)
     */
    public javax.management.ObjectName registerMBean() {
        return monitor.register();
    }

    /** {@return the queue directory} */
    public Path directory() {
        return dir;
    }

    /**
     * {@return the layout in this JVM of the queue's only message type, or null for raw bytes or several types} It is
     * what appenders write and new files record; several types: {@link #types()}.
     */
    public LayoutDescriptor descriptor() {
        return files.descriptor();
    }

    /** {@return the queue's message types, or null for a queue opened raw} */
    public MessageTypes<T> types() {
        return tables.types();
    }

    /** {@return how tailers read files written under another layout} */
    public LayoutPolicy layoutPolicy() {
        return tables.layoutPolicy();
    }

    /**
     * Closes every appender and tailer of this queue still open (each in its own thread: close others first). Idempotent.
     *
     * @throws IllegalStateException if some appender or tailer belongs to another thread; the rest are closed
     */
    @Override
    public synchronized void close() {
        monitor.unregister();
        cursors.refuseMore();
        files.close();
        try {
            cursors.closeEach();
        } finally {
            if (fenceArena != null) { // unmapped with the queue: an appender left open in another thread then throws
                fenceArena.close();
                fenceArena = null;
                fence = null;
            }
        }
    }

    // ---- for Appender and Tailer

    SegmentDirectory files() {
        return files;
    }

    FileTables<T> tables() {
        return tables;
    }

    AppendTiming timing() {
        return timing;
    }

    long abandonGraceNanos() {
        return abandonGraceNanos;
    }

    synchronized void unregister(AutoCloseable cursor) {
        cursors.remove(cursor);
    }

    synchronized <C extends AutoCloseable> C register(C cursor) {
        return cursors.add(cursor);
    }
}
