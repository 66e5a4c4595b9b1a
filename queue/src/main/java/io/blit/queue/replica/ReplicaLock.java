package io.blit.queue.replica;

import io.blit.queue.internal.file.FileLocks;
import io.blit.queue.internal.file.FileModes;
import io.blit.queue.internal.sidecar.ReplicaIdentity;
import io.blit.queue.internal.sidecar.ReplicaMarker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * The one follower of a replica directory, and the replica's identity. While it is held, no other {@code ReplicaLock}
 * of the directory can be taken, in this process or any other: a second follower of one directory would count one
 * copy twice at its source, and two writers of one replica would corrupt it.
 *
 * <p><b>How.</b> An exclusive POSIX record lock ({@link FileChannel#tryLock()}) of the whole file {@code replica.lock}
 * in the directory, whose text is the holder's pid (for messages only: the lock decides, never the pid). The kernel
 * releases the lock when the holder's process dies, however it dies. Nothing waits for it: a held lock is refused at
 * once, naming the process that holds it as the kernel reports it ({@link FileLocks}), not the pid the file's text
 * names (any process that can read the file can hold a shared lock of it: such a holder is named as a reader, not as a
 * follower); where the holder cannot be learnt the refusal says so, and gives the file's pid as the last follower's. POSIX locks belong to the process and
 * closing <em>any</em> descriptor of the file drops them, so a JVM opens the file only while it holds no lock of that
 * directory (a set of the directories locked in this JVM, by real path, is checked first) and never otherwise: nothing
 * else may open {@code replica.lock} in a process that follows the directory. On NFS the lock goes through the NFS
 * lock manager, and a crashed holder's lock lasts until its lease expires (docs/format.md, "Writer liveness").
 *
 * <p><b>Identity.</b> {@link #replicaId()} is read from the directory's {@code replica-id}, created under the lock
 * the first time ({@code ReplicaIdentity}): the same for every follower of the directory, across restarts.
 *
 * <p>Thread-safe. {@link #close()} is idempotent.
 */
public final class ReplicaLock implements AutoCloseable {
    /** The lock file's name in the replica directory. */
    public static final String NAME = "replica.lock";

    /** The directories locked in this JVM, by real path; guarded by itself. */
    private static final Set<Path> HELD = new HashSet<>();

    private final Path key;
    private final FileChannel channel;
    private final long replicaId;
    private boolean closed;

    private ReplicaLock(Path key, FileChannel channel, long replicaId) {
        this.key = key;
        this.channel = channel;
        this.replicaId = replicaId;
    }

    /**
     * Takes the lock of the replica in {@code dir} (created if missing, {@code rwx------} with {@code privateFiles}),
     * and reads or creates its identity.
     *
     * @param dir          the replica's queue directory: empty, missing or a replica already
     * @param privateFiles create the directory, the lock and the identity owner-only ({@link FileModes})
     * @return the held lock
     * @throws IllegalStateException   naming the directory and, if it can, the holder's pid, if another follower holds
     *                                 it; if {@code dir} holds a queue that is not a replica; if a file is a symbolic
     *                                 link
     * @throws io.blit.queue.QueueCorruptedException if the identity file is invalid
     * @throws UncheckedIOException    if the file system fails
     */
    public static ReplicaLock acquire(Path dir, boolean privateFiles) {
        return acquire(dir, privateFiles, "stop that one first, or follow into another directory");
    }

    /**
     * As {@link #acquire(Path, boolean)}, refusing a held lock with {@code advice} after the holder's pid.
     */
    static ReplicaLock acquire(Path dir, boolean privateFiles, String advice) {
        Objects.requireNonNull(dir, "dir");
        Path key;
        try {
            FileModes.createDirectories(dir, privateFiles);
            key = dir.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create replica directory " + dir, e);
        }
        ReplicaWriter.requireReplicaOrEmpty(dir);
        synchronized (HELD) {
            if (!HELD.add(key)) {
                throw heldBy(dir, ProcessHandle.current().pid() + ", this process", advice);
            }
        }
        FileChannel channel = null;
        try {
            Path file = dir.resolve(NAME);
            ReplicaMarker.requireNoLink(file, "replica " + dir);
            channel = FileModes.open(file, privateFiles, Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS));
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw refusal(dir, file, channel, advice);
            }
            channel.truncate(0);
            channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)),
                    0);
            return new ReplicaLock(key, channel, ReplicaIdentity.readOrCreate(dir, privateFiles));
        } catch (IOException e) {
            release(key, channel);
            throw new UncheckedIOException("cannot lock replica " + dir, e);
        } catch (RuntimeException | Error e) {
            release(key, channel);
            throw e;
        }
    }

    /** Undoes a refused acquire: only now, since this JVM held no lock of the file, closing it drops nobody's. */
    private static void release(Path key, FileChannel channel) {
        closeQuietly(channel);
        synchronized (HELD) {
            HELD.remove(key);
        }
    }

    /** {@return the replica's identity: a non-zero u64, the same for the directory across restarts} */
    public long replicaId() {
        return replicaId;
    }

    /** Releases the lock: another follower may take the directory. */
    @Override
    public void close() {
        synchronized (HELD) {
            if (closed) {
                return;
            }
            closed = true;
            closeQuietly(channel); // closing the one descriptor releases the lock
            HELD.remove(key);
        }
    }

    private static IllegalStateException heldBy(Path dir, String holder, String advice) {
        return new IllegalStateException("replica " + dir + " is followed already (by pid " + holder + "): one follower"
                + " per directory; " + advice);
    }

    /**
     * The refusal of a lock another process holds: a follower (an exclusive lock), named by the pid the kernel
     * reports; or readers only (shared locks, which no follower takes), named as such. Called holding no lock of the
     * file (so that the probe's descriptor may be closed).
     */
    private static IllegalStateException refusal(Path dir, Path file, FileChannel channel, String advice)
            throws IOException {
        boolean readersOnly;
        FileLock shared = channel.tryLock(0, Long.MAX_VALUE, true);
        readersOnly = shared != null; // granted: no exclusive lock is held, only shared ones refused ours
        if (shared != null) {
            shared.release();
        }
        FileLocks.Holder holder;
        try (FileLocks.Probe probe = FileLocks.probe(file)) {
            holder = probe.holderIfKnown(0, 0);
        }
        if (readersOnly) {
            return new IllegalStateException("replica " + dir + " cannot be locked: " + file + " is locked shared"
                    + " by " + (holder != null ? holder.who() : "another process") + ", which no follower of Blit does"
                    + " (a follower locks it exclusively): a process that can read the file is holding it; end it, or"
                    + " keep the replica's files private (--private, privateFiles) so that other users cannot open it");
        }
        if (holder != null && holder.pid() > 0) {
            return heldBy(dir, Long.toString(holder.pid()), advice);
        }
        String written = writtenPid(channel);
        return new IllegalStateException("replica " + dir + " is followed already, by " + (holder != null
                ? holder.who() : "a process this one cannot name (lslocks or /proc/locks may)")
                + (written != null ? "; its last follower wrote pid " + written + " in " + file : "")
                + ": one follower per directory; " + advice);
    }

    /** The pid the last holder wrote, as text of digits only (the file is another process's), or null. */
    private static String writtenPid(FileChannel channel) throws IOException {
        ByteBuffer text = ByteBuffer.allocate(24);
        channel.read(text, 0);
        String pid = new String(text.array(), 0, text.position(), StandardCharsets.US_ASCII).strip();
        return pid.matches("[0-9]{1,19}") ? pid : null;
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing releases the lock whatever close reports
            }
        }
    }
}
