package io.blit.failover.zookeeper;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueFencedException;
import io.blit.queue.Tailer;
import io.blit.queue.replica.QueueTerms;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The write pause of a planned handover ({@link FailoverNode#handover}): from the last append accepted on the old
 * primary to the first append accepted on the new one. Three nodes on an in-process ZooKeeper server on loopback; a
 * producer appends without pause (one record every 20 µs) on the primary; the primary hands over to the other of
 * nodes a and b, back and forth, each time once the producer appended on it again. The producer learns the new
 * primary from its {@link QueueFencedException} ({@code newPrimary()}) and appends there once that node says it is
 * the primary, as an application does. Then it checks that nothing was lost or set aside: every node holds record n
 * at index n, from every primary in turn, and no node has a quarantine. Prints each pause, the median and the p99.
 * Not a test: run by profile {@code handover-time} (docs/failover.md). Arguments: handovers (default 24), the session
 * timeout in ms (default 2000).
 */
public final class HandoverTimeHarness {
    private HandoverTimeHarness() {
    }

    public static void main(String[] args) throws Exception {
        int handovers = args.length > 0 ? Integer.parseInt(args[0]) : 24;
        Duration session = Duration.ofMillis(args.length > 1 ? Long.parseLong(args[1]) : 2_000);
        System.out.println("handover write pause: last append on the old primary to the first on the new one; "
                + handovers + " handovers, session timeout " + session.toMillis() + " ms; "
                + Runtime.getRuntime().availableProcessors() + " CPUs, JDK " + Runtime.version());
        Path root = Files.createTempDirectory("blit-handover-time");
        List<Double> pauses = new ArrayList<>();
        try (Group group = new Group(root, session, "a", "b", "c")) {
            group.seed("a", 1);
            group.start("a");
            group.start("b");
            group.start("c");
            FailoverNode primary = group.awaitPrimary(Duration.ofSeconds(120));
            Producer producer = new Producer(group, primary.nodeId());
            CompletableFuture<Void> producing = CompletableFuture.runAsync(producer::run);
            for (int n = 0; n < handovers; n++) {
                String to = primary.nodeId().equals("a") ? "b" : "a";
                producer.awaitAppendsOn(primary.nodeId(), 1_000);
                long term = primary.state().term();
                // the node handed over to has taken the primary's term (its replica accepted), as its member tells
                Group.await(() -> QueueTerms.status(group.dir(to)).term() == term, Duration.ofSeconds(60),
                        () -> "node " + to + " follows term " + term + ": " + group.states());
                primary.handover(to);
                primary = group.node(to);
                producer.awaitAppendsOn(to, 1);
                double millis = producer.lastPauseNanos / 1e6;
                pauses.add(millis);
                System.out.println(String.format(Locale.ROOT, "  handover %d to %s at term %d: pause %.2f ms", n + 1,
                        to, primary.state().term(), millis));
            }
            producer.stop.set(true);
            producing.get(60, TimeUnit.SECONDS);
            long end = producer.next;
            group.awaitPrimary(Duration.ofSeconds(60));
            for (String id : new String[] {"a", "b", "c"}) {
                Group.awaitEnd(group.dir(id), end, Duration.ofSeconds(60));
                requireHolds(group.dir(id), end);
                if (Files.exists(group.dir(id).resolve("quarantine"))) {
                    throw new AssertionError("node " + id + " set records aside: " + group.dir(id).resolve("quarantine"));
                }
            }
            System.out.println("nothing lost or set aside: every node holds records 0 to " + (end - 1)
                    + ", each at its index, and no quarantine");
        } finally {
            deleteTree(root);
        }
        Collections.sort(pauses);
        System.out.println(String.format(Locale.ROOT, "write pause over %d handovers: median %.2f ms, p99 %.2f ms,"
                        + " range %.2f to %.2f ms", pauses.size(), pauses.get(pauses.size() / 2),
                pauses.get((int) Math.ceil(pauses.size() * 0.99) - 1), pauses.getFirst(), pauses.getLast()));
    }

    /** Appends record n at index n on whichever node is the primary, and times each move. */
    private static final class Producer {
        private final Group group;
        private final AtomicBoolean stop = new AtomicBoolean();
        private volatile String on;
        private volatile long appendedThere;
        private volatile long lastPauseNanos;
        private volatile long next = 1;

        Producer(Group group, String primary) {
            this.group = group;
            this.on = primary;
        }

        void run() {
            Order order = new Order();
            long pausedAt = 0; // when the last append on the old primary returned; 0 before the first handover
            while (!stop.get()) {
                String id = on;
                long lastAppend;
                try (BlitQueue<Order> queue = BlitQueue.open(group.dir(id), Order.class, Group.SMALL);
                     Appender<Order> appender = queue.appender()) {
                    append(appender, order, id);
                    lastAppend = System.nanoTime();
                    if (pausedAt != 0) {
                        lastPauseNanos = lastAppend - pausedAt; // the first append on the new primary ends the pause
                    }
                    appendedThere = 1;
                    try {
                        while (!stop.get()) {
                            append(appender, order, id);
                            lastAppend = System.nanoTime();
                            appendedThere++;
                            LockSupport.parkNanos(20_000);
                        }
                        return;
                    } catch (QueueFencedException fenced) {
                        pausedAt = lastAppend;
                        String to = fenced.newPrimary();
                        if (to == null) {
                            throw new AssertionError("the fence names no new primary: " + fenced.getMessage());
                        }
                        while (group.node(to).state().role() != FailoverNode.Role.PRIMARY) {
                            Thread.onSpinWait();
                        }
                        appendedThere = 0;
                        on = to;
                    }
                }
            }
        }

        /** Appends record {@link #next}, which must get index {@link #next}. */
        private void append(Appender<Order> appender, Order order, String id) {
            long index = appender.append(order.fill(next, 0));
            if (index != next) {
                throw new AssertionError("record " + next + " got index " + index + " on node " + id);
            }
            next++;
        }

        /** Waits until at least {@code count} records were appended on node {@code id} since it became primary. */
        void awaitAppendsOn(String id, long count) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!(id.equals(on) && appendedThere >= count)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("the producer did not append " + count + " records on node " + id
                            + " within 60 s: " + group.states());
                }
                Thread.sleep(1);
            }
        }
    }

    private static void requireHolds(Path dir, long end) {
        if (QueueTerms.status(dir).endIndex() != end) {
            throw new AssertionError(dir + " ends at " + QueueTerms.status(dir).endIndex() + ", not " + end);
        }
        try (BlitQueue<Order> queue = BlitQueue.open(dir, Order.class, Group.SMALL.readOnly(true));
             Tailer<Order> tailer = queue.tailerFrom(1)) {
            Order order = new Order();
            for (long n = 1; n < end; n++) {
                if (!tailer.readNext(order) || order.sequence != n) {
                    throw new AssertionError(dir + " does not hold record " + n + " at index " + n);
                }
            }
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
