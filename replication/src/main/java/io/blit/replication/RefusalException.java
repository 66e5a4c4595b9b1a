package io.blit.replication;

/**
 * A handshake was refused: by the source (wrong secret, another queue, another layout, indices it no longer or not
 * yet holds), or by the replica (a reply not signed with the secret). The message says why, naming what differs.
 */
public final class RefusalException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with the message {@code message}.
     *
     * @param message why the handshake was refused, naming what differs
     */
    public RefusalException(String message) {
        super(message);
    }

    /**
     * An exception with the message {@code message}, caused by {@code cause}.
     *
     * @param message why the handshake was refused, naming what differs
     * @param cause   the exception that found it, kept for its stack trace
     */
    public RefusalException(String message, Throwable cause) {
        super(message, cause);
    }
}
