package io.blit.replication;

import io.blit.queue.TermHistory;
import io.blit.queue.replica.QueueTerms;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * What a replica takes from its source's ACCEPT (docs/failover.md, "A term counts only within the queue's own
 * history"): the source's newest terms, only where they extend the replica's own history, and the start index, only
 * where the replica can honour it. Checked in full before anything is written: an accept that fails a check changes
 * nothing in the replica's directory.
 *
 * <ul>
 *   <li><b>Terms in range.</b> No term above {@link QueueTerms#MAX_LEARNT_TERM}: the replica can always be promoted
 *       above what it took.</li>
 *   <li><b>Not behind.</b> The source's newest term is not below the replica's.</li>
 *   <li><b>A start it holds.</b> Not above the replica's next index (a gap), and, if it is below it (records to set
 *       aside), not below the replica's first file (records it no longer holds cannot be set aside).</li>
 *   <li><b>The records kept keep their terms.</b> The replica keeps its records below the start (or all of them): the
 *       term entries that begin below that index are the same in its history before and after it takes the source's
 *       terms ({@link TermHistory#followedBy}), as far back as both know terms (a handshake carries the newest 64).
 *       Only terms from there on are replaced or added.</li>
 * </ul>
 *
 * <p>Whether the replica may set records aside at all ({@code ReplicaOptions.rejoin}) is the replica's to decide, after
 * these checks. Stateless.
 */
final class ReplicaTerms {
    private ReplicaTerms() {
    }

    /**
     * An accept's outcome: {@code violation} (what the source sent that no honest source sends: the session ends), or
     * the index to set records aside from ({@code -1}: none) and the replica's history once it took the terms.
     */
    record Verdict(String violation, long setAsideFrom, TermHistory history) {
        static Verdict violated(String why) {
            return new Verdict(Objects.requireNonNull(why), -1, null);
        }
    }

    /**
     * Checks an accept.
     *
     * @param queueId     the queue the session is of
     * @param held        the replica's history, or null if it has none yet
     * @param sourceTerms the accept's terms (1 to 64, in order: the wire checked that)
     * @param start       the accept's start index, from 0
     * @param next        the replica's next index ({@code -1}: it holds no file)
     * @param first       the first index of the replica's oldest file ({@code -1}: none)
     * @return the verdict
     */
    static Verdict check(UUID queueId, TermHistory held, List<TermHistory.Term> sourceTerms, long start, long next,
                         long first) {
        for (TermHistory.Term term : sourceTerms) {
            if (term.number() > QueueTerms.MAX_LEARNT_TERM) {
                return Verdict.violated("an accept naming term " + term.number() + ", above the highest a replica"
                        + " takes (" + QueueTerms.MAX_LEARNT_TERM + ", so that it can be promoted above it)");
            }
        }
        long sourceTerm = sourceTerms.getLast().number();
        if (held != null && sourceTerm < held.currentTerm()) {
            return Verdict.violated("an accept from a source of term " + sourceTerm + ", behind this replica's term "
                    + held.currentTerm());
        }
        if (next >= 0 && start > next) {
            return Verdict.violated("an accept from index " + start + ", past what this replica holds (every index"
                    + " below " + next + "): a gap");
        }
        long setAsideFrom = next >= 0 && start < next ? start : -1;
        if (setAsideFrom >= 0 && start < first) {
            return Verdict.violated("an accept from index " + start + ", below this replica's first file (index "
                    + first + "): records it does not hold cannot be set aside");
        }
        TermHistory after;
        try {
            after = held == null ? new TermHistory(queueId, sourceTerms) : held.followedBy(sourceTerms);
        } catch (IllegalArgumentException e) {
            return Verdict.violated("an accept whose terms " + SourceTerms.describe(sourceTerms) + " do not continue"
                    + " this replica's history " + SourceTerms.describe(held.terms()) + ": " + e.getMessage());
        }
        long kept = next < 0 ? 0 : Math.min(start, next);
        // terms older than either list's oldest are known to one side only (a handshake carries the newest 64)
        long floor = held == null ? 0 : Math.max(held.terms().getFirst().number(), sourceTerms.getFirst().number());
        if (held != null && !beginningBelow(held, kept, floor).equals(beginningBelow(after, kept, floor))) {
            return Verdict.violated("an accept whose terms " + SourceTerms.describe(sourceTerms) + " would change the"
                    + " terms of this replica's records below index " + kept + ", which it keeps (its history "
                    + SourceTerms.describe(held.terms()) + ")");
        }
        return new Verdict(null, setAsideFrom, after);
    }

    /** The entries of {@code history} of number {@code floor} or above whose terms begin below {@code index}. */
    private static List<TermHistory.Term> beginningBelow(TermHistory history, long index, long floor) {
        return history.terms().stream().filter(term -> term.firstIndex() < index && term.number() >= floor).toList();
    }
}
