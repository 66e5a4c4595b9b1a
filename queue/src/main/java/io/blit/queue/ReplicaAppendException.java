package io.blit.queue;

/**
 * Thrown by {@link BlitQueue#appender()} on a replica: only its replication writes it (docs/replication.md).
 * Append on the primary it follows, which its message names. A replica is promoted (stop its replication, then
 * {@code io.blit.queue.replica.QueueTerms.promote}, {@code blit replicate promote}) only when that primary is lost
 * (docs/failover.md): a former primary that rejoins a newer one is a replica too, and promoted it would be a second
 * primary.
 */
public final class ReplicaAppendException extends QueueException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with the message {@code message}.
     *
     * @param message the explanation, naming the replica and its source
     */
    public ReplicaAppendException(String message) {
        super(Category.REFUSED, message);
    }
}
