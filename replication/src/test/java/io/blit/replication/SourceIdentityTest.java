package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.replica.QueueIdentity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source's identity in the handshake: several sources share one secret (several queues, a chain), and an on-path
 * attacker sends a replica's requests to the wrong one (a {@link UdpRelay} that the test switches). The wrong source
 * drops them; the replica neither stops nor follows what it did not mean, and follows on once its way is back.
 */
@SuppressWarnings("try") // sources and replicas held open for their side effects
class SourceIdentityTest {
    @TempDir
    Path a;
    @TempDir
    Path b;
    @TempDir
    Path r1;
    @TempDir
    Path r2;

    @Test
    void aRequestForwardedToTheSourceOfAnotherQueueIsDroppedThereAndTheReplicaFollowsOnWhenItsWayIsBack()
            throws Exception {
        append(a, 0, 10);
        append(b, 0, 10);
        String sourceA = Ports.loopback();
        String sourceB = Ports.loopback();
        try (UdpRelay way = new UdpRelay(sourceA);
             ReplicationSource other = ReplicationSource.start(b, ReplicationTest.options(sourceB));
             Replica follower = Replica.start(r1, ReplicaOptions.of(way.endpoint(), Ports.loopback(),
                     ReplicationTest.SECRET))) {
            SourceOptions optionsA = ReplicationTest.options(sourceA).advertise(way.endpoint());
            try (ReplicationSource first = ReplicationSource.start(a, optionsA)) {
                follower.awaitIndex(10, Duration.ofSeconds(30));
            }
            assertEquals(QueueIdentity.ofSource(a), QueueIdentity.ofReplica(r1), "the replica keeps its source's id");
            assertNotEquals(QueueIdentity.ofSource(a), QueueIdentity.ofSource(b), "two queues, two ids");

            way.target(sourceB); // the attack: the replica's requests now reach the source of another queue
            HostileNetworkTest.waitFor(() -> other.dropped(DropReason.OTHER_SOURCE) >= 3, 30);
            assertTrue(other.replicas().isEmpty(), "no session with a replica that meant another source");
            assertNull(follower.refusal(), "no refusal reaches the replica");
            assertTrue(follower.running());

            way.target(sourceA);
            append(a, 10, 10);
            try (ReplicationSource again = ReplicationSource.start(a, optionsA)) {
                follower.awaitIndex(20, Duration.ofSeconds(30));
            }
        }
        ReplicationTest.assertSameFiles(a, r1);
    }

    @Test
    void aChainWithOneSecretReplicatesEndToEndAndALinkSentToItsOwnServeDoesNotFollowItself() throws Exception {
        append(a, 0, 10);
        String sourceA = Ports.loopback();
        String sourceR1 = Ports.loopback();
        try (UdpRelay way = new UdpRelay(sourceA);
             Replica first = Replica.start(r1, ReplicaOptions.of(way.endpoint(), Ports.loopback(),
                     ReplicationTest.SECRET))) {
            SourceOptions optionsA = ReplicationTest.options(sourceA).advertise(way.endpoint());
            try (ReplicationSource top = ReplicationSource.start(a, optionsA)) {
                first.awaitIndex(10, Duration.ofSeconds(30));
            }
            String secondEndpoint = Ports.loopback();
            try (ReplicationSource middle = ReplicationSource.start(r1, ReplicationTest.options(sourceR1));
                 Replica second = Replica.start(r2, ReplicaOptions.of(sourceR1, secondEndpoint,
                         ReplicationTest.SECRET))) {
                second.awaitIndex(10, Duration.ofSeconds(30));

                way.target(sourceR1); // the attack: the first link's requests reach its own serve
                HostileNetworkTest.waitFor(() -> middle.dropped(DropReason.OTHER_SOURCE) >= 3, 30);
                assertTrue(middle.replicas().stream().allMatch(r -> r.endpoint().equals(secondEndpoint)),
                        "the middle serves only the end of the chain, never itself: " + middle.replicas());
                assertNull(first.refusal());
                assertTrue(first.running());

                way.target(sourceA);
                append(a, 10, 10);
                try (ReplicationSource top = ReplicationSource.start(a, optionsA)) {
                    first.awaitIndex(20, Duration.ofSeconds(30));
                    second.awaitIndex(20, Duration.ofSeconds(30));
                }
            }
        }
        ReplicationTest.assertSameFiles(a, r1);
        ReplicationTest.assertSameFiles(a, r2);
        assertNotNull(QueueIdentity.ofReplica(r2));
        assertEquals(QueueIdentity.ofSource(a), QueueIdentity.ofReplica(r2), "one queue id along the chain");
        assertEquals(-1, Files.mismatch(a.resolve("terms.blitt"), r2.resolve("terms.blitt")));
    }

    private static void append(Path dir, long from, int count) {
        try (BlitQueue<Tick> queue = BlitQueue.open(dir, Tick.class, ReplicationTest.SMALL)) {
            Appender<Tick> appender = queue.appender();
            Tick tick = new Tick();
            for (long n = from; n < from + count; n++) {
                appender.append(tick.fillFor(n));
            }
        }
    }
}
