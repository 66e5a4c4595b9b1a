package io.blit.failover.zookeeper;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.replica.QueueTerms;
import io.blit.replication.ReplicaOptions;
import io.blit.replication.SourceOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * A failover group for the tests: an in-process ZooKeeper server (ticks of 500 ms, so sessions of 1 s to 10 s are
 * granted), and nodes by id, each with its directory under a test's temporary folder and its own loopback ports.
 */
final class Group implements AutoCloseable {
    static final byte[] SECRET = "a shared secret of the failover tests, 32 bytes+".getBytes(StandardCharsets.UTF_8);
    static final QueueOptions SMALL = QueueOptions.defaults().segmentSize(1 << 20);
    static final String PATH = "/blit/orders";

    final TestingServer zookeeper;
    private final Path root;
    private final Duration sessionTimeout;
    private final Map<String, String[]> ports = new LinkedHashMap<>();
    private final Map<String, FailoverNode> nodes = new LinkedHashMap<>();

    Group(Path root, Duration sessionTimeout, String... ids) throws Exception {
        this.root = root;
        this.sessionTimeout = sessionTimeout;
        this.zookeeper = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 500, -1), true);
        for (String id : ids) {
            ports.put(id, new String[] {loopbackPort(), loopbackPort()});
        }
    }

    Path dir(String id) {
        return root.resolve(id);
    }

    /** Starts node {@code id} on the ZooKeeper server. */
    FailoverNode start(String id) {
        return start(id, zookeeper.getConnectString());
    }

    /** Starts node {@code id} connecting to ZooKeeper through {@code connectString} (e.g. a proxy). */
    FailoverNode start(String id, String connectString) {
        return start(id, connectString, UnaryOperator.identity());
    }

    /** Starts node {@code id} connecting through {@code connectString}, with options changed by {@code more}. */
    synchronized FailoverNode start(String id, String connectString, UnaryOperator<FailoverOptions> more) {
        String[] endpoints = ports.get(id);
        FailoverNode node = FailoverNode.start(more.apply(options(dir(id), id, connectString, endpoints[0],
                endpoints[1], sessionTimeout)));
        nodes.put(id, node);
        return node;
    }

    /** {@return the options of node {@code id}: serving on {@code control}, following on {@code data}} */
    static FailoverOptions options(Path dir, String id, String connectString, String control, String data,
                                   Duration sessionTimeout) {
        return FailoverOptions.of(dir, id, connectString, PATH,
                        SourceOptions.of(control, SECRET).replicaTimeout(Duration.ofSeconds(2)),
                        primary -> ReplicaOptions.of(primary, data, SECRET).sourceTimeout(Duration.ofSeconds(1)))
                .sessionTimeout(sessionTimeout).connectionTimeout(Duration.ofSeconds(1));
    }

    /** {@return node {@code id}'s control and data endpoints} */
    String[] endpoints(String id) {
        return ports.get(id).clone();
    }

    /** {@return a started ZooKeeper client of the group's server that authenticates as nobody: the tests' stranger} */
    CuratorFramework stranger() throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), 3_000, 1_000,
                new RetryOneTime(100));
        client.start();
        assertTrue(client.blockUntilConnected(30, TimeUnit.SECONDS), "the stranger connects");
        return client;
    }

    synchronized FailoverNode node(String id) {
        return nodes.get(id);
    }

    synchronized void stop(String id) {
        FailoverNode node = nodes.remove(id);
        if (node != null) {
            node.close();
        }
    }

    /** {@return the one running node that is the primary, once exactly one is and every other follows it} */
    FailoverNode awaitPrimary(Duration timeout) throws InterruptedException {
        FailoverNode[] primary = new FailoverNode[1];
        await(() -> {
            List<FailoverNode> running;
            synchronized (this) {
                running = new ArrayList<>(nodes.values());
            }
            List<FailoverNode> primaries = running.stream()
                    .filter(node -> node.state().role() == FailoverNode.Role.PRIMARY).toList();
            if (primaries.size() != 1) {
                return false;
            }
            primary[0] = primaries.getFirst();
            return running.stream().allMatch(node -> node == primary[0] || primary[0].nodeId().equals(
                    node.state().leaderId()) && node.state().term() == primary[0].state().term());
        }, timeout, () -> "one primary and its followers: " + states());
        return primary[0];
    }

    synchronized String states() {
        StringBuilder text = new StringBuilder();
        nodes.forEach((id, node) -> text.append(id).append('=').append(node.state()).append(' '));
        return text.toString();
    }

    /** Creates the queue in node {@code id}'s directory, as the application does, with {@code records} orders. */
    void seed(String id, int records) {
        try (BlitQueue<Order> queue = BlitQueue.open(dir(id), Order.class, SMALL);
             Appender<Order> appender = queue.appender()) {
            Order order = new Order();
            for (int n = 0; n < records; n++) {
                appender.append(order.fill(n, 0));
            }
        }
    }

    static long end(Path dir) {
        return QueueTerms.status(dir).endIndex();
    }

    static void awaitEnd(Path dir, long end, Duration timeout) throws InterruptedException {
        await(() -> end(dir) >= end, timeout, () -> dir + " ends at " + end(dir) + ", not yet at " + end);
    }

    static void await(BooleanSupplier condition, Duration timeout, java.util.function.Supplier<String> what)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, () -> "waited " + timeout + " for " + what.get());
            Thread.sleep(20);
        }
    }

    private static String loopbackPort() {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return "127.0.0.1:" + socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        for (FailoverNode node : nodes.values()) {
            node.close();
        }
        nodes.clear();
        zookeeper.close();
    }
}
