package io.blit.queue.replica;

import io.blit.queue.internal.sidecar.ConsumerFile;
import io.blit.queue.internal.sidecar.ConsumerSlots;
import io.blit.queue.internal.writer.WriterRegistry;
import java.lang.foreign.Arena;
import java.nio.file.Path;

/**
 * A replica's copy of its source's named consumers: writes the positions its source sends into the replica's own
 * positions file ({@code consumers.blitc}, docs/format.md "The positions file"; created at the first position, all or
 * nothing, as a named consumer creates it), so that a consumer opened on the replica after its promotion resumes
 * where it left off on the old primary.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li><b>Never past what the replica holds.</b> {@link #follow} stores {@code min(committed, next - 1)}, {@code next}
 *       being the replica's next index: a consumer resumes at or before where it left off (at least once), never
 *       after a record the replica does not hold.</li>
 *   <li><b>The source's names are the source's.</b> A name the source sends is set to the source's position, which
 *       may move it backwards (a rejoined old primary takes the new primary's positions), whoever holds it on the
 *       replica: the holder word is left as it is, and a replica's own consumer of the same name sees its commits
 *       overwritten. A name the source never sent is left alone.</li>
 *   <li><b>Bounded and reclaimed.</b> Replication makes a slot READY for a name the replica does not have READY
 *       only while more than {@link #RESERVED_SLOTS} slots are free or reusable (FREE, or REMOVED and held by no live
 *       process): whatever its source sends, the last 64 stay for the replica's own consumers and, after a
 *       promotion, the new primary's. A name the source removes is marked REMOVED here ({@link #remove}), and its
 *       slot is reused for a later name (docs/format.md, "The positions file"), so a source that creates and removes
 *       names without end never fills the file.</li>
 *   <li><b>Ordering.</b> A position is stored as a commit is (an opaque store of the time, then a release store of the
 *       index; a new name's slot is published READY with its index), so a reader of the replica's file sees it as it
 *       sees a local commit.</li>
 * </ul>
 *
 * <p>Not thread-safe: confined to the thread that first calls {@link #follow} or {@link #remove} (the mapping's arena
 * is confined to it); {@link #close()} from that thread too.
 */
public final class ReplicaPositions implements AutoCloseable {
    /**
     * The slots of the positions file replication never takes for a name the replica does not have: a new name is
     * created only while more slots than this are free, so that a source (or a holder of the secret playing one) can
     * never take the slots of consumers opened on the replica, or of the new primary's consumers after its promotion.
     */
    public static final int RESERVED_SLOTS = 64;

    private final Path dir;
    private final boolean privateFiles;
    private final WriterRegistry writers;
    private Arena arena;
    private ConsumerSlots slots;
    private boolean closed;

    private ReplicaPositions(Path dir, boolean privateFiles, WriterRegistry writers) {
        this.dir = dir;
        this.privateFiles = privateFiles;
        this.writers = writers;
    }

    /**
     * {@return the named consumers of the replica in {@code dir}; the positions file is mapped (or created) at the
     * first write}
     *
     * @param privateFiles create the positions file {@code rw-------} if it does not exist
     * @throws java.io.UncheckedIOException if the directory's real path cannot be read
     */
    public static ReplicaPositions open(Path dir, boolean privateFiles) {
        return new ReplicaPositions(dir, privateFiles, WriterRegistry.acquire(dir));
    }

    /**
     * Sets consumer {@code name}'s committed index to {@code committed}, at most {@code next - 1}, and its last commit
     * time; creates the consumer if the replica has none of that name (or revives it if it was removed).
     *
     * @param name             the consumer's name: 1 to 32 characters of {@code [A-Za-z0-9._-]}
     * @param committed        the index the source's consumer committed, >= -1
     * @param lastCommitMillis when it committed, epoch milliseconds (0: never)
     * @param next             the replica's next index: it holds every index below it (-1 or 0: none)
     * @return the index stored
     * @throws IllegalArgumentException      if {@code name} is not a consumer name or {@code committed} is below -1
     * @throws IllegalStateException         if the name is not READY on the replica and no more than
     *                                       {@link #RESERVED_SLOTS} slots of the file are free or reusable, or closed:
     *                                       nothing is stored
     * @throws io.blit.queue.QueueCorruptedException if the replica's positions file is invalid
     * @throws java.io.UncheckedIOException  if it cannot be created or mapped
     */
    public long follow(String name, long committed, long lastCommitMillis, long next) {
        byte[] bytes = ConsumerSlots.encodeName(name);
        if (committed < -1) {
            throw new IllegalArgumentException("committed index " + committed + " of consumer " + name
                    + " is below -1");
        }
        long stored = Math.max(-1, Math.min(committed, next - 1));
        ConsumerSlots mapped = slots(true);
        int slot = mapped.find(bytes);
        if (slot < 0) {
            slot = mapped.findOrCreate(bytes, stored, writers.lease(privateFiles), RESERVED_SLOTS);
            if (slot < 0) {
                throw new IllegalStateException("replica " + dir + " does not create consumer " + name + ": its"
                        + " positions file " + mapped.file() + " has " + mapped.reusableSlots() + " slots free or"
                        + " reusable, and the last " + RESERVED_SLOTS + " are kept for consumers opened on the"
                        + " replica (remove consumers no longer used on the primary)");
            }
        }
        if (mapped.committed(slot) != stored || mapped.lastCommitMillis(slot) != lastCommitMillis) {
            mapped.commit(slot, stored, lastCommitMillis);
        }
        return stored;
    }

    /**
     * Removes consumer {@code name} as its source did: its slot is marked REMOVED (it keeps its name), whoever holds it.
     *
     * @return false if the replica has no such consumer
     * @throws IllegalArgumentException if {@code name} is not a consumer name
     * @throws IllegalStateException    if closed
     * @throws io.blit.queue.QueueCorruptedException if the replica's positions file is invalid
     */
    public boolean remove(String name) {
        byte[] bytes = ConsumerSlots.encodeName(name);
        ConsumerSlots mapped = slots(false);
        if (mapped == null) {
            return false;
        }
        int slot = mapped.find(bytes);
        return slot >= 0 && mapped.markRemoved(slot, bytes);
    }

    /** The mapped positions file, mapped (and, with {@code create}, created) now if it was not; null if absent. */
    private ConsumerSlots slots(boolean create) {
        if (closed) {
            throw new IllegalStateException("the positions of replica " + dir + " are closed");
        }
        if (slots != null) {
            return slots;
        }
        Arena mapping = Arena.ofConfined();
        try {
            ConsumerSlots found = create ? ConsumerFile.mapOrCreate(dir, privateFiles, mapping, writers)
                    : ConsumerFile.mapExisting(dir, mapping, writers);
            if (found == null) {
                mapping.close();
                return null;
            }
            found.upgrade();
            arena = mapping;
            slots = found;
            return found;
        } catch (RuntimeException | Error e) {
            mapping.close();
            throw e;
        }
    }

    /** Unmaps the file and gives back the directory's writer registry. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (arena != null) {
                arena.close();
            }
        } finally {
            arena = null;
            slots = null;
            writers.release();
        }
    }
}
