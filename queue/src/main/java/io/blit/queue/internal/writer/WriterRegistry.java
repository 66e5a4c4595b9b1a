package io.blit.queue.internal.writer;

import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.file.FileLocks;
import io.blit.queue.internal.file.FileModes;
import io.blit.queue.internal.format.FileFeatures;
import io.blit.queue.internal.format.RecordHeader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.LockSupport;

/**
 * Writer liveness for one queue directory: which process may hold a record claim, a named consumer or a file being
 * created, and whether it still lives. Every process that writes the queue takes a <b>writer id</b> here (its lease)
 * and holds an exclusive OS lock on one byte of {@code writers.blitw} that stands for that id; the kernel releases
 * the lock when the process dies, however it dies. A writer id is <em>alive</em> exactly while its byte is locked.
 * Claims, holders and temporaries name the writer id, never a pid, so liveness holds across pid namespaces
 * (containers sharing a volume of one host), after pid reuse, and when two processes share a pid number.
 *
 * <h2>The file</h2>
 * A 64-byte little-endian header (magic {@code "BLITWRT\0"}, format version {@value #FORMAT_VERSION}, byte order and
 * feature masks as every Blit header has them ({@link FileFeatures}), the next writer id at [16, 24)), writer info
 * entries from 4096 (for messages only: a writer's pid; never used to decide liveness), and from 65536 a lock area in
 * which byte {@code 65536 + i} stands for writer id i and is never written, only locked. Every byte is specified in
 * {@code docs/format.md} ("Writer liveness").
 *
 * <h2>The algorithm</h2>
 * No step waits on another process without a bound, and none waits on a <em>reader</em> at all: the file is readable
 * by whoever may read the queue (0644 unless the queue's files are private), and any reader can take shared locks of
 * any of its bytes and hold them for as long as it likes.
 * <ul>
 *   <li><b>Lease</b> ({@link #lease}): take the counter lock, an exclusive lock of [16, 24), without blocking
 *       ({@code tryLock}). Refused, the lease tries a shared lock of the same bytes: granted means no writer holds it,
 *       only readers' shared locks refused the exclusive one (a writer of Blit never takes a shared lock there), so
 *       the lease goes on <em>without</em> the counter lock; refused means a writer is taking its id, and the lease
 *       retries for up to {@value #COUNTER_WAIT_SECONDS} s, then fails naming the holder's pid. Then it reads the next
 *       id (1 if the file is new: write the header), tries ids from it on with a non-blocking exclusive lock of their
 *       byte, skipping id 0 and any whose byte is locked: by a live writer (exclusive) or by readers (shared only; the
 *       range their lock covers is skipped at once where it can be learnt, {@link FileLocks}); it fails, naming the
 *       holder, when readers' locks cover every id or, where their ranges cannot be learnt,
 *       {@value #READER_HELD_IDS} ids in a row. It stores the id after the one taken (without the counter lock: only
 *       if that is ahead of the stored one, so ids stay in sequence but for a race between two such leases), writes
 *       the info entry, and releases the counter lock. The lock of the id's byte is held until the lease is
 *       released. Ids are unique whatever happens to the counter: an id is taken only with its byte's exclusive
 *       lock.</li>
 *   <li><b>Alive</b> ({@link #isAlive}): an id of this process's lease is alive; otherwise it is alive exactly while
 *       another process holds an <em>exclusive</em> lock of its byte (a reader's shared lock is not a writer). Where
 *       the kernel can be asked without taking a lock ({@code fcntl(F_OFD_GETLK)}, {@link FileLocks}: Linux with
 *       native access enabled for this module), the probe only asks. Otherwise it tries a shared lock of the byte
 *       without blocking: refused means a writer holds it (alive); granted means none does (dead), and the probe lock
 *       is released at once. Either way nothing waits on the probe: a lease that meets a probed byte takes the next
 *       id. Ids are handed out in sequence, so an id comes back only after 2^22 - 1 further leases in the
 *       directory.</li>
 * </ul>
 *
 * <h2>One channel per directory per process</h2>
 * POSIX record locks belong to the process, and closing <em>any</em> descriptor of the file in that process drops
 * all of them. So a JVM opens {@code writers.blitw} once per directory ({@link #acquire}: shared by every queue
 * object of that directory, counted, and closed when the last one releases it) and never otherwise. The JDK also
 * refuses two overlapping locks in one JVM ({@link OverlappingFileLockException}), so every lock operation here is
 * made under this object's monitor. A process must not open {@code writers.blitw} by other means (a backup thread
 * copying the directory inside a writing JVM would drop its lease). The kernel probe's descriptor
 * ({@link FileLocks.Probe}, with native access) is opened with the channel and closed only with it.
 *
 * <h2>Links</h2>
 * The file is opened without following symbolic links ({@link LinkOption#NOFOLLOW_LINKS}: {@code O_NOFOLLOW}) and
 * created with the queue's modes ({@link FileModes}): a link of its name is refused, naming it, and nothing is created
 * where it points.
 *
 * <h2>Where it holds</h2>
 * Local file systems, tmpfs and volumes of one host shared by containers (locks live in the host's kernel, whatever
 * the pid namespaces). On NFS the locks go through the NFS lock manager (NFSv4 locks, or NLM for v3; with
 * {@code nolock} they stay local to the client), and a crashed client's locks are released only when its lease
 * expires (NFSv4: the server's lease time, typically 90 s); the queue itself needs one host's page cache (its
 * records are shared memory), so a queue on NFS is for processes of one client host. A read-only directory is
 * probed with shared locks, which need no write access; a directory that never had a writer of this format has no
 * such file, and a claim naming a writer id there cannot be alive.
 *
 * <p>Thread-safe.
 */
