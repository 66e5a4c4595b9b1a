package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source that stops (its process ends, an operator restarts it, a failover replaces it) closes its session's
 * publication, and Aeron ends the replica's image of it with an end of stream. The replica notices that and
 * resubscribes at once: a successor on the same endpoint is followed long before the replica's source timeout,
 * which only covers a source that falls silent without closing (a crash, a cut network).
 */
class ReplacedSourceTest {
    /** Far longer than the bound below: a replica that waited for it could not pass. */
    private static final Duration SOURCE_TIMEOUT = Duration.ofSeconds(120);
    /** Bounds a hang: a resubscription and a handshake take milliseconds, this allows for a loaded machine. */
    private static final Duration FOLLOWS_SUCCESSOR_WITHIN = Duration.ofSeconds(40);

    @TempDir
    Path source;
    @TempDir
    Path replicaDir;

    @Test
    void aSourceClosedAndReplacedOnTheSameEndpointIsFollowedWithoutWaitingForTheSourceTimeout() throws Exception {
        String control = Ports.loopback();
        try (SessionLog log = new SessionLog();
             BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, ReplicationTest.SMALL);
             Appender<Tick> appender = queue.appender();
             Replica replica = Replica.start(replicaDir, ReplicaOptions.of(control, Ports.loopback(),
                     ReplicationTest.SECRET).sourceTimeout(SOURCE_TIMEOUT))) {
            Tick tick = new Tick();
            for (long n = 0; n < 1_000; n++) {
                appender.append(tick.fillFor(n));
            }
            try (ReplicationSource first = ReplicationSource.start(source,
                    SourceOptions.of(control, ReplicationTest.SECRET))) {
                replica.awaitIndex(1_000, Duration.ofSeconds(60));
            }
            long closed = System.nanoTime();
            for (long n = 1_000; n < 2_000; n++) {
                appender.append(tick.fillFor(n));
            }
            try (ReplicationSource successor = ReplicationSource.start(source,
                    SourceOptions.of(control, ReplicationTest.SECRET))) {
                replica.awaitIndex(2_000, FOLLOWS_SUCCESSOR_WITHIN);
                long followed = System.nanoTime();
                System.out.printf("ReplacedSourceTest: the replica held the successor's records %d ms after the first"
                        + " source closed (source timeout %d s)%n", (followed - closed) / 1_000_000,
                        SOURCE_TIMEOUT.toSeconds());
                successor.awaitReplicated(1_999, 1, Duration.ofSeconds(30));
            }
            assertNull(replica.failure(), "the replica did not stop");
            assertNull(replica.refusal(), "the replica was not refused");
            assertTrue(replica.running(), "the replica follows on");
            assertEquals(1, replica.resubscriptions(), "one resubscription: when the first source's stream ended");
            assertEquals(2, log.sessionsStarted(), "a session of each source");
        }
        ReplicationTest.assertSameFiles(source, replicaDir);
    }
}
