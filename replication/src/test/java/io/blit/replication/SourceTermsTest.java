package io.blit.replication;

import static io.blit.replication.TickQueues.endOf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.replica.QueueIdentity;
import io.blit.queue.replica.QueueTerms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A term counts only within the queue's own history (docs/failover.md): a real {@link ReplicationSource} facing real
 * {@link Replica}s whose directories hold what an operator's mistake or a restored backup leaves (another queue, a
 * history of another lineage). Each is refused, naming what differs; the source is not fenced, and its appenders go on.
 */
@SuppressWarnings("try") // sources held open for their side effects
class SourceTermsTest {
    @TempDir
    Path a;
    @TempDir
    Path b;
    @TempDir
    Path work;

    /**
     * A replica directory of queue B claiming term 2^32 - 1 (B promoted to it, restored into a replica from a backup)
     * whose {@code --source} names queue A: the queue ids are compared first, so A is not fenced.
     */
    @Test
    void anotherQueuesReplicaClaimingTheHighestTermIsRefusedNamingBothQueuesAndFencesNothing() throws Exception {
        append(a, 0, 10);
        append(b, 0, 10);
        Path highest = work.resolve("b-promoted");
        copyQueue(b, highest);
        QueueTerms.demote(highest, "aeron backup:1", false);
        assertEquals(QueueTerms.MAX_TERM, QueueTerms.promote(highest, QueueTerms.MAX_TERM));
        Path replica = work.resolve("b-replica");
        copyQueue(b, replica);
        QueueTerms.demote(replica, "aeron backup:1", false); // a replica of queue B
        Files.copy(highest.resolve("terms.blitt"), replica.resolve("terms.blitt"), StandardCopyOption.REPLACE_EXISTING);
        assertEquals(QueueTerms.MAX_TERM, QueueTerms.status(replica).term());
        byte[] replicaTerms = Files.readAllBytes(replica.resolve("terms.blitt"));
        UUID idA = QueueIdentity.ofSource(a);
        UUID idB = QueueIdentity.ofReplica(replica);
        assertNotEquals(idA, idB);
        QueueTerms.Status before = QueueTerms.status(a);

        String control = Ports.loopback();
        try (ReplicationSource source = ReplicationSource.start(a, ReplicationTest.options(control));
             Replica wrong = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(),
                     ReplicationTest.SECRET))) {
            HostileNetworkTest.waitFor(() -> wrong.refusal() != null || !wrong.running(), 30);
            assertNull(wrong.failure());
            String refusal = String.valueOf(wrong.refusal());
            assertTrue(refusal.contains(idA.toString()) && refusal.contains(idB.toString()), refusal);
            assertEquals(before, QueueTerms.status(a), "queue A is as it was: not fenced");
            assertEquals(QueueTerms.Role.PRIMARY, QueueTerms.status(a).role());
            append(a, 10, 5); // its appenders go on
            assertEquals(15, endOf(a));
        }
        assertArrayEquals(replicaTerms, Files.readAllBytes(replica.resolve("terms.blitt")), "the replica's history");
    }

    /**
     * Queue P's copies promoted twice, apart: A to term 2 (it serves), R to term 3 (restored from a backup of that
     * other lineage, then pointed at A). R's history [0@0, 3@100] does not hold A's term 2 from index 100: A refuses
     * it naming both histories, and is not fenced.
     */
    @Test
    void aRestoredReplicaOfADivergentHistoryIsRefusedNamingBothHistoriesAndChangesNothing() throws Exception {
        Path p = work.resolve("p");
        append(p, 0, 100);
        copyQueue(p, a);
        QueueTerms.demote(a, "aeron lost-primary:1", false);
        assertEquals(2, QueueTerms.promote(a));
        append(a, 100, 10);
        Path restored = work.resolve("restored");
        copyQueue(p, restored);
        QueueTerms.demote(restored, "aeron lost-primary:1", false);
        assertEquals(3, QueueTerms.promote(restored, 3));
        QueueTerms.demote(restored, "aeron a:1", false); // a replica again, with its history of term 3
        assertEquals(QueueIdentity.ofSource(a), QueueIdentity.ofReplica(restored), "one queue");
        byte[] restoredTerms = Files.readAllBytes(restored.resolve("terms.blitt"));
        QueueTerms.Status before = QueueTerms.status(a);
        assertEquals(2, before.term());

        String control = Ports.loopback();
        try (ReplicationSource source = ReplicationSource.start(a, ReplicationTest.options(control));
             Replica divergent = Replica.start(restored, ReplicaOptions.of(control, Ports.loopback(),
                     ReplicationTest.SECRET))) {
            HostileNetworkTest.waitFor(() -> divergent.refusal() != null || !divergent.running(), 30);
            assertNull(divergent.failure());
            String refusal = String.valueOf(divergent.refusal());
            assertTrue(refusal.contains("[0@0, 3@100]") && refusal.contains("[0@0, 2@100]"), refusal);
            assertFalse(refusal.contains("promote"), refusal);
            assertEquals(before, QueueTerms.status(a), "queue A is as it was: not fenced");
            append(a, 110, 5);
            assertEquals(115, endOf(a));
        }
        assertArrayEquals(restoredTerms, Files.readAllBytes(restored.resolve("terms.blitt")));
        assertTrue(Files.notExists(restored.resolve("quarantine")), "nothing set aside");
        assertEquals(100, endOf(restored));
    }

    static void append(Path dir, long from, int count) {
        try (BlitQueue<Tick> queue = BlitQueue.open(dir, Tick.class, ReplicationTest.SMALL)) {
            Appender<Tick> appender = queue.appender();
            Tick tick = new Tick();
            for (long n = from; n < from + count; n++) {
                assertEquals(n, appender.append(tick.fillFor(n)));
            }
        }
    }

    /** Copies the files of the closed queue in {@code from} into {@code to} (created), as a backup restores them. */
    static void copyQueue(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                if (Files.isRegularFile(file)) {
                    Files.copy(file, to.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
