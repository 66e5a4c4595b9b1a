package io.blit.queue;

import java.nio.file.Path;

/**
 * Thrown by an {@link Appender} (at {@link BlitQueue#appender()} and at every append) when its queue directory knows
 * of a newer term than the one the appender writes in: another copy of the queue was promoted to primary, and this
 * one is fenced (docs/failover.md, "Fencing"). Nothing was appended. The queue takes no more appends here; append on
 * the new primary, and start this node as a replica of it.
 *
 * <p>Immutable; thread-safe.
 */
public final class QueueFencedException extends QueueException {
    private static final long serialVersionUID = 1L;

    /** The term the refused appender writes in. */
    private final long term;
    /** The newer term the queue directory knows of. */
    private final long newTerm;

    /**
     * An exception naming the queue directory and both terms.
     *
     * @param dir     the fenced queue's directory
     * @param term    the term the appender writes in
     * @param newTerm the term the directory knows of, above {@code term}
     */
    public QueueFencedException(Path dir, long term, long newTerm) {
        super(Category.FENCED, "queue " + dir + " is fenced: its appenders write in term " + term + ", and term " + newTerm
                + " has begun on a new primary; nothing was appended: follow the new primary (append there, and"
                + " start this node as its replica with replicate follow --rejoin)");
        this.term = term;
        this.newTerm = newTerm;
    }

    /** {@return the term the refused appender writes in} */
    public long term() {
        return term;
    }

    /** {@return the newer term the queue directory knows of, above {@link #term()}} */
    public long newTerm() {
        return newTerm;
    }
}
