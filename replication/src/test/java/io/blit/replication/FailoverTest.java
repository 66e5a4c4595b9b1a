package io.blit.replication;

import static io.blit.replication.TickQueues.assertHolds;
import static io.blit.replication.TickQueues.endOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.Quarantined;
import io.blit.queue.replica.QueueTerms;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failover end to end: a primary in a process of its own appends while it awaits each batch's acknowledgement by a
 * replica; the replica stops (the primary's next batch stays unacknowledged), the primary is killed with SIGKILL;
 * the replica is promoted and takes appends in the new term; the old primary rejoins it as a replica. Every
 * acknowledged record is on the new primary, both queues are identical up to the new end, and the old primary's
 * records after the promotion index — exactly its unacknowledged tail — are in its quarantine queue.
 */
class FailoverTest {
    /** What the new primary appends, told apart from the old primary's records at the same indices. */
    private static final long NEW_TERM_MARK = 1_000_000_000L;

    @TempDir
    Path primary;
    @TempDir
    Path replica;

    @Test
    void aKilledPrimarysReplicaTakesOverAndTheOldPrimaryRejoinsWithItsUnacknowledgedTailQuarantined() throws Exception {
        String control = Ports.loopback();
        Process child = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "--sun-misc-unsafe-memory-access=allow", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), AckingPrimary.class.getName(), primary.toString(),
                control).redirectErrorStream(true).start();
        AtomicLong acked = new AtomicLong(-1);
        StringBuilder output = new StringBuilder();
        Thread reader = Thread.ofPlatform().daemon().start(() -> readAcks(child, acked, output));
        long promotedAt;
        try {
            try (Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(),
                    ReplicationTest.SECRET))) {
                HandshakeLivenessTest.waitFor(() -> acked.get() >= 2_000, 60);
                assertTrue(follower.running(), () -> String.valueOf(follower.failure()));
            } // the replica stops: the primary appends its next batch and waits for an acknowledgement that never comes
            long replicaEnd = endOf(replica);
            // the primary awaits an acknowledgement of a whole batch beyond what the replica holds
            boolean waiting = waitUntil(() -> {
                long end = endOf(primary);
                return end > replicaEnd && end % AckingPrimary.BATCH == 0;
            }, 10);
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            assertEquals(137, child.exitValue(), "killed by SIGKILL: " + output);
            reader.join(10_000);
            if (!waiting) { // the replica took the last batch but closed before it acknowledged it: no tail yet
                try (BlitQueue<Tick> queue = BlitQueue.open(primary, Tick.class, ReplicationTest.SMALL);
                     Appender<Tick> appender = queue.appender()) {
                    HandshakeLivenessTest.append(appender, endOf(primary), endOf(primary) + AckingPrimary.BATCH);
                }
            }

            // promote the replica: the primary of term 1 from its end
            assertEquals(1, QueueTerms.promote(replica));
            promotedAt = QueueTerms.status(replica).endIndex();
            assertEquals(QueueTerms.Role.PRIMARY, QueueTerms.status(replica).role());
        } finally {
            child.destroyForcibly();
        }
        long lastAcked = acked.get();
        long oldEnd = endOf(primary);
        assertTrue(lastAcked < promotedAt, "every acknowledged record (to " + lastAcked + ") is on the promoted replica"
                + " (to " + (promotedAt - 1) + ")");
        assertTrue(oldEnd > promotedAt, "the old primary holds records the replica never got: " + oldEnd + " > "
                + promotedAt);

        String newControl = Ports.loopback();
        long newEnd = promotedAt + 500;
        try (BlitQueue<Tick> queue = BlitQueue.open(replica, Tick.class, ReplicationTest.SMALL);
             Appender<Tick> appender = queue.appender();
             ReplicationSource server = ReplicationSource.start(replica, ReplicationTest.options(newControl))) {
            Tick tick = new Tick();
            for (long n = promotedAt; n < newEnd; n++) {
                assertEquals(n, appender.append(tick.fillFor(n + NEW_TERM_MARK)), "appends continue on the new primary");
            }
            try (Replica rejoined = Replica.start(primary, ReplicaOptions.of(newControl, Ports.loopback(),
                    ReplicationTest.SECRET).rejoin(true))) {
                rejoined.awaitIndex(newEnd - 1, Duration.ofSeconds(60));
                assertNull(rejoined.failure());
                List<Quarantined> quarantined = rejoined.quarantined();
                assertEquals(1, quarantined.size(), quarantined::toString);
                Quarantined tail = quarantined.getFirst();
                assertEquals(promotedAt, tail.from());
                assertEquals(oldEnd, tail.end());
                assertTrue(tail.directory().startsWith(primary.resolve("quarantine")), tail.directory().toString());
                assertHolds(tail.directory(), promotedAt, oldEnd, 0); // the old primary's own records, unacknowledged
                server.awaitReplicated(newEnd - 1, 1, Duration.ofSeconds(30));
            }
        }
        ReplicationTest.assertSameFiles(replica, primary);
        assertHolds(primary, 0, promotedAt, 0);
        assertHolds(primary, promotedAt, newEnd, NEW_TERM_MARK);
        assertEquals(QueueTerms.Role.REPLICA, QueueTerms.status(primary).role());
        assertEquals(1, QueueTerms.status(primary).term());
    }

    /** Reads the child's lines, keeping the last acknowledged index. */
    private static void readAcks(Process child, AtomicLong acked, StringBuilder output) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith("acked ")) {
                    acked.set(Long.parseLong(line.substring(6)));
                } else {
                    synchronized (output) {
                        output.append(line).append('\n');
                    }
                }
            }
        } catch (java.io.IOException ended) {
            // the child was killed
        }
    }

    private static boolean waitUntil(java.util.function.BooleanSupplier condition, int seconds)
            throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }
}
