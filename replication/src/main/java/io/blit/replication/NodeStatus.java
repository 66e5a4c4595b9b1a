package io.blit.replication;

import io.blit.queue.replica.QueueTerms;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.UUID;

/**
 * What a queue directory is in replication, read from its files without changing them: the queue's id, its newest
 * term, its end index and its role. An operator (or a script) compares these across the nodes of a queue to pick the
 * replica to promote: the same queue id, the highest term, then the highest end.
 *
 * @param queueId  the queue's id, or null if the queue has none yet (never appended to, served or replicated by a
 *                 build with ids)
 * @param term     the newest term, 0 without a term history
 * @param endIndex the index the next record will have
 * @param role     primary (appenders may write), replica (only replication writes), fenced (a former primary that
 *                 knows of a newer term: appenders are refused), or quarantine (records an old primary set aside
 *                 when it rejoined, or a copy of them: read only)
 */
public record NodeStatus(UUID queueId, long term, long endIndex, Role role) {
    /** A queue directory's role. */
    public enum Role {
        /** Appenders may write it. */
        PRIMARY,
        /** A replica: only its replication writes it; appenders are refused. */
        REPLICA,
        /** A former primary that knows of a newer term: appenders are refused; it should follow the new primary. */
        FENCED,
        /** Records an old primary set aside when it rejoined (or a copy of them): kept to be read, never appended to. */
        QUARANTINE
    }

    /**
     * {@return the status of the queue in {@code dir}} Opens the queue read-only: nothing is created or written.
     *
     * @param dir the queue directory
     *
     * @throws IllegalArgumentException if {@code dir} holds no queue
     * @throws io.blit.queue.QueueCorruptedException if a file of the queue is invalid
     */
    public static NodeStatus of(Path dir) {
        try (var files = Files.list(dir)) {
            if (files.noneMatch(file -> file.getFileName().toString().endsWith(".blitq"))) {
                throw new IllegalArgumentException("no queue in " + dir);
            }
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("no queue directory " + dir + " (" + e.getMessage() + ")", e);
        }
        QueueTerms.Status status = QueueTerms.status(dir);
        return new NodeStatus(status.queueId(), status.term(), status.endIndex(), Role.valueOf(status.role().name()));
    }

    /**
     * {@return the one line {@code replicate status} prints: {@code queue <id> term <t> end <index> role <role>}}
     * The id is the UUID's text, or {@code -} if the queue has none yet; the role in lower case.
     */
    public String line() {
        return "queue " + (queueId == null ? "-" : queueId) + " term " + term + " end " + endIndex + " role "
                + role.name().toLowerCase(Locale.ROOT);
    }
}
