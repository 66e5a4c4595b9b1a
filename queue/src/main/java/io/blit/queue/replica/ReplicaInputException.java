package io.blit.queue.replica;

/**
 * Thrown by {@link ReplicaWriter} for an event no valid queue holds: a file header that does not decode, a record word
 * that is not final or states a length its bytes do not have, a run whose words do not fill it. The bytes come from
 * the replica's source over the network: nothing was written, and the session that sent them is to be ended.
 */
public final class ReplicaInputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with the message {@code message}.
     *
     * @param message what is invalid in the event
     */
    public ReplicaInputException(String message) {
        super(message);
    }

    /**
     * An exception with the message {@code message} and the cause {@code cause}.
     *
     * @param message what is invalid in the event
     * @param cause   the exception that found the input invalid, e.g. a header that does not decode
     */
    public ReplicaInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
