package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.TermHistory;
import io.blit.queue.TermHistory.Term;
import io.blit.queue.replica.QueueTerms;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What a replica takes of an ACCEPT ({@link ReplicaTerms}): the rule of docs/failover.md, case by case. */
class ReplicaTermsTest {
    private static final UUID QUEUE = UUID.randomUUID();
    private static final Term ZERO = new Term(0, 0, 0);

    private static TermHistory history(Term... terms) {
        return new TermHistory(QUEUE, List.of(terms));
    }

    @Test
    void aReplicaBehindANewerTermTakesItAndSetsNothingAside() {
        Term one = new Term(1, 100, 11);
        ReplicaTerms.Verdict verdict = ReplicaTerms.check(QUEUE, history(ZERO), List.of(ZERO, one), 80, 80, 0);
        assertNull(verdict.violation());
        assertEquals(-1, verdict.setAsideFrom());
        assertEquals(history(ZERO, one), verdict.history());
    }

    @Test
    void aReplicaPastThePromotionIndexSetsItsTailAsideFromThere() {
        Term one = new Term(1, 100, 11);
        ReplicaTerms.Verdict verdict = ReplicaTerms.check(QUEUE, history(ZERO), List.of(ZERO, one), 100, 130, 0);
        assertNull(verdict.violation());
        assertEquals(100, verdict.setAsideFrom());
        assertEquals(history(ZERO, one), verdict.history());
    }

    @Test
    void anOldPrimaryOfAnotherLineageSetsItsOwnTermAsideAndTakesTheSourcesTerm() {
        Term mine = new Term(2, 50, 22);
        Term theirs = new Term(3, 50, 33);
        ReplicaTerms.Verdict verdict = ReplicaTerms.check(QUEUE, history(ZERO, mine), List.of(ZERO, theirs), 50, 90, 0);
        assertNull(verdict.violation());
        assertEquals(50, verdict.setAsideFrom());
        assertEquals(history(ZERO, theirs), verdict.history());
    }

    @Test
    void aReplicaWithoutAHistoryTakesTheSourcesTerms() {
        ReplicaTerms.Verdict verdict = ReplicaTerms.check(QUEUE, null, List.of(ZERO, new Term(4, 7, 1)), 0, -1, -1);
        assertNull(verdict.violation());
        assertEquals(4, verdict.history().currentTerm());
    }

    @Test
    void theHighestLearntTermIsTakenAndNoneAbove() {
        assertNull(ReplicaTerms.check(QUEUE, history(ZERO), List.of(ZERO, new Term(QueueTerms.MAX_LEARNT_TERM, 9, 1)),
                9, 9, 0).violation());
        for (long term : new long[] {QueueTerms.MAX_TERM, Long.MAX_VALUE}) {
            String violation = ReplicaTerms.check(QUEUE, history(ZERO), List.of(ZERO, new Term(term, 9, 1)), 9, 9, 0)
                    .violation();
            assertNotNull(violation);
            assertTrue(violation.contains("term " + term), violation);
        }
    }

    @Test
    void whatNoHonestSourceSendsIsAViolation() {
        TermHistory two = history(ZERO, new Term(2, 40, 2));
        // behind the replica's term
        assertNotNull(ReplicaTerms.check(QUEUE, two, List.of(ZERO, new Term(1, 40, 1)), 40, 60, 0).violation());
        // a start past what the replica holds (a gap)
        assertNotNull(ReplicaTerms.check(QUEUE, two, two.terms(), 61, 60, 0).violation());
        // a start below its first file
        assertNotNull(ReplicaTerms.check(QUEUE, two, two.terms(), 9, 60, 10).violation());
        // a term said to begin below the start: the records kept would change terms
        assertNotNull(ReplicaTerms.check(QUEUE, two, List.of(ZERO, new Term(2, 40, 2), new Term(3, 50, 3)), 60, 60, 0)
                .violation());
        // another lineage below the start (term 0 of another origin)
        assertNotNull(ReplicaTerms.check(QUEUE, two, List.of(new Term(0, 0, 5), new Term(3, 60, 3)), 60, 60, 0)
                .violation());
        // the same start and terms are fine
        assertNull(ReplicaTerms.check(QUEUE, two, two.terms(), 60, 60, 0).violation());
    }
}
