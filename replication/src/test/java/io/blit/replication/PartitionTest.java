package io.blit.replication;

import static io.blit.replication.TickQueues.assertHolds;
import static io.blit.replication.TickQueues.endOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.Quarantined;
import io.blit.queue.QueueFencedException;
import io.blit.queue.replica.QueueTerms;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A network partition in which the old primary keeps running. The primary P, in a process of its own, is followed by
 * replicas R1 and R2 (in this one); P is cut off from both, and its producer goes on appending — it cannot know. R1
 * is stopped and promoted (term 1) and takes appends; R2 is pointed at R1 and takes term 1. The partition heals, and
 * R2 is restarted with its configuration of before the failover, which names P: its request carries term 1, so P
 * fences itself and refuses it. From then on every appender on P — the producer's, open all along, one this test
 * opened during the partition, and any opened later — throws {@link QueueFencedException} naming term 1, and P's end
 * stays where it was. P, stopped, rejoins as a replica of R1: it then holds what R1 holds, byte for byte, and its
 * appends of the partition are exactly the records it quarantined.
 *
 * <p>Two partitions, one scenario: P in a network namespace of its own whose veth link is taken down (where the test
 * runs as root and {@code ip netns} works), and P behind a media driver of its own that loses everything it would
 * send or receive (everywhere). A UDP relay cannot partition P by itself: a replica names its data endpoint in its
 * signed request, so P's stream to it cannot be routed through a relay.
 */
class PartitionTest {
    /** What the new primary appends, told apart from the old primary's records at the same indices. */
    private static final long NEW_TERM_MARK = 1_000_000_000L;
    private static final int BEFORE_PARTITION = 200;
    private static final int NEW_PRIMARY_APPENDS = 300;

    @TempDir
    Path primary;
    @TempDir
    Path first;
    @TempDir
    Path second;
    @TempDir
    Path drivers;

    private NetworkNamespace namespace;

    @AfterEach
    void deleteNamespace() {
        if (namespace != null) {
            namespace.close();
        }
    }

    /** Where P runs, how the replicas reach it, and how it is cut off from them. */
    private interface Network {
        /** {@return how P's command line is run} */
        UnaryOperator<List<String>> launcher();

        /** {@return the address of P's host} */
        String primaryHost();

        /** {@return the address of the replicas' host, as P reaches it} */
        String replicaHost();

        /** {@return the directory of a media driver P launches and can cut off, or {@code -}} */
        String primaryDriver();

        void cut(PrimaryProcess p);

        void heal(PrimaryProcess p);
    }

    @Test
    void aPrimaryInANetworkNamespaceWhoseLinkGoesDownIsFencedOnceItHealsAndRejoinsWithItsPartitionAppendsQuarantined()
            throws Exception {
        String unavailable = NetworkNamespace.unavailable();
        assumeTrue(unavailable == null, unavailable);
        namespace = NetworkNamespace.create();
        NetworkNamespace ns = namespace;
        partitionScenario(new Network() {
            @Override
            public UnaryOperator<List<String>> launcher() {
                return ns::exec;
            }

            @Override
            public String primaryHost() {
                return ns.inside();
            }

            @Override
            public String replicaHost() {
                return ns.outside();
            }

            @Override
            public String primaryDriver() {
                return "-";
            }

            @Override
            public void cut(PrimaryProcess p) {
                ns.linkDown();
            }

            @Override
            public void heal(PrimaryProcess p) {
                ns.linkUp();
            }
        });
    }

    @Test
    void aPrimaryWhoseDriverLosesEverythingIsFencedOnceItHealsAndRejoinsWithItsPartitionAppendsQuarantined()
            throws Exception {
        String driver = drivers.resolve("primary").toString();
        partitionScenario(new Network() {
            @Override
            public UnaryOperator<List<String>> launcher() {
                return UnaryOperator.identity();
            }

            @Override
            public String primaryHost() {
                return "127.0.0.1";
            }

            @Override
            public String replicaHost() {
                return "127.0.0.1";
            }

            @Override
            public String primaryDriver() {
                return driver;
            }

            @Override
            public void cut(PrimaryProcess p) {
                p.send("cut");
                p.await("cut", 10);
            }

            @Override
            public void heal(PrimaryProcess p) {
                p.send("heal");
                p.await("healed", 10);
            }
        });
    }

