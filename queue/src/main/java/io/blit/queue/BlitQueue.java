package io.blit.queue;

import io.blit.core.LayoutPolicy;
import io.blit.layout.LayoutDescriptor;
import io.blit.queue.internal.FileHeaders;
import io.blit.queue.internal.QueueErrors;
import io.blit.queue.internal.ReplicaMarker;
import io.blit.queue.internal.Retention;
import io.blit.queue.internal.SegmentHeader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A persisted, multi-producer, multi-consumer queue of messages in a directory of memory-mapped segment
 * files (format: {@code docs/queue-design.md}). Messages are either the field blocks of one trivially
 * copyable class ({@link #open(Path, Class)}), copied with Blit, or raw byte payloads ({@link #openRaw(Path)}).
 *
 * <pre>{@code
 * try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
 *     Appender<MarketData> appender = queue.appender();   // one per writing thread
 *     long index = appender.append(md);
 *     Tailer<MarketData> tailer = queue.tailer();          // one per reading thread
 *     while (tailer.readNext(into)) { ... }
 *     NamedTailer<MarketData> risk = queue.tailer("risk"); // resumes after its last commit()
 * }
 * }</pre>
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li><b>Validation.</b> Opening validates the header of every segment file (magic, version, CRC32C, size,
 *       first index) and throws {@link QueueCorruptedException} naming the file and offset.</li>
 *   <li><b>Layouts.</b> Each file records the layout its messages were written with. A tailer reads a file
 *       written under another layout (other JVM flags, fields added, removed or reordered) as
 *       {@link Options#layoutPolicy} says: {@link LayoutPolicy#TRANSLATE} (the default) translates field by
 *       field, matched by name (a field the file lacks reads as 0); {@link LayoutPolicy#STRICT} refuses.
 *       A field whose type changed is refused under both. An appender writes only into files of exactly its
 *       class's layout. Refusals are {@link LayoutMismatchException}s naming the file and every field
 *       (docs/cross-layout.md).
 *       Files whose names are not {@code segment-<20 digits>.blitq} are ignored, except the temporaries of
 *       creators that died, which are deleted.</li>
 *   <li><b>Ordering.</b> Every message gets a unique, contiguous index. A message is visible to tailers when its
 *       appender's release store of the header word is seen by their acquire load; its payload then is too.</li>
 *   <li><b>Thread-safety.</b> This object may be shared; {@link Appender}s and {@link Tailer}s may not: each
 *       belongs to the thread that first uses it (its mappings are confined to that thread).</li>
 *   <li><b>Segment size.</b> Taken from the existing files; {@link Options#segmentSize} applies only to a new queue.</li>
 *   <li><b>Retention.</b> Old files are deleted only by {@link #deleteFilesBefore(long)}, {@link #applyRetention()}
 *       and appenders rolling under a {@link RetentionPolicy} ({@link Options#retention(RetentionPolicy)}); whole
 *       files, oldest first, never the newest. Tailers never skip deleted messages silently
 *       ({@link MessagesDeletedException}).</li>
 *   <li><b>Named consumers.</b> {@link #tailer(String)} reads as a named consumer whose committed position is kept in
 *       the queue directory's positions file, one live holder per name; {@link #consumers()} lists them. Delivery is
 *       at least once across crashes ({@link NamedTailer}).</li>
 * </ul>
 *
 * @param <T> the message class, or {@link Void} for a raw queue
 */
public final class BlitQueue<T> implements AutoCloseable {
    /**
     * Default size of a segment file: 64 MiB, small enough for many short-lived queues (each appending queue also
     * prepares its next file); 256 MiB or more sustains higher rates ({@link Options#segmentSize}).
     */
    public static final long DEFAULT_SEGMENT_SIZE = 64L << 20;

    private final Path dir;
    private final SegmentDirectory<T> files;
    private final long abandonGraceNanos;
    private final RetentionPolicy retention;
    /** The appenders, tailers and record streams created here that are still open; guarded by this queue. */
    private final OpenCursors cursors;

    /**
     * Options of a queue; immutable. {@code Options.defaults().segmentSize(64 << 10)}.
     *
     * @param segmentSize     bytes of each new segment file, a multiple of 4096 from 12 KiB to 4 GiB (checkpoints hold
     *                        u32 record positions). Every roll to a new file costs an unmapping in each appender
     *                        and tailer thread and a {@code force} of the new file's header, which stalls for 0.1-0.2 s
     *                        while the kernel writes back other dirty data; for the highest sustained rate use 256 MiB
     *                        or more (with a tailer on a 2-vCPU machine: 11.9 M MarketData/s against 8.2 for the
     *                        64 MiB default, docs/queue-performance.md)
     * @param abandonGrace    how long a CLAIMED record may stay so before a tailer checks whether its claimer died
     * @param layoutPolicy    how tailers read files written under another layout than the message class's
     *                        (appenders never write into such files)
     * @param retention       which old files appenders of this queue object delete when they roll ({@link RetentionPolicy})
     * @param prepareNextFile whether an appender entering a file of a message-class queue has the next file created and
     *                        zero-filled by a background thread (default true: a roll then costs a link and a mapping,
     *                        docs/queue-performance.md). Turn it off where the files are sized so that no roll happens
     *                        in a latency-critical session: the preparation is a burst of CPU and page-cache work
     *                        (about 0.2 s per GiB on a 2-vCPU virtual machine) that competes with spinning threads on a machine with few cores
     * @param privateFiles    whether what this queue object creates is readable by its user only (default false). When
     *                        true, every file it creates (segment files, their temporaries, the prepared next file) is
     *                        created with mode {@code rw-------} (0600) and every directory it creates (the queue's
     *                        directory and its missing parents) {@code rwx------} (0700), whatever the umask: the mode is
     *                        given at creation and set again before any byte is written. Files and directories that exist
     *                        already keep their modes, and so do files that other queue objects create: open every
     *                        appender's queue with the option. When false, files and directories get the process's
     *                        default modes (the umask's). Ignored on a file system without POSIX permissions
     */
    public record Options(long segmentSize, Duration abandonGrace, LayoutPolicy layoutPolicy,
                          RetentionPolicy retention, boolean prepareNextFile, boolean privateFiles) {
        /**
         * @throws IllegalArgumentException if the segment size is not a multiple of 4096 from
         *                                  {@link SegmentHeader#MIN_SEGMENT_SIZE} (12 KiB) to
         *                                  {@link SegmentHeader#MAX_SEGMENT_SIZE} (4 GiB), or the grace is negative
         * @throws NullPointerException     if the grace or the policy is null
         */
        public Options {
            Objects.requireNonNull(abandonGrace, "abandonGrace");
            Objects.requireNonNull(layoutPolicy, "layoutPolicy");
            if (!SegmentHeader.isValidSegmentSize(segmentSize)) {
                throw QueueErrors.badSegmentSize(segmentSize);
            }
            if (abandonGrace.isNegative()) {
                throw QueueErrors.negativeGrace(abandonGrace);
            }
            Objects.requireNonNull(retention, "retention");
        }

        /** Options whose files get the process's default modes. */
        public Options(long segmentSize, Duration abandonGrace, LayoutPolicy layoutPolicy, RetentionPolicy retention,
                       boolean prepareNextFile) {
            this(segmentSize, abandonGrace, layoutPolicy, retention, prepareNextFile, false);
        }

        /** Options that prepare the next file in the background. */
        public Options(long segmentSize, Duration abandonGrace, LayoutPolicy layoutPolicy, RetentionPolicy retention) {
            this(segmentSize, abandonGrace, layoutPolicy, retention, true);
        }

        /** Options with the default {@link LayoutPolicy#TRANSLATE} that keep every file. */
        public Options(long segmentSize, Duration abandonGrace) {
            this(segmentSize, abandonGrace, LayoutPolicy.TRANSLATE, RetentionPolicy.keepAll());
        }

        /** Options that keep every file. */
        public Options(long segmentSize, Duration abandonGrace, LayoutPolicy layoutPolicy) {
            this(segmentSize, abandonGrace, layoutPolicy, RetentionPolicy.keepAll());
        }

        /** Options with the default {@link LayoutPolicy#TRANSLATE}. */
        public Options(long segmentSize, Duration abandonGrace, RetentionPolicy retention) {
            this(segmentSize, abandonGrace, LayoutPolicy.TRANSLATE, retention);
        }

        /**
         * 64 MiB segments; a CLAIMED record is checked for a dead claimer after 1 s; other layouts translated; every
         * file kept; the next file prepared in the background; files with the process's default modes.
         */
        public static Options defaults() {
            return new Options(DEFAULT_SEGMENT_SIZE, Duration.ofSeconds(1), LayoutPolicy.TRANSLATE,
                    RetentionPolicy.keepAll(), true, false);
        }

        /** These options with another segment size (for a new queue). */
        public Options segmentSize(long bytes) {
            return new Options(bytes, abandonGrace, layoutPolicy, retention, prepareNextFile, privateFiles);
        }

        /** These options with another grace period before a tailer checks whether a claimer died. */
        public Options abandonGrace(Duration grace) {
            return new Options(segmentSize, grace, layoutPolicy, retention, prepareNextFile, privateFiles);
        }

        /** These options with another policy for reading files written under another layout. */
        public Options layoutPolicy(LayoutPolicy policy) {
            return new Options(segmentSize, abandonGrace, policy, retention, prepareNextFile, privateFiles);
        }

        /** These options with another retention policy (applied by appenders when they roll). */
        public Options retention(RetentionPolicy policy) {
            return new Options(segmentSize, abandonGrace, layoutPolicy, policy, prepareNextFile, privateFiles);
        }

        /** These options with the background preparation of the next file turned on or off. */
        public Options prepareNextFile(boolean prepare) {
            return new Options(segmentSize, abandonGrace, layoutPolicy, retention, prepare, privateFiles);
        }

        /** These options with owner-only files and directories ({@link #privateFiles()}) turned on or off. */
        public Options privateFiles(boolean ownerOnly) {
            return new Options(segmentSize, abandonGrace, layoutPolicy, retention, prepareNextFile, ownerOnly);
        }
    }

    private BlitQueue(Path dir, Class<T> type, Options options) {
        this.dir = dir;
        this.abandonGraceNanos = options.abandonGrace().toNanos();
        this.retention = options.retention();
        this.cursors = new OpenCursors(dir);
        this.files = new SegmentDirectory<>(dir, type, options);
    }

    /** Opens (creating if needed) the queue of {@code type} messages in {@code dir}, with default options. */
    public static <T> BlitQueue<T> open(Path dir, Class<T> type) {
        return open(dir, type, Options.defaults());
    }

    /**
     * Opens (creating the directory and first file if needed) the queue of {@code type} messages in {@code dir}.
     *
     * @throws io.blit.layout.NotTriviallyCopyableException if {@code type} is not trivially copyable
     * @throws LayoutMismatchException  if the queue holds raw bytes, or a file was written with a layout that
     *                                  {@link Options#layoutPolicy} cannot read (STRICT: any other layout;
     *                                  TRANSLATE: a field of another type)
     * @throws QueueCorruptedException  if a segment file's header is invalid
     * @throws UncheckedIOException     if the file system fails
     */
    public static <T> BlitQueue<T> open(Path dir, Class<T> type, Options options) {
        return new BlitQueue<>(Objects.requireNonNull(dir, "dir"), Objects.requireNonNull(type, "type"),
                Objects.requireNonNull(options, "options"));
    }

    /** Opens (creating if needed) a queue of raw byte payloads, with default options. */
    public static BlitQueue<Void> openRaw(Path dir) {
        return openRaw(dir, Options.defaults());
    }

    /**
     * Opens (creating if needed) {@code dir} for raw byte payloads. An existing queue of a message class
     * may be opened raw: its payloads are then the class's blocks and raw appends must have exactly that length.
     *
     * @throws QueueCorruptedException if a segment file's header is invalid
     */
    public static BlitQueue<Void> openRaw(Path dir, Options options) {
        return new BlitQueue<>(Objects.requireNonNull(dir, "dir"), null, Objects.requireNonNull(options, "options"));
    }

    /**
     * A new appender; it belongs to the thread that first appends with it.
     *
     * @throws LayoutMismatchException if the newest file was written under another layout than the message
     *                                 class's here: records of two layouts in one file could not be told apart
     * @throws ReplicaAppendException  if the queue is a replica ({@link ReplicaWriter}): only its replication
     *                                 writes it
     */
    public Appender<T> appender() {
        String source = ReplicaMarker.sourceOf(dir);
        if (source != null) {
            throw QueueErrors.appendOnReplica(dir, source);
        }
        long[] firsts = files.firsts();
        files.fileForWriting(firsts[firsts.length - 1]);
        return register(new Appender<>(this));
    }

    /**
     * A new {@link RecordStream} whose first record is {@code index}: every record as stored, for replication.
     *
     * @throws IllegalArgumentException if {@code index} is negative or beyond the end of the queue
     * @throws MessagesDeletedException if {@code index} was in a file deleted by retention
     */
    public RecordStream recordStream(long index) {
        return register(new RecordStream(this, index));
    }

    /** A new tailer at the first message of the queue. */
    public Tailer<T> tailer() {
        return register(Tailer.atStart(this));
    }

    /** A new tailer after the last message committed now: it reads only messages committed later. */
    public Tailer<T> tailerFromEnd() {
        return register(Tailer.atEnd(this));
    }

    /**
     * A new tailer whose next message is {@code index}.
     *
     * @throws IllegalArgumentException if {@code index} is negative or beyond the end of the queue
     * @throws MessagesDeletedException if {@code index} was in a file deleted by retention
     */
    public Tailer<T> tailerFrom(long index) {
        return register(Tailer.atIndex(this, index));
    }

    /**
     * Opens the named consumer {@code name} with {@link NamedTailer.Options#defaults()}: a new name starts at the first
     * message; commits are explicit.
     *
     * @see #tailer(String, NamedTailer.Options)
     */
    public NamedTailer<T> tailer(String name) {
        return tailer(name, NamedTailer.Options.defaults());
    }

    /**
     * Opens the named consumer {@code name}: a tailer that starts after the last index committed under that name (a new
     * name: where {@code options} say, recorded at once) and records its position with {@link NamedTailer#commit()} in
     * the queue's positions file ({@code consumers.blitc}, created if absent). The name is held until the tailer is
     * closed. If the next index was deleted by retention, the tailer opens and its reads throw
     * {@link MessagesDeletedException}.
     *
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

    /**
     * The queue's named consumers as stored now, in the order they were created (an empty list if none was ever opened;
     * the positions file is not created): name, committed index, lag, live holder, last commit time.
     *
     * @throws QueueCorruptedException if the positions file is invalid
     */
    public List<ConsumerPosition> consumers() {
        return Consumers.list(this);
    }

    /**
     * Forgets the named consumer {@code name}: it no longer holds files back under
     * {@link RetentionPolicy#untilConsumed(Duration)}, and opening the name again starts it anew.
     *
     * @return false if there is no such consumer
     * @throws ConsumerHeldException    if a live process holds it
     * @throws IllegalArgumentException if {@code name} is not a valid consumer name
     */
    public boolean removeConsumer(String name) {
        return Consumers.remove(this, name);
    }

    /**
     * The index after the last message committed now: where {@link #tailerFromEnd()} starts (it stops at the first
     * record that is empty or still claimed), and the index the next append gets if no claim is outstanding.
     */
    public long endIndex() {
        return RecordWalker.seek(files, Long.MAX_VALUE).index();
    }

    /**
     * Deletes every segment file all of whose messages have indices below {@code index}, oldest first; never
     * the newest file (the one being appended to), so at least the messages from the newest file's first index
     * on stay. Safe while appenders and tailers of this and other processes run: a cursor inside a deleted file
     * keeps its mapping and finishes the file; a tailer that reaches a deleted file, and {@link #tailerFrom}
     * of a deleted index, throw {@link MessagesDeletedException} naming the missing indices. The disk space of
     * a deleted file is freed when its last mapping is closed.
     *
     * @return the files this call deleted, oldest first (those another deleter removed first are not listed)
     * @throws java.io.UncheckedIOException if the file system refuses a deletion (the older files are deleted)
     */
    public List<Path> deleteFilesBefore(long index) {
        return Retention.deleteBefore(dir, index);
    }

    /**
     * Applies this queue's {@link Options#retention() retention policy} now, as appenders do each time they roll
     * to a new file; same guarantees as {@link #deleteFilesBefore(long)}.
     *
     * @return the files this call deleted, oldest first
     */
    public List<Path> applyRetention() {
        return Retention.apply(dir, retention, System.currentTimeMillis() * 1_000_000L);
    }

    /** The first message indices of the queue's segment files, ascending (the names of the files). */
    public long[] fileFirstIndices() {
        return files.firsts();
    }

    /**
     * The header of the queue's file of first index {@code firstIndex} as stored, up to and including its CRC
     * (what {@link RecordStream#fileHeader()} gives, and a replica compares), or null if there is no such file.
     *
     * @throws QueueCorruptedException if the file's header is invalid
     */
    public byte[] fileHeader(long firstIndex) {
        return FileHeaders.read(dir, firstIndex);
    }

    /** The first message index a file header as {@link #fileHeader} gives it states, or -1 if it is too short. */
    public static long fileHeaderFirstIndex(byte[] header) {
        return SegmentHeader.firstIndexOf(header);
    }

    /**
     * A one-line description of a file header as {@link #fileHeader} gives it: first index, creation time, creating
     * pid, segment size and message class (for messages that compare two queues).
     */
    public static String describeFileHeader(byte[] header) {
        return FileHeaders.describe(header);
    }

    /** The queue directory. */
    public Path directory() {
        return dir;
    }

    /**
     * The layout of the message class in this JVM — the layout appenders write and new files record — or
     * null for a raw queue. Existing files may record other layouts, which tailers translate.
     */
    public LayoutDescriptor descriptor() {
        return files.descriptor();
    }

    /** How tailers read files written under another layout. */
    public LayoutPolicy layoutPolicy() {
        return files.layoutPolicy();
    }

    /**
     * Closes every appender and tailer created by this queue that is still open (which must then be done
     * in the thread that uses each: close others in their own thread first). Idempotent.
     *
     * @throws IllegalStateException if some appender or tailer belongs to another thread; the rest are closed
     */
    @Override
    public synchronized void close() {
        cursors.refuseMore();
        files.close();
        cursors.closeEach();
    }

    // ---- for Appender and Tailer

    SegmentDirectory<T> files() {
        return files;
    }

    long abandonGraceNanos() {
        return abandonGraceNanos;
    }

    synchronized void unregister(AutoCloseable cursor) {
        cursors.remove(cursor);
    }

    private synchronized <C extends AutoCloseable> C register(C cursor) {
        return cursors.add(cursor);
    }
}
