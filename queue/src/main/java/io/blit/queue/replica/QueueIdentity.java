package io.blit.queue.replica;

import io.blit.queue.TermHistory;
import io.blit.queue.internal.sidecar.ReplicaMarker;
import io.blit.queue.internal.sidecar.TermHistoryFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * A queue's identity, the id in its term history ({@code terms.blitt}, docs/format.md "The term history"): created
 * once with the queue (the first source to serve it creates it if the queue was written by a build without ids) and
 * kept by every replica, which takes it from its source. Replication binds it into every handshake, so that a
 * replica follows only the queue it holds.
 *
 * <p>Stateless; thread-safe. Creation is atomic among processes (the first creator's id stands).
 */
public final class QueueIdentity {
    private QueueIdentity() {
    }

    /**
     * {@return the id of the queue in {@code dir}, created (with term 0 from index 0) if the queue has none yet; for a
     * replica's directory, the id it took from its source, or null if it has taken none yet (it never invents one)}
     * The file is owner-only if the directory is.
     *
     * @throws io.blit.queue.QueueCorruptedException if the directory's term history is invalid
     * @throws UncheckedIOException if it cannot be read or created
     */
    public static UUID ofSource(Path dir) {
        if (ReplicaMarker.sourceOf(dir) != null) {
            return ofReplica(dir);
        }
        String tag = ProcessHandle.current().pid() + "-" + Thread.currentThread().threadId();
        return TermHistoryFile.createIfAbsent(dir, TermHistory.createNew(), ownerOnly(dir), tag).queueId();
    }

    /**
     * {@return the id of the queue a replica in {@code dir} holds, or null if it holds none yet}
     *
     * @throws io.blit.queue.QueueCorruptedException if the directory's term history is invalid
     * @throws UncheckedIOException if it cannot be read
     */
    public static UUID ofReplica(Path dir) {
        TermHistory history = TermHistoryFile.read(dir);
        return history == null ? null : history.queueId();
    }

    /**
     * {@return the term history of the queue in {@code dir}, or null if it has none yet} (a replica that never
     * followed, or a queue written before queues had ids and not yet served or appended to).
     *
     * @throws io.blit.queue.QueueCorruptedException if the directory's term history is invalid
     * @throws UncheckedIOException if it cannot be read
     */
    public static TermHistory history(Path dir) {
        return TermHistoryFile.read(dir);
    }

    /**
     * Records that the replica in {@code dir} follows a source of queue {@code queueId} whose newest terms are {@code
     * sourceTerms} (oldest first): its history becomes its own terms older than those, then those
     * ({@link TermHistory#followedBy}); a replica without a history takes them as its history. Written crash-safely
     * (a new file renamed over the old); nothing written if the history does not change. Call only while holding
     * the directory's {@link ReplicaLock}.
     *
     * @return the replica's history now
     * @throws IllegalStateException    if it holds another queue's id
     * @throws IllegalArgumentException if the terms do not continue its history validly
     * @throws UncheckedIOException     if it cannot be read or written
     */
    public static TermHistory follow(Path dir, UUID queueId, List<TermHistory.Term> sourceTerms) {
        TermHistory held = TermHistoryFile.read(dir);
        if (held != null && !held.queueId().equals(queueId)) {
            throw new IllegalStateException("the replica in " + dir + " holds queue " + held.queueId() + ", not "
                    + queueId);
        }
        TermHistory next = held == null ? new TermHistory(queueId, sourceTerms) : held.followedBy(sourceTerms);
        if (!next.equals(held)) {
            String tag = ProcessHandle.current().pid() + "-" + Thread.currentThread().threadId();
            TermHistoryFile.write(dir, next, ownerOnly(dir), tag);
        }
        return next;
    }

    /**
     * {@return the number of the newest term of the queue in {@code dir}, 0 if it has no term history yet}
     *
     * @throws io.blit.queue.QueueCorruptedException if the directory's term history is invalid
     * @throws UncheckedIOException if it cannot be read
     */
    public static long currentTerm(Path dir) {
        TermHistory history = TermHistoryFile.read(dir);
        return history == null ? 0 : history.currentTerm();
    }

    /** {@return whether the directory is a replica's (it has a {@code replica-of} marker): only replication writes it} */
    public static boolean isReplica(Path dir) {
        return ReplicaMarker.sourceOf(dir) != null;
    }

    /** Whether {@code dir} is its owner's only: what it creates is then {@code rw-------} too. */
    static boolean ownerOnly(Path dir) {
        try {
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
            return permissions.stream().noneMatch(p -> p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the permissions of " + dir + ": " + e.getMessage(), e);
        } catch (UnsupportedOperationException notPosix) {
            return false;
        }
    }
}
