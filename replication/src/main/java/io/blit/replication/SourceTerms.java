package io.blit.replication;

import io.blit.queue.TermHistory;
import io.blit.queue.replica.QueueTerms;
import io.blit.replication.wire.Subscribe;
import io.blit.replication.wire.Wire;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a source checks of a confirmed request before anything else: the queue, then the terms (docs/failover.md, "A
 * term counts only within the queue's own history").
 *
 * <ol>
 *   <li><b>The queue.</b> A replica of another queue is refused, naming both queue ids, before its terms are looked
 *       at: a term means something only within one queue's history.</li>
 *   <li><b>A fenced source</b> (it knows of a newer term than its own) serves no one.</li>
 *   <li><b>A newer term fences the source only from the source's own history.</b> A replica whose newest term is
 *       above the source's shows that this source is no longer the primary only if its history holds the source's
 *       current term (the same entry: number, first index and origin) and newer terms after it, up to
 *       {@link QueueTerms#MAX_LEARNT_TERM}: it followed, or was, a primary promoted from this source's history. Then
 *       the source raises its queue's fence to the replica's term, so that every appender of its queue, in every
 *       process, stops at its next append ({@link QueueTerms#fence}), and refuses the replica. Any other history (a
 *       restored backup of another lineage, terms beyond the range) is refused naming both histories, and nothing of
 *       the source changes.</li>
 * </ol>
 */
final class SourceTerms {
    private static final System.Logger LOG = System.getLogger(ReplicationSource.class.getName());

    private SourceTerms() {
    }

    /**
     * {@return why the source in {@code dir} of history {@code history} refuses the replica of {@code request} for its
     * queue or its terms, or null if it does not} Raises the source's fence in the one case the class describes.
     */
    static String refusal(Path dir, TermHistory history, Subscribe.Request request) {
        boolean knowsQueue = !Wire.NO_QUEUE.equals(request.queueId());
        if (knowsQueue && !request.queueId().equals(history.queueId())) {
            return "a replica of another queue: it holds queue " + request.queueId() + ", the source queue " + dir
                    + " is queue " + history.queueId();
        }
        long fence = QueueTerms.fenceTerm(dir);
        if (fence > history.currentTerm()) {
            return "the source queue " + dir + " of term " + history.currentTerm() + " is fenced: term " + fence
                    + " began elsewhere; follow the primary of term " + fence;
        }
        if (history.currentTerm() > QueueTerms.MAX_LEARNT_TERM) {
            return "the source queue " + dir + " is of term " + history.currentTerm() + ", above the highest term a"
                    + " replica takes (" + QueueTerms.MAX_LEARNT_TERM + ", so that it can be promoted above it)";
        }
        List<TermHistory.Term> theirs = request.terms();
        if (theirs.isEmpty()) {
            return null;
        }
        if (!knowsQueue) {
            return "a replica that holds no queue id states terms " + describe(theirs) + ": terms mean something"
                    + " only within a queue's history";
        }
        long replicaTerm = theirs.getLast().number();
        if (replicaTerm <= history.currentTerm()) {
            return null; // where its records part from this source's is the handshake's to find (SourceHandshake)
        }
        TermHistory.Term current = history.terms().getLast();
        if (!theirs.contains(current) || replicaTerm > QueueTerms.MAX_LEARNT_TERM) {
            String why = replicaTerm > QueueTerms.MAX_LEARNT_TERM
                    ? "its term " + replicaTerm + " is above the highest a copy takes from another ("
                            + QueueTerms.MAX_LEARNT_TERM + ")"
                    : "its history does not hold this source's term " + current.number() + " from index "
                            + current.firstIndex() + ", so its term " + replicaTerm + " is not of this source's history";
            return "the replica's history " + describe(theirs) + " does not continue the history "
                    + describe(history.newest(Wire.MAX_TERMS)) + " of the source queue " + dir + " (queue "
                    + history.queueId() + "): " + why + "; the source is not fenced. Follow the source the replica"
                    + " followed, or start it in an empty directory to follow this one";
        }
        if (QueueTerms.fence(dir, replicaTerm)) {
            LOG.log(System.Logger.Level.WARNING, "source queue " + dir + " of term " + history.currentTerm()
                    + " fenced: a replica has seen term " + replicaTerm + " of its history; its appenders stop");
        }
        return "the source queue " + dir + " is of term " + history.currentTerm() + ", the replica has seen term "
                + replicaTerm + ": the primary of term " + replicaTerm + " is elsewhere; follow it";
    }

    /**
     * {@return terms as {@code [number@firstIndex, ...]}, oldest first, e.g. {@code [0@0, 2@731244]}} For messages
     * that name two histories.
     */
    static String describe(List<TermHistory.Term> terms) {
        return terms.stream().map(t -> t.number() + "@" + t.firstIndex()).collect(Collectors.joining(", ", "[", "]"));
    }
}
