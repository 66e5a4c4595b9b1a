package io.blit.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A queue's identity and the history of its terms: the id created with the queue (kept by every replica of it), and
 * for each term the index of its first record, in increasing order of both. A primary appends in the newest term;
 * a replica promoted to primary starts the next term at its end index. Two copies of a queue hold the same records
 * up to the index where their histories part ({@link #sharedEnd}), the rule of Raft's log matching and Kafka's
 * leader epochs. Immutable; thread-safe. Stored in the queue directory's {@code terms.blitt} (docs/format.md,
 * "The term history"); read with {@code io.blit.queue.replica.QueueIdentity#history}.
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
         * Checks the term.
         *
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
     * @param number     the new term's number
     * @param firstIndex the index of its first record
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
     * @param index a record's index
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
     * history. Equal to {@link #sharedEnd(List, long, List, long)} of the whole histories.
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
        return sharedEnd(mine.terms, myEnd, theirs.terms, theirEnd);
    }

    /**
     * The end of what two copies of one queue hold alike, knowing of each only its newest terms (a replication
     * handshake carries at most {@code MAX_WIRE_TERMS} of them). A term entry (number, first index, origin) is written
     * once, by the promotion that began the term, and copied only together with the records before it; so where both
     * copies hold one entry identically, they hold the same records up to where either's next term begins, or either's
     * end. The newest entry both hold decides. If they hold none in common, nothing is known to be shared: 0.
     *
     * @param mine     this copy's terms, oldest first (a whole history or its newest part)
     * @param myEnd    this copy's end index
     * @param theirs   the other copy's terms, oldest first
     * @param theirEnd the other copy's end index
     * @return the shared end, from 0 to {@code min(myEnd, theirEnd)}
     * @throws IllegalArgumentException if an end is negative
     */
    public static long sharedEnd(List<Term> mine, long myEnd, List<Term> theirs, long theirEnd) {
        if (myEnd < 0 || theirEnd < 0) {
            throw new IllegalArgumentException("end indices are from 0, not " + myEnd + " and " + theirEnd);
        }
        for (int j = theirs.size() - 1; j >= 0; j--) {
            int i = mine.indexOf(theirs.get(j));
            if (i >= 0) {
                long end = Math.min(myEnd, theirEnd);
                if (i + 1 < mine.size()) {
                    end = Math.min(end, mine.get(i + 1).firstIndex());
                }
                if (j + 1 < theirs.size()) {
                    end = Math.min(end, theirs.get(j + 1).firstIndex());
                }
                return end;
            }
        }
        return 0;
    }

    /**
     * {@return the newest {@code count} terms (all if there are fewer), oldest first}
     *
     * @param count how many, at least 0
     */
    public List<Term> newest(int count) {
        return terms.subList(Math.max(0, terms.size() - count), terms.size());
    }

    /**
     * {@return this history continued by another copy's newest terms} What a replica holds after it took {@code
     * newest} from its source: its own terms older than the first of them, then them.
     *
     * @param newest the source's newest terms, oldest first
     * @throws IllegalArgumentException if {@code newest} is empty, or the result is not a valid history
     */
    public TermHistory followedBy(List<Term> newest) {
        if (newest.isEmpty()) {
            throw new IllegalArgumentException("no terms to follow with");
        }
        List<Term> next = new ArrayList<>();
        for (Term term : terms) {
            if (term.number() < newest.getFirst().number() && term.firstIndex() <= newest.getFirst().firstIndex()) {
                next.add(term);
            }
        }
        next.addAll(newest);
        return new TermHistory(queueId, next);
    }
}
