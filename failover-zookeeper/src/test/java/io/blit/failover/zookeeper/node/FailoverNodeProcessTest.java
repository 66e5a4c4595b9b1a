package io.blit.failover.zookeeper.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueFencedException;
import io.blit.queue.replica.QueueTerms;
import io.blit.replication.SecretFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code failover node} as an operator runs it: three node processes of one group on a ZooKeeper server, each printing
 * its role changes. The primary killed with SIGKILL: another node is primary within the session timeout and a bound
 * for elections and JVMs on a loaded machine. That one stopped with SIGTERM: it prints {@code fenced} (its directory
 * is fenced) and {@code left the group}, and the third node is primary. And {@code failover handover}: the primary
 * hands over to the node named, which takes the next term where the old primary's appends stopped; nothing is set
 * aside.
 */
class FailoverNodeProcessTest {
    private static final long SESSION_MILLIS = 2_000;
    /** Bounds a hang: JVM starts, embedded media drivers, elections and promotions on a loaded 2-core machine. */
    private static final long BOUND_MILLIS = 60_000;
    private static final Pattern PRIMARY = Pattern.compile("primary term ([0-9]+)");

    @TempDir
    Path root;

    @Test
    void aKilledPrimaryIsReplacedAndAPrimaryStoppedWithSigtermFencesAndLeaves() throws Exception {
        // Ticks of 500 ms: the server grants sessions of 1 s to 10 s.
        try (TestingServer zookeeper = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 500, -1), true);
             NodeProcesses processes = new NodeProcesses()) {
            Path secret = root.resolve("secret");
            SecretFile.create(secret);
            seed(root.resolve("a"), 100);
            List<NodeProcesses.Node> nodes = new ArrayList<>();
            for (String id : List.of("a", "b", "c")) {
                nodes.add(processes.start(id, config(id, zookeeper.getConnectString(), secret)));
            }
            NodeProcesses.Node first = awaitOnePrimary(nodes, -1);
            long firstTerm = term(first);
            for (NodeProcesses.Node node : nodes) { // a node whose copy holds no queue yet is never elected
                Path dir = root.resolve(node.id());
                NodeProcesses.await(() -> Files.isDirectory(dir) && QueueTerms.status(dir).endIndex() >= 100,
                        BOUND_MILLIS, () -> node.id() + " holds the seed's 100 records:\n" + node.text());
            }

            first.process().destroyForcibly(); // SIGKILL: no hook runs
            assertTrue(first.process().waitFor(BOUND_MILLIS, TimeUnit.MILLISECONDS));
            long killedAt = System.nanoTime();
            List<NodeProcesses.Node> rest = new ArrayList<>(nodes);
            rest.remove(first);
            NodeProcesses.Node second = awaitOnePrimary(rest, firstTerm);
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
            assertTrue(took < SESSION_MILLIS + BOUND_MILLIS, "another node is primary after " + took + " ms");

            long secondTerm = term(second);
            // SIGTERM through the handle: Process.destroy() would also close the pipe its lines come through
            assertTrue(second.process().toHandle().destroy());
            assertTrue(second.awaitExit(BOUND_MILLIS), second.text());
            List<String> printed = second.lines();
            synchronized (printed) {
                int primaryAt = printed.lastIndexOf("primary term " + secondTerm);
                assertTrue(primaryAt >= 0, second.text());
                assertEquals(List.of("fenced", "left the group"), printed.subList(primaryAt + 1, printed.size()),
                        second.text());
            }
            QueueTerms.Status fenced = QueueTerms.status(root.resolve(second.id()));
            assertEquals(QueueTerms.Role.FENCED, fenced.role(), fenced.toString());
            rest.remove(second);
            NodeProcesses.Node third = awaitOnePrimary(rest, secondTerm);
            assertTrue(QueueTerms.status(root.resolve(third.id())).endIndex() >= 100, "the seed's records are kept");
        }
    }

    @Test
    void failoverHandoverMovesThePrimaryToTheNamedNodeWithNothingQuarantined() throws Exception {
        try (TestingServer zookeeper = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 500, -1), true);
             NodeProcesses processes = new NodeProcesses()) {
            Path secret = root.resolve("secret");
            SecretFile.create(secret);
            seed(root.resolve("a"), 100);
            List<NodeProcesses.Node> nodes = new ArrayList<>();
            for (String id : List.of("a", "b", "c")) {
                nodes.add(processes.start(id, config(id, zookeeper.getConnectString(), secret)));
            }
            NodeProcesses.Node first = awaitOnePrimary(nodes, -1);
            assertEquals("a", first.id(), "the seed's node is elected");
            long firstTerm = term(first);
            long newTerm;
            try (BlitQueue<Void> queue = BlitQueue.openRaw(root.resolve("a")); Appender<Void> appender = queue.appender();
                 Arena arena = Arena.ofConfined()) {
                MemorySegment payload = arena.allocate(8);
                for (int n = 100; n < 200; n++) {
                    assertEquals(n, appender.append(payload));
                }
                for (NodeProcesses.Node node : nodes) {
                    Path dir = root.resolve(node.id());
                    NodeProcesses.await(() -> Files.isDirectory(dir) && QueueTerms.status(dir).endIndex() >= 200,
                            BOUND_MILLIS, () -> node.id() + " holds 200 records:\n" + node.text());
                }
                Process handover = new ProcessBuilder(NodeProcesses.command("handover", "--config",
                        root.resolve("a.properties").toString(), "--to", "node-b"))
                        .redirectError(root.resolve("handover.err").toFile()).start();
                String printed = new String(handover.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(handover.waitFor(BOUND_MILLIS, TimeUnit.MILLISECONDS));
                assertEquals(0, handover.exitValue(), printed + Files.readString(root.resolve("handover.err")));
                Matcher line = Pattern.compile("handed over to node-b at term ([0-9]+) in ([0-9]+) ms\n").matcher(printed);
                assertTrue(line.matches(), printed);
                System.out.println("blit failover handover printed: " + printed.strip());

                NodeProcesses.Node second = awaitOnePrimary(nodes, firstTerm);
                assertEquals("b", second.id());
                newTerm = term(second);
                assertEquals(Long.parseLong(line.group(1)), newTerm);
                QueueFencedException refused = assertThrows(QueueFencedException.class, () -> appender.append(payload));
                assertEquals("node-b", refused.newPrimary(), refused.getMessage());
            }
            assertEquals(200, QueueTerms.status(root.resolve("b")).termStart(), "b's term begins where a stopped");
            for (String id : List.of("a", "c")) {
                assertEquals(QueueTerms.Role.REPLICA, QueueTerms.status(root.resolve(id)).role());
                assertFalse(Files.exists(root.resolve(id).resolve("quarantine")), id + " set nothing aside");
            }
            List<String> lines = first.lines();
            synchronized (lines) {
                int primaryAt = lines.lastIndexOf("primary term " + firstTerm);
                assertTrue(primaryAt >= 0, first.text());
                assertEquals(List.of("fenced", "following node-b at term " + newTerm),
                        lines.subList(primaryAt + 1, lines.size()), first.text());
            }
        }
    }

    /**
     * Waits until exactly one of {@code nodes} last printed {@code primary term T} with T above {@code above}, and
     * every other last printed {@code following <it> at term T}; {@return that one}
     */
    private static NodeProcesses.Node awaitOnePrimary(List<NodeProcesses.Node> nodes, long above)
            throws InterruptedException {
        NodeProcesses.Node[] primary = new NodeProcesses.Node[1];
        NodeProcesses.await(() -> {
            List<NodeProcesses.Node> primaries = nodes.stream().filter(node -> PRIMARY.matcher(node.last()).matches()
                    && term(node) > above).toList();
            if (primaries.size() != 1) {
                return false;
            }
            primary[0] = primaries.getFirst();
            String following = "following node-" + primary[0].id() + " at term " + term(primary[0]);
            return nodes.stream().allMatch(node -> node == primary[0] || node.last().equals(following));
        }, BOUND_MILLIS, () -> "one primary above term " + above + " and its followers:\n"
                + String.join("\n", nodes.stream().map(NodeProcesses.Node::text).toList()));
        return primary[0];
    }

    private static long term(NodeProcesses.Node node) {
        Matcher matcher = PRIMARY.matcher(node.last());
        return matcher.matches() ? Long.parseLong(matcher.group(1)) : -1;
    }

    private Path config(String id, String connect, Path secret) throws java.io.IOException {
        return Files.writeString(root.resolve(id + ".properties"), String.join("\n",
                "dir = " + root.resolve(id),
                "node.id = node-" + id,
                "zookeeper.connect = " + connect,
                "group = /blit/orders",
                "control = " + NodeProcesses.loopback(),
                "endpoint = " + NodeProcesses.loopback(),
                "secret.file = " + secret,
                "zookeeper.session.timeout = " + SESSION_MILLIS + "ms",
                "zookeeper.connection.timeout = 1s", ""));
    }

    /** The queue the application created on node {@code dir}: {@code records} raw records. */
    private static void seed(Path dir, int records) {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir); Appender<Void> appender = queue.appender();
             Arena arena = Arena.ofConfined()) {
            MemorySegment payload = arena.allocate(8);
            for (int n = 0; n < records; n++) {
                appender.append(payload);
            }
        }
    }
}
