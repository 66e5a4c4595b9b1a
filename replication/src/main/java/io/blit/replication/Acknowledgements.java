package io.blit.replication;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What the replicas of a source have acknowledged, as {@link ReplicationSource#awaitReplicated} counts it: a replica
 * holds an index when its running session's authenticated acknowledgement (of what it forced, for a sync replica) is
 * above it. Stateless; reads the sessions' volatile fields, from any thread.
 */
final class Acknowledgements {
    private Acknowledgements() {
    }

    /** How many running sessions' replicas hold {@code index}. */
    static int count(Collection<SourceSession> sessions, long index) {
        int count = 0;
        for (SourceSession session : sessions) {
            if (session.running() && held(session) > index) {
                count++;
            }
        }
        return count;
    }

    /** Each replica, what it holds and how far behind {@code index} it is (for a timeout's message). */
    static String describeBehind(Collection<SourceSession> sessions, long index) {
        if (sessions.isEmpty()) {
            return "no replica is connected";
        }
        List<String> lines = new ArrayList<>();
        for (SourceSession session : sessions) {
            long held = held(session);
            lines.add("replica " + session.peer + " holds up to " + (held - 1)
                    + (held > index ? "" : ", " + (index + 1 - held) + " behind")
                    + (session.running() ? "" : " (disconnected)"));
        }
        return String.join("; ", lines);
    }

    private static long held(SourceSession session) {
        return session.request.sync() ? session.forced : session.committed;
    }
}
