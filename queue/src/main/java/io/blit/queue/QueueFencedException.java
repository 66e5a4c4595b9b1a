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
    /** The new primary's name, as a planned handover recorded it; null if none is known. */
    private final String newPrimary;

    /**
     * An exception naming the queue directory and both terms.
     *
     * @param dir     the fenced queue's directory
     * @param term    the term the appender writes in
     * @param newTerm the term the directory knows of, above {@code term}
     */
    public QueueFencedException(Path dir, long term, long newTerm) {
        this(dir, term, newTerm, null);
    }

    /**
     * An exception naming the queue directory, both terms and, if known, the new primary: the copy a planned handover
     * (docs/failover.md, "Planned handover") made the primary of {@code newTerm}.
     *
     * @param dir        the fenced queue's directory
     * @param term       the term the appender writes in
     * @param newTerm    the term the directory knows of, above {@code term}
     * @param newPrimary the primary of {@code newTerm} (a node id, a host name), or null if unknown
     */
    public QueueFencedException(Path dir, long term, long newTerm, String newPrimary) {
        super(Category.FENCED, "queue " + dir + " is fenced: its appenders write in term " + term + ", and term " + newTerm
                + " has begun on " + (newPrimary == null ? "a new primary" : "the new primary " + newPrimary)
                + "; nothing was appended: follow the new primary (append "
                + (newPrimary == null ? "there" : "on " + newPrimary) + ", and"
                + " start this node as its replica with replicate follow --rejoin)");
        this.term = term;
        this.newTerm = newTerm;
        this.newPrimary = newPrimary;
    }

    /** {@return the term the refused appender writes in} */
    public long term() {
        return term;
    }

    /**
     * {@return the primary of {@link #newTerm()} as a planned handover named it (a node id, a host name), or null if
     * the directory was fenced otherwise (a failover, by hand) and the new primary is not known here}
     */
    public String newPrimary() {
        return newPrimary;
    }

    /** {@return the newer term the queue directory knows of, above {@link #term()}} */
    public long newTerm() {
        return newTerm;
    }
}
