package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.agrona.CloseHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Handshakes that fail for reasons nobody chose — traffic lost one way while a replica subscribes, more replicas
 * resubscribing at once than the source has handshake slots — never lock a replica out: each new attempt carries a
 * fresh nonce, a source remembers a nonce only once it took the request, pending handshakes expire, and a full source
 * makes room by dropping its oldest pending handshake.
 */
class HandshakeLivenessTest {
    @TempDir
    Path source;
    @TempDir
    Path replicas;
    @TempDir
    Path drivers;

    /**
     * The replica follows; then everything the source sends it is lost (its session goes silent, it resubscribes into
     * the loss) for 6 s from the start of that handshake. Once the loss ends it follows again (a
     * reconnection and a new handshake, which may sit out a source timeout: bounded by 30 s).
     */
    @Test
    void aReplicaWhoseIncomingTrafficIsLostForSixSecondsDuringAHandshakeFollowsAgainOnceItEnds()
            throws Exception {
        String control = Ports.loopback();
        Path replica = replicas.resolve("r");
        try (BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, ReplicationTest.SMALL);
             LossyDriver replicaDriver = new LossyDriver(drivers.resolve("replica").toString());
             ReplicationSource server = ReplicationSource.start(source, ReplicationTest.options(control));
             Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(),
                     ReplicationTest.SECRET).aeronDir(replicaDriver.directory()))) {
            Appender<Tick> appender = queue.appender();
            append(appender, 0, 100);
            follower.awaitIndex(100, Duration.ofSeconds(30));
            replicaDriver.dropIncoming(true);
            long resubscriptions = follower.resubscriptions();
            waitFor(() -> follower.resubscriptions() > resubscriptions, 30);
            Thread.sleep(6_000); // the handshake the replica just started meets 6 s of loss
            append(appender, 100, 200);
            replicaDriver.dropIncoming(false);
            follower.awaitIndex(200, Duration.ofSeconds(30));
            server.awaitReplicated(199, 1, Duration.ofSeconds(5));
            appender.close();
        }
        ReplicationTest.assertSameFiles(source, replica);
    }

    /**
     * Twenty replicas wait for a source that is down; when it comes up, all twenty requests reach it while none of its
     * challenges can reach them yet (their receiving side drops everything for 1.5 s): four more than its handshake
     * slots. Every replica ends up following.
     */
    @Test
    void twentyReplicasSubscribingAtOnceToSixteenHandshakeSlotsAllFollow() throws Exception {
        String control = Ports.loopback();
        int count = 20;
        assertTrue(count > ReplicationSource.MAX_PENDING);
        LossyDriver shared = new LossyDriver(drivers.resolve("replicas").toString());
        List<Replica> followers = new ArrayList<>();
        try (BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, ReplicationTest.SMALL)) {
            Appender<Tick> appender = queue.appender();
            append(appender, 0, 100);
            for (int i = 0; i < count; i++) {
                followers.add(Replica.start(replicas.resolve("r" + i), ReplicaOptions.of(control, Ports.loopback(),
                        ReplicationTest.SECRET).aeronDir(shared.directory())));
            }
            shared.dropReceived(true);
            Thread.sleep(1_000); // every replica asks a source that is not there yet
            try (ReplicationSource server = ReplicationSource.start(source, ReplicationTest.options(control))) {
                Thread.sleep(1_500);
                shared.dropReceived(false);
                for (Replica follower : followers) {
                    follower.awaitIndex(100, Duration.ofSeconds(30));
                }
                server.awaitReplicated(99, count, Duration.ofSeconds(10));
                assertEquals(count, server.replicas().stream().filter(ReplicaStatus::serving).count());
            }
            appender.close();
        } finally {
            followers.forEach(Replica::close);
            CloseHelper.close(shared);
        }
    }

    static void append(Appender<Tick> appender, long from, long to) {
        Tick tick = new Tick();
        for (long n = from; n < to; n++) {
            assertEquals(n, appender.append(tick.fillFor(n)));
        }
    }

    static void waitFor(java.util.function.BooleanSupplier condition, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + seconds + " s");
            }
            Thread.sleep(20);
        }
    }
}
