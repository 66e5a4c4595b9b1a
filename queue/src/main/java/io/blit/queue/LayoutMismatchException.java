package io.blit.queue;

/**
 * A queue was opened for a message class whose field layout differs from the layout the queue's files
 * were written with (another class, other fields, or the same class under other JVM flags), or for a
 * message class on a queue of raw bytes. Reading such blocks would give silently wrong values, so the
 * queue refuses. For a layout difference the message is {@link io.blit.layout.LayoutComparison#report()}:
 * one line per differing field.
 */
public final class LayoutMismatchException extends QueueException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with the message {@code message}.
     *
     * @param message the explanation, e.g. a {@code LayoutComparison} report naming the file
     */
    public LayoutMismatchException(String message) {
        super(Category.REFUSED, message);
    }
}
