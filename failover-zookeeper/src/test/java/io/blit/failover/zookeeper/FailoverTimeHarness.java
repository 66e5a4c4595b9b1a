package io.blit.failover.zookeeper;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * How long a failover takes: from the moment the primary falls silent to ZooKeeper, as a killed process does (its
 * client's traffic dropped by a {@link TcpProxy}; it fences itself as the dead cannot append), to the first append
 * accepted on the node elected after it. Three nodes on an in-process ZooKeeper server, each run on new ones; prints
 * the median and the range over the runs for each session timeout. Not a test: run by profile {@code failover-time}
 * (docs/failover.md). Arguments: runs per timeout (default 5), then the session timeouts in ms (default 10000 2000).
 */
public final class FailoverTimeHarness {
    private FailoverTimeHarness() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        List<Long> timeouts = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            timeouts.add(Long.parseLong(args[i]));
        }
        if (timeouts.isEmpty()) {
            timeouts = List.of(10_000L, 2_000L);
        }
        System.out.println("failover time: kill of the primary to the first append on the new one; " + runs
                + " runs per session timeout; " + Runtime.getRuntime().availableProcessors() + " CPUs, JDK "
                + Runtime.version());
        for (long timeout : timeouts) {
            List<Long> millis = new ArrayList<>();
            for (int run = 0; run < runs; run++) {
                millis.add(once(Duration.ofMillis(timeout)));
                System.out.println("  session timeout " + timeout + " ms, run " + (run + 1) + ": " + millis.getLast()
                        + " ms");
            }
            Collections.sort(millis);
            System.out.println(String.format(Locale.ROOT, "session timeout %d ms: median %d ms, range %d to %d ms over"
                    + " %d runs", timeout, millis.get(millis.size() / 2), millis.getFirst(), millis.getLast(), runs));
        }
    }

    /** {@return the milliseconds from silencing the primary to the first append accepted on the next one} */
    private static long once(Duration sessionTimeout) throws Exception {
        Path root = Files.createTempDirectory("blit-failover-time");
        try (Group group = new Group(root, sessionTimeout, "a", "b", "c");
             TcpProxy proxy = new TcpProxy(group.zookeeper.getPort())) {
            group.seed("a", 1_000);
            group.start("a", proxy.address());
            group.start("b");
            group.start("c");
            group.awaitPrimary(Duration.ofSeconds(120));
            long killed = System.nanoTime();
            proxy.cut();
            FailoverNode next = null;
            while (next == null) {
                for (String id : new String[] {"b", "c"}) {
                    if (group.node(id).state().role() == FailoverNode.Role.PRIMARY) {
                        next = group.node(id);
                    }
                }
                Thread.onSpinWait();
                if (System.nanoTime() - killed > 120_000_000_000L) {
                    throw new IllegalStateException("no new primary within 120 s: " + group.states());
                }
            }
            try (BlitQueue<Order> queue = BlitQueue.open(group.dir(next.nodeId()), Order.class, Group.SMALL);
                 Appender<Order> appender = queue.appender()) {
                appender.append(new Order().fill(0, 2));
                return (System.nanoTime() - killed) / 1_000_000;
            }
        } finally {
            deleteTree(root);
        }
    }

    private static void deleteTree(Path root) throws java.io.IOException {
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
