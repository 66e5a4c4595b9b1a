package io.blit.replication;

import io.blit.queue.TermHistory;
import io.blit.replication.wire.Subscribe;
import java.nio.file.Path;

/**
 * The terms a source checks of a confirmed request before anything else: a replica that has seen a newer term than
 * the source's (it followed, or was, the primary of a later term) shows that this source is no longer the primary.
 */
final class SourceTerms {
    private SourceTerms() {
    }

    /**
     * {@return why the source in {@code dir} of history {@code history} refuses the replica of {@code request} for its
     * terms, or null if it does not}
     */
    static String refusal(Path dir, TermHistory history, Subscribe.Request request) {
        if (request.terms().isEmpty()) {
            return null;
        }
        long replicaTerm = request.terms().getLast().number();
        if (replicaTerm > history.currentTerm()) {
            return "the source queue " + dir + " is of term " + history.currentTerm() + ", the replica has seen term "
                    + replicaTerm + ": the primary of term " + replicaTerm + " is elsewhere; follow it";
        }
        return null;
    }
}
