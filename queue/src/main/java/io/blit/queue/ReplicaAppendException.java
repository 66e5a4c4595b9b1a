package io.blit.queue;

/**
 * Thrown by {@link BlitQueue#appender()} on a replica: only its replication writes it (docs/replication.md).
 * Append on the source; to turn a replica into a queue of its own, stop its replication and delete the
 * {@code replica-of} file in its directory.
 */
public final class ReplicaAppendException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with the message {@code message}.
     *
     * @param message the explanation, naming the replica and its source
     */
    public ReplicaAppendException(String message) {
        super(message);
    }
}
