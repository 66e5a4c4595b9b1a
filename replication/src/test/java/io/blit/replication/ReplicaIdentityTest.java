package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica is its directory: one follower per directory, and one identity per directory that its source counts once,
 * whatever endpoint (or spelling of one) it receives on.
 */
class ReplicaIdentityTest {
    @TempDir
    Path source;
    @TempDir
    Path replica;

    @Test
    void aSecondReplicaOfOneDirectoryIsRefusedAtStartAndTheFirstFollowsOn() throws Exception {
        String control = Ports.loopback();
        try (BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, ReplicationTest.SMALL);
             ReplicationSource server = ReplicationSource.start(source, ReplicationTest.options(control))) {
            Appender<Tick> appender = queue.appender();
            append(appender, 0, 10);
            try (Replica first = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(),
                    ReplicationTest.SECRET))) {
                first.awaitIndex(10, Duration.ofSeconds(30));
                IllegalStateException refused = assertThrows(IllegalStateException.class, () -> Replica.start(replica,
                        ReplicaOptions.of(control, Ports.loopback(), ReplicationTest.SECRET)).close());
                assertTrue(refused.getMessage().contains("replica " + replica + " is followed already (by pid "
                        + ProcessHandle.current().pid()), refused.getMessage());
                append(appender, 10, 20);
                first.awaitIndex(20, Duration.ofSeconds(30));
                server.awaitReplicated(19, 1, Duration.ofSeconds(10));
                assertThrows(TimeoutException.class, () -> server.awaitReplicated(19, 2, Duration.ofMillis(300)),
                        "one directory is one replica");
            }
            try (Replica again = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(),
                    ReplicationTest.SECRET))) {
                append(appender, 20, 30);
                again.awaitIndex(30, Duration.ofSeconds(30));
            }
            appender.close();
        }
    }

    @Test
    void aReplicaRestartedOnAnotherSpellingOfItsEndpointIsCountedOnceUnderOneIdentity() throws Exception {
        String control = Ports.loopback();
        String port = Ports.loopback().substring("127.0.0.1:".length());
        // a long replica timeout: the first session is not ended by silence before the restarted replica subscribes
        SourceOptions options = ReplicationTest.options(control).replicaTimeout(Duration.ofSeconds(30));
        try (BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, ReplicationTest.SMALL);
             ReplicationSource server = ReplicationSource.start(source, options)) {
            Appender<Tick> appender = queue.appender();
            append(appender, 0, 10);
            long id;
            try (Replica first = Replica.start(replica, ReplicaOptions.of(control, "LOCALHOST:" + port,
                    ReplicationTest.SECRET))) {
                server.awaitReplicated(9, 1, Duration.ofSeconds(30));
                List<ReplicaStatus> replicas = server.replicas();
                assertEquals(1, replicas.size());
                assertEquals("localhost:" + port, replicas.get(0).endpoint(), "the endpoint in its one spelling");
                id = replicas.get(0).replicaId();
                assertTrue(id != 0);
            }
            try (Replica restarted = Replica.start(replica, ReplicaOptions.of(control, "127.0.0.1:" + port,
                    ReplicationTest.SECRET))) {
                append(appender, 10, 20);
                restarted.awaitIndex(20, Duration.ofSeconds(30));
                server.awaitReplicated(19, 1, Duration.ofSeconds(10));
                TimeoutException once = assertThrows(TimeoutException.class,
                        () -> server.awaitReplicated(9, 2, Duration.ofMillis(500)));
                assertTrue(once.getMessage().contains("reached 1 of 2"), once.getMessage());
                List<ReplicaStatus> replicas = server.replicas();
                assertEquals(1, replicas.size(), "the restarted replica replaced its session: " + replicas);
                assertEquals(id, replicas.get(0).replicaId(), "the same identity after a restart");
                assertEquals("127.0.0.1:" + port, replicas.get(0).endpoint());
                assertTrue(replicas.get(0).serving());
            }
            appender.close();
        }
    }

    private static void append(Appender<Tick> appender, long from, long to) {
        Tick tick = new Tick();
        for (long n = from; n < to; n++) {
            appender.append(tick.fillFor(n));
        }
    }
}
