package io.blit.replication;

import io.blit.queue.TermHistory;
import io.blit.queue.replica.QueueTerms;
import io.blit.replication.wire.Subscribe;
import java.nio.file.Path;

/**
 * The terms a source checks of a confirmed request before anything else. A source whose queue is fenced (it knows of
 * a newer term than its own) serves no one. A replica that has seen a newer term than the source's (it followed, or
 * was, the primary of a later term) shows that this source is no longer the primary: the source raises its queue's
 * fence to that term, so that every appender of its queue, in every process, stops at its next append
 * ({@link QueueTerms#fence}), and refuses the replica.
 */
final class SourceTerms {
    private static final System.Logger LOG = System.getLogger(ReplicationSource.class.getName());

    private SourceTerms() {
    }

    /**
     * {@return why the source in {@code dir} of history {@code history} refuses the replica of {@code request} for its
     * terms, or null if it does not}
     */
    static String refusal(Path dir, TermHistory history, Subscribe.Request request) {
        long fence = QueueTerms.fenceTerm(dir);
        if (fence > history.currentTerm()) {
            return "the source queue " + dir + " of term " + history.currentTerm() + " is fenced: term " + fence
                    + " began elsewhere; follow its primary";
        }
        if (request.terms().isEmpty()) {
            return null;
        }
        long replicaTerm = request.terms().getLast().number();
        if (replicaTerm > history.currentTerm()) {
            if (replicaTerm <= QueueTerms.MAX_TERM && QueueTerms.fence(dir, replicaTerm)) {
                LOG.log(System.Logger.Level.WARNING, "source queue " + dir + " of term " + history.currentTerm()
                        + " fenced: a replica has seen term " + replicaTerm + "; its appenders stop");
            }
            return "the source queue " + dir + " is of term " + history.currentTerm() + ", the replica has seen term "
                    + replicaTerm + ": the primary of term " + replicaTerm + " is elsewhere; follow it";
        }
        return null;
    }
}
