package io.blit.failover.zookeeper.node;

import io.blit.failover.zookeeper.FailoverNode;
import io.blit.queue.replica.QueueTerms;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The lines {@code failover node} prints, one per change of the node's role: {@code waiting for a primary},
 * {@code following <leader> at term <t>}, {@code primary term <t>}, {@code fenced}, and {@code left the group} once
 * closed. A node observed only every few milliseconds may pass through a state unseen: {@link #closed} still says
 * {@code fenced} for a primary that was fenced on its way out. Thread-safe: the poller and the shutdown hook print
 * through one instance.
 */
final class RoleLines {
    private final PrintStream out;
    private String last;
    private FailoverNode.Role lastRole;

    RoleLines(PrintStream out) {
        this.out = out;
    }

    /** {@return the line of {@code state}} */
    static String line(FailoverNode.State state) {
        return switch (state.role()) {
            case PRIMARY -> "primary term " + state.term();
            case FOLLOWER -> state.leaderId() == null ? "waiting for a primary"
                    : "following " + state.leaderId() + " at term " + state.term();
            case FENCED -> "fenced";
            case CLOSED -> "left the group";
        };
    }

    /** Prints the line of {@code state} if it differs from the last one printed. */
    synchronized void show(FailoverNode.State state) {
        if (state.role() == FailoverNode.Role.CLOSED) {
            return; // closed(): after the fence, if any
        }
        print(line(state), state.role());
    }

    /**
     * The node has closed: prints {@code fenced} if it was last seen primary and its directory is fenced now (the
     * node fences as it closes), then {@code left the group}, once.
     */
    synchronized void closed(Path dir) {
        if ("left the group".equals(last)) {
            return;
        }
        if (lastRole == FailoverNode.Role.PRIMARY && QueueTerms.status(dir).role() == QueueTerms.Role.FENCED) {
            print("fenced", FailoverNode.Role.FENCED);
        }
        print("left the group", FailoverNode.Role.CLOSED);
    }

    private void print(String line, FailoverNode.Role role) {
        if (!line.equals(last)) {
            out.println(line);
            out.flush();
            last = line;
            lastRole = role;
        }
    }
}
