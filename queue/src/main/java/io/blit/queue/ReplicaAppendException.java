package io.blit.queue;

/**
 * Thrown by {@link BlitQueue#appender()} on a replica: only its replication writes it (docs/replication.md).
 * Append on the source; to make a replica the primary, stop its replication and promote it
 * ({@code io.blit.queue.replica.QueueTerms.promote}, {@code blit replicate promote}; docs/failover.md).
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
