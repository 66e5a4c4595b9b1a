package io.blit.queue.replica;

/**
 * Thrown by {@link ReplicaWriter} for a well-formed event that does not continue what the replica holds: another index
 * or position than its next, a file that does not fit or whose header differs from the one the replica holds under
 * that name, an event before the first file. The replica and its source have diverged (or the source is another
 * queue); nothing was written.
 */
public final class ReplicaDivergedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with the message {@code message}.
     *
     * @param message how the event differs from what the replica holds, naming the replica
     */
    public ReplicaDivergedException(String message) {
        super(message);
    }
}
