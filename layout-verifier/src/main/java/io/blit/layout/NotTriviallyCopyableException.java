package io.blit.layout;

/**
 * Thrown when a class cannot be copied as one field block. The message names the class and, where a
 * field is at fault, the field, its type and its offset.
 */
public final class NotTriviallyCopyableException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The class that was rejected. */
    private final Class<?> type;

    /**
     * An exception for a rejected class.
     *
     * @param type    the rejected class
     * @param message the reason, naming class, field, type and offset where they apply
     */
    public NotTriviallyCopyableException(Class<?> type, String message) {
        super(message);
        this.type = type;
    }

    /** {@return the class that was rejected} */
    public Class<?> type() {
        return type;
    }
}
