package io.blit.queue.internal.violation;

/** Fixture violating the exception family: an engine exception that is an IllegalStateException but no QueueException. */
public final class EngineDeclaresItsOwnException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public EngineDeclaresItsOwnException(String message) {
        super(message);
    }
}
