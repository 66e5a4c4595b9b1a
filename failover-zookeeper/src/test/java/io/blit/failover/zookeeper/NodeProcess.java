package io.blit.failover.zookeeper;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A {@link FailoverNode} in a JVM of its own, for {@link ShutdownTest}: started with the options of {@link Group},
 * never closed by this code; it prints {@code started}, then {@code state <role> <term> <leader>} at every change of
 * its state, until its JVM is stopped. Arguments: dir, node id, ZooKeeper connect string, control endpoint, data
 * endpoint, session timeout in ms.
 */
public final class NodeProcess {
    private NodeProcess() {
    }

    public static void main(String[] args) throws InterruptedException {
        FailoverNode node = FailoverNode.start(Group.options(Path.of(args[0]), args[1], args[2], args[3], args[4],
                Duration.ofMillis(Long.parseLong(args[5]))));
        System.out.println("started " + node.nodeId());
        FailoverNode.State last = null;
        while (true) {
            FailoverNode.State now = node.state();
            if (!now.equals(last)) {
                System.out.println("state " + now.role() + " " + now.term() + " " + now.leaderId());
                last = now;
            }
            Thread.sleep(10);
        }
    }
}