    private void partitionScenario(Network network) throws Exception {
        String control = network.primaryHost() + ":" + Ports.loopback().split(":")[1]; // P's host has its own ports
        String firstEndpoint = Ports.on(network.replicaHost());
        String secondEndpoint = Ports.on(network.replicaHost());
        String newControl = Ports.loopback();
        long promotedAt;
        long fencedEnd;
        long newEnd;
        try (PrimaryProcess p = new PrimaryProcess(network.launcher(), primary, control, network.primaryDriver())) {
            // (1) P followed by R1 and R2, a producer appending on P
            p.send("append " + BEFORE_PARTITION);
            p.await("end " + BEFORE_PARTITION, 30);
            Replica r1 = Replica.start(first, ReplicaOptions.of(control, firstEndpoint, ReplicationTest.SECRET));
            Replica r2 = Replica.start(second, ReplicaOptions.of(control, secondEndpoint, ReplicationTest.SECRET));
            try {
                r1.awaitIndex(BEFORE_PARTITION, Duration.ofSeconds(30));
                r2.awaitIndex(BEFORE_PARTITION, Duration.ofSeconds(30));

                // (2) the partition; P's producer goes on
                network.cut(p);
                p.send("produce");
                awaitGrowth(primary, BEFORE_PARTITION, 100);

                // (3) R1 stopped and promoted, appends there; R2 follows R1
                r1.close();
                assertEquals(BEFORE_PARTITION, endOf(first), "nothing of the partition reached R1");
                assertEquals(1, QueueTerms.promote(first));
                promotedAt = QueueTerms.status(first).endIndex();
                assertEquals(BEFORE_PARTITION, promotedAt);
                r2.close();
                assertEquals(BEFORE_PARTITION, endOf(second), "nothing of the partition reached R2");
                r2 = Replica.start(second, ReplicaOptions.of(newControl, Ports.loopback(), ReplicationTest.SECRET));
                newEnd = promotedAt + NEW_PRIMARY_APPENDS;
                try (ReplicationSource source = ReplicationSource.start(first, ReplicationTest.options(newControl));
                     BlitQueue<Tick> queue = BlitQueue.open(first, Tick.class, ReplicationTest.SMALL);
                     Appender<Tick> appender = queue.appender()) {
                    Tick tick = new Tick();
                    for (long n = promotedAt; n < newEnd; n++) {
                        assertEquals(n, appender.append(tick.fillFor(n + NEW_TERM_MARK)));
                    }
                    r2.awaitIndex(newEnd, Duration.ofSeconds(30));
                    source.awaitReplicated(newEnd - 1, 1, Duration.ofSeconds(10));
                }
                r2.close();
                assertEquals(1, QueueTerms.status(second).term(), "R2 took term 1");

                // P cannot know: it is primary of term 0 and takes appends
                assertEquals(QueueTerms.Role.PRIMARY, QueueTerms.status(primary).role());
                assertEquals(0, QueueTerms.status(primary).term());
                awaitGrowth(primary, endOf(primary), 50);
                assertFalse(p.printed("fenced"), p.output());

                try (BlitQueue<Tick> onP = BlitQueue.open(primary, Tick.class, ReplicationTest.SMALL);
                     Appender<Tick> openAcrossTheFence = onP.appender()) {
                    // (4) the partition heals; R2 restarts with its configuration of before the failover
                    network.heal(p);
                    try (Replica stale = Replica.start(second, ReplicaOptions.of(control, secondEndpoint,
                            ReplicationTest.SECRET))) {
                        waitFor(() -> stale.refusal() != null, 30, () -> "P refuses R2: " + p.output());
                        assertTrue(stale.refusal().getMessage().contains("has seen term 1"),
                                stale.refusal().getMessage());
                    }
                    assertEquals("fenced 0 1", p.await("fenced", 10), "the producer's appender, open all along");
                    fencedEnd = endOf(primary);
                    QueueFencedException refused = assertThrows(QueueFencedException.class,
                            () -> openAcrossTheFence.append(new Tick().fillFor(fencedEnd)));
                    assertEquals(0, refused.term());
                    assertEquals(1, refused.newTerm());
                    assertEquals(1, assertThrows(QueueFencedException.class, onP::appender).newTerm());
                    Thread.sleep(500); // P's producer goes on trying
                    assertEquals(fencedEnd, endOf(primary), "nothing appended once fenced");
                    assertEquals(QueueTerms.Role.FENCED, QueueTerms.status(primary).role());
                }
                assertEquals(0, p.stop(), p.output());
                assertFalse(p.printed("appended"), p.output());
            } finally {
                r1.close();
                r2.close();
            }
        }
        assertTrue(fencedEnd > promotedAt + 150, "P appended during the partition: to " + fencedEnd);

        // (5) P rejoins as a replica of R1
        try (ReplicationSource source = ReplicationSource.start(first, ReplicationTest.options(newControl));
             Replica rejoined = Replica.start(primary, ReplicaOptions.of(newControl, Ports.loopback(),
                     ReplicationTest.SECRET).rejoin(true))) {
            // P holds more than R1 until it set its partition appends aside
            waitFor(() -> !rejoined.quarantined().isEmpty(), 30, () -> "P set records aside: " + rejoined.failure());
            rejoined.awaitIndex(newEnd, Duration.ofSeconds(30));
            assertNull(rejoined.failure());
            List<Quarantined> quarantined = rejoined.quarantined();
            assertEquals(1, quarantined.size(), quarantined::toString);
            Quarantined tail = quarantined.getFirst();
            assertEquals(promotedAt, tail.from(), "P's appends of the partition, from the index where it began");
            assertEquals(fencedEnd, tail.end(), "to its end when it was fenced");
            assertHolds(tail.directory(), promotedAt, fencedEnd, 0);
            source.awaitReplicated(newEnd - 1, 1, Duration.ofSeconds(10));
        }
        ReplicationTest.assertSameFiles(first, primary);
        assertHolds(primary, 0, promotedAt, 0);
        assertHolds(primary, promotedAt, newEnd, NEW_TERM_MARK);
        assertEquals(newEnd, endOf(primary));
        assertEquals(QueueTerms.Role.REPLICA, QueueTerms.status(primary).role());
        assertEquals(1, QueueTerms.status(primary).term());
    }

    /** Waits until the queue in {@code dir} holds {@code count} records more than {@code from}. */
    private static void awaitGrowth(Path dir, long from, int count) throws InterruptedException {
        waitFor(() -> endOf(dir) >= from + count, 30, () -> dir + " grew from " + from + " to " + endOf(dir));
    }

    private static void waitFor(BooleanSupplier condition, int seconds, java.util.function.Supplier<String> what)
            throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + seconds + " s: " + what.get());
            }
            Thread.sleep(20);
        }
    }
}
