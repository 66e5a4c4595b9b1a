package io.blit.replication;

import io.blit.queue.Quarantined;
import io.blit.queue.replica.Quarantine;
import io.blit.queue.replica.QueueIdentity;
import io.blit.queue.replica.QueueTerms;
import io.blit.queue.replica.ReplicaDamage;
import io.blit.queue.replica.ReplicaPositions;
import io.blit.queue.replica.ReplicaWriter;
import io.blit.replication.wire.Positions;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.agrona.DirectBuffer;

/**
 * What a {@link Replica} keeps in its directory: the writer it appends its source's runs with, the source's named
 * consumers' positions, and the tails it set aside into quarantine queues. The replica's session logic decides; this
 * class writes.
 *
 * <p>Not thread-safe: the replica's thread alone calls it, but {@link #quarantined()}, which any thread may read.
 */
final class ReplicaStore implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.blit.replication");

    private final Path dir;
    /** The replica-of marker's text: the source as the replica names it. */
    private final String sourceMarker;
    private final boolean privateFiles;
    private final ReplicaPositions positions;
    /** The tails set aside ({@link #setAside}); written by the replica's thread, read by any. */
    private final List<Quarantined> quarantined = new CopyOnWriteArrayList<>();
    private ReplicaWriter writer;
    /** Whether a failure to store positions was logged: once, until positions are stored again. */
    private boolean positionsFailed;

    private ReplicaStore(Path dir, String sourceMarker, boolean privateFiles, ReplicaWriter writer,
            ReplicaPositions positions) {
        this.dir = dir;
        this.sourceMarker = sourceMarker;
        this.privateFiles = privateFiles;
        this.writer = writer;
        this.positions = positions;
    }

    /**
     * {@return the store of replica directory {@code dir}: its writer and its positions file opened}
     *
     * @param dir          the replica's directory (its lock held by the caller)
     * @param sourceMarker the text of its replica-of marker
     * @param privateFiles whether files it creates are readable by their owner only
     * @throws RuntimeException as {@link ReplicaWriter#open} and {@link ReplicaPositions#open} throw; nothing is left
     *                          open then
     */
    static ReplicaStore open(Path dir, String sourceMarker, boolean privateFiles) {
        ReplicaWriter writer = ReplicaWriter.open(dir, sourceMarker, privateFiles);
        try {
            return new ReplicaStore(dir, sourceMarker, privateFiles, writer, ReplicaPositions.open(dir, privateFiles));
        } catch (RuntimeException | Error e) {
            writer.close();
            throw e;
        }
    }

    /**
     * With {@link ReplicaOptions#rejoin()}, makes a primary (a queue with an id and no {@code replica-of} marker) a
     * replica ({@link QueueTerms#demote}: its open appenders stop), before its lock is taken; without it, the lock
     * refuses such a directory.
     */
    static void demoteIfRejoining(Path dir, ReplicaOptions options) {
        if (options.rejoin() && java.nio.file.Files.isDirectory(dir) && !QueueIdentity.isReplica(dir)
                && QueueIdentity.history(dir) != null && QueueTerms.demote(dir, "aeron " + options.source(),
                options.privateFiles())) {
            LOG.log(System.Logger.Level.WARNING, "queue " + dir + " rejoins as a replica of " + options.source()
                    + ": its appenders stop; records the source does not hold are set aside");
        }
    }

    /**
     * With {@link ReplicaOptions#verifyOnStart()}, verifies the replica's files and cuts it back to before its first
     * damaged record ({@link ReplicaDamage#setAside}), so that its session takes the rest again; after its lock is
     * taken, before its writer opens.
     */
    static void setAsideDamageIfVerifying(Path dir, ReplicaOptions options) {
        if (options.verifyOnStart()) {
            ReplicaDamage.setAside(dir).ifPresent(set -> LOG.log(System.Logger.Level.WARNING, "replica " + dir
                    + ": damaged from index " + set.from() + ", its files kept in " + set.kept()
                    + "; taking the records from " + set.from() + " again from " + options.source()));
        }
    }

    /** {@return the writer of the replica's records: the one open now (a quarantine reopens it)} */
    ReplicaWriter writer() {
        return writer;
    }

    /**
     * Moves the replica's records from {@code start} on, which its source's history does not hold (it was the primary
     * of an older term, or followed one), into a quarantine queue inside its directory ({@link Quarantine}), and
     * reopens its writer at {@code start}. Nothing is deleted. The tail is not listed in {@link #quarantined()} until
     * the caller {@linkplain #publish publishes} it, so that it can first publish what the replica holds after it.
     *
     * @param start the first index to set aside, within what the replica holds
     * @return the tail set aside, or empty if there was nothing from {@code start} on
     * @throws io.blit.queue.QueueCorruptedException if the quarantine's state in the directory is damaged
     * @throws IllegalStateException if the writer does not end at {@code start} afterwards
     */
    Optional<Quarantined> setAside(long start) {
        writer.close();
        Optional<Quarantined> moved = Quarantine.moveFrom(dir, start);
        writer = ReplicaWriter.open(dir, sourceMarker, privateFiles);
        if (writer.nextIndex() != start) {
            throw new IllegalStateException("replica " + dir + " holds up to index " + (writer.nextIndex() - 1)
                    + " after setting aside its records from index " + start);
        }
        return moved;
    }

    /**
     * Lists a tail {@link #setAside} moved in {@link #quarantined()} and logs it.
     *
     * @param tail   the tail set aside
     * @param source the source as logged
     */
    void publish(Quarantined tail, String source) {
        quarantined.add(tail);
        LOG.log(System.Logger.Level.WARNING, "replica " + dir + ": quarantined " + (tail.end() - tail.from())
                + " records, " + tail.from() + " to " + (tail.end() - 1) + ", into " + tail.directory()
                + ": its source " + source + " does not hold them");
    }

    /** {@return the tails set aside since the store opened, oldest first} Any thread. */
    List<Quarantined> quarantined() {
        return List.copyOf(quarantined);
    }

    /**
     * Stores the positions of a checked POSITIONS message, none past what the replica holds. A failure to store them
     * (no free slot for a new name beyond the reserved ones, a full disk) is logged, once until they are stored again,
     * and stops nothing: the records come first; a new name without a slot does not keep the others from being
     * stored.
     *
     * @param message a POSITIONS message that {@link Positions#check} accepted
     * @param length  its length, as logged
     */
    void storePositions(DirectBuffer message, int length) {
        try {
            IllegalStateException refused = null;
            for (int i = 0, count = Positions.count(message); i < count; i++) {
                String name = Positions.name(message, i);
                if (Positions.state(message, i) == Positions.REMOVED) {
                    positions.remove(name);
                } else {
                    try {
                        positions.follow(name, Positions.committed(message, i), Positions.lastCommitMillis(message, i),
                                writer.nextIndex());
                    } catch (IllegalStateException full) { // no slot for this new name: the names it has go on
                        refused = full;
                    }
                }
            }
            if (refused != null) {
                throw refused;
            }
            positionsFailed = false;
        } catch (RuntimeException e) {
            if (!positionsFailed) {
                positionsFailed = true;
                LOG.log(System.Logger.Level.WARNING, "replica " + dir + " cannot store its source's consumer positions"
                        + " (" + length + " bytes of them); the records go on", e);
            }
        }
    }

    /** Closes the writer open now and the positions file. */
    @Override
    public void close() {
        try {
            writer.close();
        } finally {
            positions.close();
        }
    }
}
