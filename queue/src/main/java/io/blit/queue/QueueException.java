package io.blit.queue;

/**
 * The queue's exceptions, one family that callers can catch as a whole or by {@link #category()}: every exception the
 * queue throws for the state of a queue directory (a damaged file, a fence, a held consumer, a refused operation,
 * deleted messages) is one of its subclasses. Each names the directory or file and what to do; the subclasses add
 * what a caller needs to act (the file and offset of a damage, the terms of a fence, the holder of a consumer).
 *
 * <p>The family extends {@link IllegalStateException}, as each of its members did before it existed, so existing
 * {@code catch (IllegalStateException e)} clauses keep working. Arguments that are wrong whatever the directory holds
 * stay {@link IllegalArgumentException}s; I/O failures stay {@link java.io.UncheckedIOException}s.
 *
 * <p>Immutable; thread-safe.
 */
public abstract sealed class QueueException extends IllegalStateException permits ConsumerHeldException,
        LayoutMismatchException, MessagesDeletedException, QueueCorruptedException, QueueFencedException,
        ReplicaAppendException {
    private static final long serialVersionUID = 1L;

    /** What kind of refusal an exception of the family is: a caller's switch over it is exhaustive. */
    public enum Category {
        /** A file's bytes are not what the format allows: {@link QueueCorruptedException}. */
        CORRUPT,
        /** A newer term began elsewhere; this directory takes no appends: {@link QueueFencedException}. */
        FENCED,
        /** Another live process holds what the call needs: {@link ConsumerHeldException}. */
        HELD,
        /**
         * The directory's state refuses the call: another layout than the files hold
         * ({@link LayoutMismatchException}), an append to a replica ({@link ReplicaAppendException}).
         */
        REFUSED,
        /** The messages asked for were deleted by retention: {@link MessagesDeletedException}. */
        DELETED
    }

    /** What kind of refusal this is. */
    private final Category category;

    QueueException(Category category, String message) {
        super(message);
        this.category = category;
    }

    QueueException(Category category, String message, Throwable cause) {
        super(message, cause);
        this.category = category;
    }

    /** {@return what kind of refusal this is} */
    public final Category category() {
        return category;
    }
}
