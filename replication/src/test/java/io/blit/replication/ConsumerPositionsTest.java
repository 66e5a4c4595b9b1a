package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.ConsumerPosition;
import io.blit.queue.NamedTailer;
import io.blit.queue.replica.QueueTerms;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Named consumers' committed positions follow the records to a replica, so that a consumer resumes on a promoted
 * replica where it left off on the old primary; a removal follows too. Source and replica in one JVM, each with its
 * own embedded media driver, over UDP on the loopback.
 */
class ConsumerPositionsTest {
    private static final byte[] SECRET = ReplicationTest.SECRET;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path primary;
    @TempDir
    Path replicaDir;

    @Test
    void aConsumerResumesOnThePromotedReplicaAfterItsLastCommitOnTheOldPrimary() throws Exception {
        String control = Ports.loopback();
        long committed = 2_499;
        try (BlitQueue<Tick> queue = BlitQueue.open(primary, Tick.class, ReplicationTest.SMALL);
             Appender<Tick> appender = queue.appender();
             ReplicationSource source = ReplicationSource.start(primary, SourceOptions.of(control, SECRET))) {
            Tick tick = new Tick();
            for (long n = 0; n < 5_000; n++) {
                appender.append(tick.fillFor(n));
            }
            try (Replica replica = Replica.start(replicaDir, ReplicaOptions.of(control, Ports.loopback(), SECRET))) {
                try (NamedTailer<Tick> c = queue.tailer("c")) {
                    Tick in = new Tick();
                    for (long n = 0; n <= committed; n++) {
                        assertTrue(c.readNext(in) && in.isConsistentFor(n), "message " + n);
                    }
                    c.commit();
                    // read further without committing: the replica must not take an uncommitted read
                    assertTrue(c.readNext(in));
                }
                replica.awaitIndex(5_000, WAIT);
                source.awaitReplicated(4_999, 1, WAIT);
                Map<String, Long> positions = awaitPositions(replicaDir, p -> Long.valueOf(committed).equals(p.get("c")));
                assertEquals(Map.of("c", committed), positions, "the replica's consumers");
            }
        }
        // the primary is gone (closed), the replica's follower stopped: promote it
        assertEquals(1, QueueTerms.promote(replicaDir));
        try (BlitQueue<Tick> promoted = BlitQueue.open(replicaDir, Tick.class);
             NamedTailer<Tick> c = promoted.tailer("c")) {
            Tick in = new Tick();
            assertEquals(committed, c.lastReadIndex(), "the consumer's committed index on the new primary");
            assertTrue(c.readNext(in), "a message after the last commit");
            assertTrue(in.isConsistentFor(committed + 1), "the first message read on the new primary is k + 1, got "
                    + in.sequence);
        }
    }

    @Test
    void aRemovalFollowsAndPositionsMoveBothWays() throws Exception {
        String control = Ports.loopback();
        try (BlitQueue<Tick> queue = BlitQueue.open(primary, Tick.class, ReplicationTest.SMALL);
             Appender<Tick> appender = queue.appender();
             ReplicationSource source = ReplicationSource.start(primary, SourceOptions.of(control, SECRET));
             Replica replica = Replica.start(replicaDir, ReplicaOptions.of(control, Ports.loopback(), SECRET))) {
            Tick tick = new Tick();
            for (long n = 0; n < 1_000; n++) {
                appender.append(tick.fillFor(n));
            }
            replica.awaitIndex(1_000, WAIT); // it holds a queue: opening its directory creates none
            try (NamedTailer<Tick> a = queue.tailer("a"); NamedTailer<Tick> b = queue.tailer("b")) {
                a.seek(700);
                a.commit();
                b.seek(300);
                b.commit();
            }
            awaitPositions(replicaDir, p -> p.equals(Map.of("a", 699L, "b", 299L)));
            try (NamedTailer<Tick> a = queue.tailer("a")) {
                a.seek(100); // back: the replica follows the source's position wherever it moves
                a.commit();
            }
            assertTrue(queue.removeConsumer("b"));
            Map<String, Long> after = awaitPositions(replicaDir, p -> p.equals(Map.of("a", 99L)));
            assertEquals(Map.of("a", 99L), after, "b removed on the replica, a moved back");
            assertTrue(replica.running());
        }
    }

    /** The replica's consumers and committed indices, once {@code done} holds of them (or after {@link #WAIT}). */
    static Map<String, Long> awaitPositions(Path dir, Predicate<Map<String, Long>> done) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        Map<String, Long> positions = Map.of();
        while (System.nanoTime() < deadline) {
            positions = positionsOf(dir);
            if (done.test(positions)) {
                return positions;
            }
            Thread.sleep(20);
        }
        throw new TimeoutException("the replica's consumers are " + positions);
    }

    /** The consumers of the queue in {@code dir}, a replica that holds records already (opening it creates nothing). */
    static Map<String, Long> positionsOf(Path dir) {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir)) {
            return queue.consumers().stream()
                    .collect(Collectors.toMap(ConsumerPosition::name, ConsumerPosition::committedIndex));
        }
    }
}