public final class WriterRegistry {
    /** The file's name in the queue directory. */
    public static final String NAME = "writers.blitw";
    /** The largest writer id: the claim word's 22-bit writer field ({@link RecordHeader#WRITER_MASK}). */
    public static final long MAX_ID = RecordHeader.WRITER_MASK;
    static final byte[] MAGIC = {'B', 'L', 'I', 'T', 'W', 'R', 'T', 0};
    static final int FORMAT_VERSION = 1;
    /** The byte order code of the writer that created the file ({@link FileFeatures}); 0: not recorded. */
    public static final int BYTE_ORDER_OFFSET = 12;
    static final long COUNTER_OFFSET = 16;
    public static final int COMPATIBLE_OFFSET = 24;
    public static final int INCOMPATIBLE_OFFSET = 32;
    public static final int HEADER_LENGTH = 64;
    static final long INFO_OFFSET = 4096;
    static final int INFO_ENTRIES = 1024;
    static final int INFO_LENGTH = 32;
    static final long LOCK_BASE = 65536;
    /** How long a lease waits for another writer's lease (an exclusive lock of the counter) before it fails. */
    static final int COUNTER_WAIT_SECONDS = 10;
    /** Ids in a row locked by readers that a lease steps over, one by one, before it fails naming the holder. */
    static final int READER_HELD_IDS = 1024;
    /**
     * The byte of the file whose exclusive lock a process holds while it creates a named consumer's slot in the
     * positions file ({@link #lockConsumerCreation}; docs/format.md, "The positions file"): a reserved header byte,
     * locked, never written.
     */
    public static final long CONSUMER_CREATION_LOCK = 40;
    /** How long {@link #lockConsumerCreation} waits for another creator before it fails naming it. */
    static final int CREATION_WAIT_SECONDS = 10;

    /** The registries open in this JVM, by real directory path; guarded by itself. */
    private static final Map<Path, WriterRegistry> OPEN = new HashMap<>();

    private final Path dir;
    private final Path file;
    private int users;
    /** The one channel of the file in this JVM, or null before the first probe or lease; guarded by this. */
    private FileChannel channel;
    /** Asks who holds the file's locks: opened with the channel and closed with it (closing it drops locks). */
    private FileLocks.Probe probe;
    private boolean channelWritable;
    /**
     * This process's writer id here, 0 before the first {@link #lease}. Its lock is held by the channel until the
     * channel closes (a {@link FileLock} object need not be kept: dropping it releases nothing).
     */
    private long leasedId;
    /** Excludes this JVM's other creators of positions-file slots; the file lock excludes other processes'. */
    private final ReentrantLock creation = new ReentrantLock();
    /** The file lock of {@link #CONSUMER_CREATION_LOCK} while {@link #creation} is held by a creator; guarded by this. */
    private FileLock creationLock;

