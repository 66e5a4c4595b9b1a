package io.blit.queue.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A queue's identity and the history of its terms: the id created with the queue (kept by every replica of it), and
 * for each term the index of its first record, in increasing order of both. A primary appends in the newest term;
 * a replica promoted to primary starts the next term at its end index. Two copies of a queue hold the same records
 * up to the index where their histories part ({@link #sharedEnd}), the rule of Raft's log matching and Kafka's
 * leader epochs. Immutable; thread-safe. Stored by {@link TermHistoryFile}.
 *
 * @param queueId the queue's id, random at its creation
 * @param terms   the terms, oldest first: term numbers strictly increasing, first indices non-decreasing, at least one
 */
public record TermHistory(UUID queueId, List<Term> terms) {
    /** The most terms a history holds (a term begins at a promotion; this is far beyond any real failover count). */
    public static final int MAX_TERMS = 4096;

    private static final java.security.SecureRandom ORIGINS = new java.security.SecureRandom();

    /**
     * One term: from {@code firstIndex} on, records were appended by the primary of term {@code number}.
     *
     * @param number     the term's number, from 0
     * @param firstIndex the index of the first record of the term, from 0
     * @param origin     random at the promotion that began the term, so that two promotions to one number (two
     *                   operators, or a coordinator's lost grant) never count as the same term
     */
    public record Term(long number, long firstIndex, long origin) {
        /**
         * @throws IllegalArgumentException if either is negative
         */
        public Term {
            if (number < 0 || firstIndex < 0) {
                throw new IllegalArgumentException("a term's number and first index are from 0, not " + number + " and "
                        + firstIndex);
            }
        }
    }

    /**
     * Checks the history.
     *
     * @throws IllegalArgumentException if it has no term or more than {@link #MAX_TERMS}, or the numbers do not
     *                                  increase strictly or the first indices decrease
     * @throws NullPointerException     if the id, the list or a term is null
     */
    public TermHistory {
        Objects.requireNonNull(queueId, "queueId");
        terms = List.copyOf(terms);
        if (terms.isEmpty() || terms.size() > MAX_TERMS) {
            throw new IllegalArgumentException("a term history holds 1 to " + MAX_TERMS + " terms, not " + terms.size());
        }
        for (int i = 1; i < terms.size(); i++) {
            Term before = terms.get(i - 1);
            Term term = terms.get(i);
            if (term.number() <= before.number() || term.firstIndex() < before.firstIndex()) {
                throw new IllegalArgumentException("term " + term.number() + " at index " + term.firstIndex()
                        + " cannot follow term " + before.number() + " at index " + before.firstIndex());
            }
        }
    }

    /** {@return the history of a new queue} A random id, term 0 from index 0. */
    public static TermHistory createNew() {
        return new TermHistory(UUID.randomUUID(), List.of(new Term(0, 0, 0)));
    }

    /** {@return the newest term's number} */
    public long currentTerm() {
        return terms.getLast().number();
    }

    /**
     * {@return this history with term {@code number} starting at {@code firstIndex}} (a promotion), of a random origin.
     *
     * @throws IllegalArgumentException if {@code number} is not above the current term, or {@code firstIndex} is below
     *                                  the current term's first index, or the history is full
     */
    public TermHistory withTerm(long number, long firstIndex) {
        List<Term> next = new ArrayList<>(terms);
        next.add(new Term(number, firstIndex, ORIGINS.nextLong()));
        return new TermHistory(queueId, next);
    }

    /**
     * {@return the number of the term index {@code index} belongs to} (the newest term for indices beyond the end).
     *
     * @throws IllegalArgumentException if {@code index} is negative
     */
    public long termOf(long index) {
        if (index < 0) {
            throw new IllegalArgumentException("index " + index + " is negative");
        }
        long term = terms.getFirst().number();
        for (Term t : terms) {
            if (t.firstIndex() > index) {
                break;
            }
            term = t.number();
        }
        return term;
    }

    /**
     * The end of what two copies of one queue hold alike: every index below it was appended in the same term in both,
     * hence by the same primary, hence is the same record. A copy's records from there on are not in the other's
     * history. A term's entries that both histories hold identically (same number, first index and origin) form the shared
     * prefix; the shared range ends where either copy's next term begins, or at either's end.
     *
     * @param mine      this copy's history
     * @param myEnd     this copy's end index (the index its next record would get)
     * @param theirs    the other copy's history
     * @param theirEnd  the other copy's end index
     * @return the shared end, from 0 to {@code min(myEnd, theirEnd)}
     * @throws IllegalArgumentException if the histories are of different queues, or an end is negative
     */
    public static long sharedEnd(TermHistory mine, long myEnd, TermHistory theirs, long theirEnd) {
        if (!mine.queueId.equals(theirs.queueId)) {
            throw new IllegalArgumentException("queue " + mine.queueId + " and queue " + theirs.queueId
                    + " are different queues: they share no records");
        }
        if (myEnd < 0 || theirEnd < 0) {
            throw new IllegalArgumentException("end indices are from 0, not " + myEnd + " and " + theirEnd);
        }
        int shared = 0;
        int common = Math.min(mine.terms.size(), theirs.terms.size());
        while (shared < common && mine.terms.get(shared).equals(theirs.terms.get(shared))) {
            shared++;
        }
        if (shared == 0) {
            return 0;
        }
        long end = Math.min(myEnd, theirEnd);
        if (shared < mine.terms.size()) {
            end = Math.min(end, mine.terms.get(shared).firstIndex());
        }
        if (shared < theirs.terms.size()) {
            end = Math.min(end, theirs.terms.get(shared).firstIndex());
        }
        return end;
    }
}