    private WriterRegistry(Path dir) {
        this.dir = dir;
        this.file = dir.resolve(NAME);
    }

    /**
     * The registry of {@code dir} in this JVM, opened at the first call for the directory; each call must be paired
     * with one {@link #release()}.
     *
     * @throws UncheckedIOException if the directory's real path cannot be read
     */
    public static WriterRegistry acquire(Path dir) {
        Path key;
        try {
            key = dir.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot resolve queue directory " + dir, e);
        }
        synchronized (OPEN) {
            WriterRegistry registry = OPEN.computeIfAbsent(key, WriterRegistry::new);
            registry.users++;
            return registry;
        }
    }

    /** Gives back one {@link #acquire}: the last release ends this process's lease and closes the file. */
    public void release() {
        synchronized (OPEN) {
            if (--users > 0) {
                return;
            }
            OPEN.remove(dir);
            synchronized (this) {
                closeChannel();
            }
        }
    }

    /**
     * This process's writer id in the directory, taken at the first call (see the class comment) and kept until the
     * last {@link #release()}.
     *
     * @param ownerOnly create the file {@code rw-------} if it does not exist ({@link FileModes})
     *
     * @throws UncheckedIOException if the file cannot be created, read, written or locked
     * @throws io.blit.queue.QueueCorruptedException if the file is not a writer registry of a known version
     * @throws IllegalStateException naming the file, if it is a symbolic link; naming the holder's pid, if a writer
     *                               held the counter lock for more than {@value #COUNTER_WAIT_SECONDS} s, or if
     *                               readers' shared locks keep every free id (see the class comment)
     */
    public synchronized long lease(boolean ownerOnly) {
        if (leasedId != 0) {
            return leasedId;
        }
        try {
            FileChannel ch = channel(true, ownerOnly);
            FileLock counter = takeCounter(ch);
            try {
                long id = takeId(ch, readOrInitHeader(ch));
                long next = normalise(id + 1);
                if (counter != null || ahead(next, readLong(ch, COUNTER_OFFSET))) {
                    writeLong(ch, COUNTER_OFFSET, next);
                }
                ByteBuffer info = ByteBuffer.allocate(INFO_LENGTH).order(ByteOrder.LITTLE_ENDIAN)
                        .putLong(id).putLong(ProcessHandle.current().pid()).putLong(System.currentTimeMillis())
                        .putLong(0).flip();
                writeFully(ch, info, INFO_OFFSET + (id % INFO_ENTRIES) * INFO_LENGTH);
                leasedId = id;
                return id;
            } finally {
                if (counter != null) {
                    counter.release();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot take a writer id in " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The counter lock, an exclusive lock of [16, 24), taken without blocking; or null if only readers' shared locks
     * keep it (the lease then goes on without it). Retries while a writer holds it, for up to
     * {@value #COUNTER_WAIT_SECONDS} s.
     *
     * @throws IllegalStateException naming the holder, if a writer still holds it then
     */
    private FileLock takeCounter(FileChannel ch) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(COUNTER_WAIT_SECONDS);
        long pause = TimeUnit.MICROSECONDS.toNanos(100);
        while (true) {
            FileLock lock = ch.tryLock(COUNTER_OFFSET, Long.BYTES, false);
            if (lock != null) {
                return lock;
            }
            FileLock shared = ch.tryLock(COUNTER_OFFSET, Long.BYTES, true);
            if (shared != null) { // no exclusive lock is held: readers' shared locks refused ours
                shared.release();
                lock = ch.tryLock(COUNTER_OFFSET, Long.BYTES, false); // unless a writer has just released it
                return lock;
            }
            if (System.nanoTime() - deadline > 0) {
                FileLocks.Holder holder = probe.holderIfKnown(COUNTER_OFFSET, Long.BYTES);
                throw new IllegalStateException("cannot take a writer id in " + file + ": bytes [16, 24), locked"
                        + " exclusively while a writer takes its id (microseconds), have been held for more than "
                        + COUNTER_WAIT_SECONDS + " s by " + (holder != null ? holder.who() : "another process")
                        + ": a writer stopped while it took its id (SIGSTOP, a debugger), or a program that is not"
                        + " Blit; resume or end it");
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    /**
     * The first id from {@code next} on whose byte this process could lock exclusively, locked (see the class
     * comment).
     *
     * @throws IllegalStateException if every id is held, or readers' locks keep the lease from every free one
     */
    private long takeId(FileChannel ch, long next) throws IOException {
        long id = normalise(next);
        long readerHeld = 0;
        FileLocks.Holder reader = null;
        for (long tried = 0; tried <= MAX_ID; ) {
            if (ch.tryLock(LOCK_BASE + id, 1, false) != null) {
                return id;
            }
            FileLock shared = ch.tryLock(LOCK_BASE + id, 1, true);
            long skip = 1;
            if (shared == null) {
                readerHeld = 0; // a live writer's id
            } else { // only shared locks on it: readers', since a writer locks its byte exclusively
                shared.release();
                FileLocks.Holder holder = probe.holderIfKnown(LOCK_BASE + id, 1);
                if (holder != null && !holder.exclusive()) {
                    reader = holder;
                    skip = Math.max(1, Math.min(holder.end(), LOCK_BASE + MAX_ID + 1) - (LOCK_BASE + id));
                } else if (reader == null) {
                    reader = FileLocks.Holder.unknown(false, LOCK_BASE + id, 1);
                }
                readerHeld += skip;
                if (readerHeld > MAX_ID || holder == null && readerHeld >= READER_HELD_IDS) {
                    throw new IllegalStateException("cannot take a writer id in " + file + ": the lock bytes of "
                            + (readerHeld > MAX_ID ? "every free writer id" : readerHeld + " writer ids in a row")
                            + " are locked shared, which no writer of Blit does (" + reader.describe() + "): a"
                            + " process that can read the file is holding them; end it, or give the queue private"
                            + " files (QueueOptions.privateFiles, --private) so that other users cannot open it");
                }
            }
            tried += skip;
            id = normalise(id + skip);
        }
        throw new IllegalStateException("every writer id of " + file + " is held by a live process");
    }

    /** The consumer creation lock, held until {@link #close()}: see {@link #lockConsumerCreation}. */
    public interface CreationLock extends AutoCloseable {
        /** Releases the lock (the file lock first, then this JVM's). */
        @Override
        void close();
    }

    /**
     * Takes the directory's consumer creation lock: this JVM's lock of the directory, then an exclusive POSIX lock of
     * byte {@value #CONSUMER_CREATION_LOCK} of the file through its one channel (no other descriptor of this JVM can
     * drop it), retried without blocking for at most {@value #CREATION_WAIT_SECONDS} s in all. Not to be nested.
     * Requires this process's {@link #lease} (the channel is writable then).
     *
     * @return the lock, to close in the thread that took it
     * @throws IllegalStateException naming the holder (another thread of this JVM, or the pid the kernel reports) if
     *                               the lock is not free within {@value #CREATION_WAIT_SECONDS} s, or if no lease is
     *                               held
     * @throws UncheckedIOException  if the lock cannot be taken
     */
    public CreationLock lockConsumerCreation() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CREATION_WAIT_SECONDS);
        try {
            if (!creation.tryLock(CREATION_WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("cannot create a consumer slot in " + dir + ": another thread of this"
                        + " process has been creating one for more than " + CREATION_WAIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to create a consumer slot in " + dir, e);
        }
        try {
            long pause = TimeUnit.MICROSECONDS.toNanos(50);
            while (!tryCreationLock()) {
                if (System.nanoTime() - deadline > 0) {
                    FileLocks.Holder holder;
                    synchronized (this) {
                        holder = probe == null ? null : probe.holderIfKnown(CONSUMER_CREATION_LOCK, 1);
                    }
                    throw new IllegalStateException("cannot create a consumer slot in " + dir + ": byte "
                            + CONSUMER_CREATION_LOCK + " of " + file + ", locked while a process creates one"
                            + " (microseconds), has been held for more than " + CREATION_WAIT_SECONDS + " s: "
                            + (holder != null ? holder.describe() : "held by another process") + "; a creator stopped"
                            + " (SIGSTOP, a debugger) or a program that is not Blit holds it: resume or end it");
                }
                LockSupport.parkNanos(pause);
                pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(10));
            }
        } catch (RuntimeException | Error e) {
            creation.unlock();
            throw e;
        }
        return this::releaseCreationLock;
    }

    private void releaseCreationLock() {
        try {
            synchronized (this) {
                if (creationLock != null) {
                    creationLock.release();
                }
                creationLock = null;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot release the consumer creation lock of " + file, e);
        } finally {
            creation.unlock();
        }
    }

    /** One non-blocking try of the creation byte's exclusive lock, under the JVM lock. */
    private synchronized boolean tryCreationLock() {
        if (leasedId == 0 || channel == null || !channelWritable) {
            throw new IllegalStateException("cannot create a consumer slot in " + dir + " without a writer id");
        }
        try {
            creationLock = channel.tryLock(CONSUMER_CREATION_LOCK, 1, false);
            return creationLock != null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock byte " + CONSUMER_CREATION_LOCK + " of " + file, e);
        }
    }

    /** Whether id {@code next} comes after {@code stored} in the ids' cyclic order (less than half a cycle ahead). */
    private static boolean ahead(long next, long stored) {
        long distance = (next - stored) & MAX_ID;
        return distance != 0 && distance < (MAX_ID + 1) / 2;
    }

    /**
     * The owner tag of a temporary file this process creates in {@code dir} (a segment or positions file being
     * created): {@code w<writer id>} if this JVM holds a writer id there, else its pid (a tool that creates files
     * without writing records). {@link #temporaryOwnerAlive} judges it.
     */
    public static String temporaryTag(Path dir) {
        WriterRegistry registry;
        try {
            Path key = dir.toRealPath();
            synchronized (OPEN) {
                registry = OPEN.get(key);
            }
        } catch (IOException e) {
            registry = null;
        }
        if (registry != null) {
            synchronized (registry) {
                if (registry.leasedId != 0) {
                    return "w" + registry.leasedId;
                }
            }
        }
        return Long.toString(ProcessHandle.current().pid());
    }

    /**
     * Whether the creator of a temporary file in {@code dir} with owner tag {@code tag} ({@link #temporaryTag}) may
     * still be writing it: a writer id's liveness, or, for a pid, a process of that pid in this pid namespace.
     */
    public static boolean temporaryOwnerAlive(Path dir, String tag) {
        if (tag.startsWith("w")) {
            WriterRegistry registry = acquire(dir);
            try {
                return registry.isAlive(Long.parseLong(tag.substring(1)));
            } finally {
                registry.release();
            }
        }
        return ProcessHandle.of(Long.parseLong(tag)).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * Whether writer {@code id} is alive: this process's, or its byte locked exclusively by another process. Makes one
     * system call (the kernel asked, {@link FileLocks}) or two (a probe lock and its release) unless the id is this
     * process's: call it when a claim has stayed unchanged for a while, not per record.
     *
     * @throws UncheckedIOException if the file exists but cannot be opened or probed
     */
    public synchronized boolean isAlive(long id) {
        if (id == 0 || id > MAX_ID) {
            return false; // never handed out
        }
        if (id == leasedId) {
            return true;
        }
        try {
            FileChannel ch = channel(false, false);
            if (ch == null) {
                return false; // no writer ever took an id here
            }
            if (probe.authoritative()) { // ask the kernel: no lock is taken, not even for a moment
                FileLocks.Holder holder = probe.holder(LOCK_BASE + id, 1);
                return holder != null && holder.exclusive();
            }
            FileLock probeLock;
            try {
                probeLock = ch.tryLock(LOCK_BASE + id, 1, true);
            } catch (OverlappingFileLockException ownLock) {
                return true; // held in this JVM (under this monitor only the lease's lock can be)
            }
            if (probeLock == null) {
                return true; // an exclusive lock: a writer's (readers' shared locks do not refuse a shared one)
            }
            probeLock.release();
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot probe writer " + id + " in " + file, e);
        }
    }

    /** {@return the pid its info entry records for writer {@code id} (in the writer's pid namespace), or 0 if unknown} */
    public synchronized long pidOf(long id) {
        try {
            FileChannel ch = channel(false, false);
            if (ch == null || id <= 0 || id > MAX_ID) {
                return 0;
            }
            ByteBuffer info = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            long at = INFO_OFFSET + (id % INFO_ENTRIES) * INFO_LENGTH;
            while (info.hasRemaining() && ch.read(info, at + info.position()) > 0) {
                // read the id and pid
            }
            return !info.hasRemaining() && info.getLong(0) == id ? info.getLong(8) : 0;
        } catch (IOException | IllegalStateException e) {
            return 0; // for messages only: unreadable, or a link never followed
        }
    }

    /**
     * {@return a description of writer {@code id} for messages: "writer 17 (pid 4242)", with the pid its info entry
     * records if that entry is still the id's, else "writer 17"} Reads the file; never decides liveness.
     */
    public synchronized String describe(long id) {
        long pid = pidOf(id);
        return "writer " + id + (pid != 0 ? " (pid " + pid + ")" : "");
    }

    /**
     * The channel, opened (writable if asked: reopened so if it was opened read-only and no lease is held), never
     * through a symbolic link.
     *
     * @throws IllegalStateException if the file is a symbolic link
     */
    private FileChannel channel(boolean writable, boolean ownerOnly) throws IOException {
        if (channel != null && (channelWritable || !writable)) {
            return channel;
        }
        if (channel != null) {
            closeChannel(); // read-only so far, so no lock of this JVM is lost
        }
        FileModes.requireNoLink(file);
        if (writable) {
            channel = FileModes.open(file, ownerOnly, Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.CREATE, LinkOption.NOFOLLOW_LINKS)); // a link planted since: ELOOP
        } else {
            try {
                channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException absent) {
                return null;
            }
        }
        probe = FileLocks.probe(file);
        channelWritable = writable;
        return channel;
    }

    private void closeChannel() {
        leasedId = 0; // its lock is released by closing the channel
        if (probe != null) {
            probe.close(); // drops this process's locks of the file, as closing the channel does next
            probe = null;
        }
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing held is left to release: the kernel drops the locks with the descriptor
            }
            channel = null;
        }
    }

    /** Reads the header (written first if the file is new) and returns the next id; under the counter lock. */
    private long readOrInitHeader(FileChannel ch) throws IOException {
        if (ch.size() < HEADER_LENGTH) {
            ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN)
                    .put(MAGIC).putInt(FORMAT_VERSION).putInt(FileFeatures.NATIVE_ORDER).putLong(1)
                    .putLong(FileFeatures.COMPATIBLE_WRITTEN).putLong(FileFeatures.INCOMPATIBLE_WRITTEN)
                    .position(HEADER_LENGTH).flip();
            writeFully(ch, header, 0);
            return 1;
        }
        ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        while (header.hasRemaining() && ch.read(header, header.position()) > 0) {
            // read the whole header
        }
        header.flip();
        for (int i = 0; i < MAGIC.length; i++) {
            if (header.get(i) != MAGIC[i]) {
                throw QueueErrors.badWriterRegistry(file, i, "bad magic, not \"BLITWRT\\0\"");
            }
        }
        int version = header.getInt(8);
        if (version != FORMAT_VERSION) {
            throw QueueErrors.badWriterRegistry(file, 8, "format version " + version + ", this build understands "
                    + FORMAT_VERSION);
        }
        String order = FileFeatures.byteOrderProblem(header.getInt(BYTE_ORDER_OFFSET));
        if (order != null) {
            throw QueueErrors.badWriterRegistry(file, BYTE_ORDER_OFFSET, order);
        }
        String features = FileFeatures.incompatibleProblem(header.getLong(INCOMPATIBLE_OFFSET));
        if (features != null) {
            throw QueueErrors.badWriterRegistry(file, INCOMPATIBLE_OFFSET, features);
        }
        return header.getLong((int) COUNTER_OFFSET);
    }

    private static long normalise(long id) {
        long n = id & MAX_ID;
        return n == 0 ? 1 : n;
    }

    private static long readLong(FileChannel ch, long at) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        while (bytes.hasRemaining() && ch.read(bytes, at + bytes.position()) > 0) {
            // read the whole word
        }
        return bytes.hasRemaining() ? 0 : bytes.getLong(0);
    }

    private static void writeLong(FileChannel ch, long at, long value) throws IOException {
        writeFully(ch, ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN).putLong(value).flip(), at);
    }

    private static void writeFully(FileChannel ch, ByteBuffer bytes, long at) throws IOException {
        while (bytes.hasRemaining()) {
            at += ch.write(bytes, at);
        }
    }
}
