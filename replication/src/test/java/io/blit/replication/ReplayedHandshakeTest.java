package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.ExclusivePublication;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.replication.wire.Wire;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.agrona.CloseHelper;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Handshake messages captured on the path and replayed: a CONFIRM from another Aeron session, and a slot's worth of
 * SUBSCRIBEs to a source restarted later. Neither keeps a genuine replica out or its acknowledgements from counting.
 */
class ReplayedHandshakeTest {
    private static final int CONTROL_STREAM = 1000;

    @TempDir
    Path source;
    @TempDir
    Path replicas;
    @TempDir
    Path drivers;

    /**
     * An attacker on the path holds the replica's CONFIRM back and replays it first from an Aeron session of its own.
     * The source does not bind the replica's session to the attacker's Aeron session: the replica's acknowledgements
     * count, and {@code awaitReplicated} returns.
     */
    @Test
    void aConfirmReplayedFromAnotherAeronSessionDoesNotDisownTheReplicasAcknowledgements() throws Exception {
        String control = Ports.loopback();
        AtomicReference<TappedDriver.Frame> confirm = new AtomicReference<>();
        AtomicBoolean holding = new AtomicBoolean(true);
        Path replica = replicas.resolve("r");
        try (TappedDriver sourceDriver = new TappedDriver(drivers.resolve("source").toString());
             BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, ReplicationTest.SMALL);
             Attacker attacker = new Attacker(drivers.resolve("attacker").toString())) {
            sourceDriver.dropWhen(frame -> {
                if (!holding.get() || frame.streamId() != CONTROL_STREAM || frame.payload().length < 4
                        || Wire.type(new UnsafeBuffer(frame.payload()), 0, frame.payload().length) != Wire.CONFIRM) {
                    return false;
                }
                confirm.compareAndSet(null, frame);
                return frame.sessionId() == confirm.get().sessionId(); // the replica's, not the attacker's replay
            });
            Appender<Tick> appender = queue.appender();
            HandshakeLivenessTest.append(appender, 0, 100);
            try (SessionLog sessions = new SessionLog();
                 ReplicationSource server = ReplicationSource.start(source,
                    ReplicationTest.options(control).aeronDir(sourceDriver.directory()));
                 Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(),
                         ReplicationTest.SECRET).sourceTimeout(Duration.ofSeconds(10)))) {
                HandshakeLivenessTest.waitFor(() -> confirm.get() != null, 20);
                ExclusivePublication toSource = attacker.publish(control, CONTROL_STREAM, "");
                Attacker.offer(toSource, confirm.get().payload());
                HandshakeLivenessTest.waitFor(() -> sessions.sessionsStarted() > 0
                        || server.dropped(DropReason.FOREIGN) > 0, 10);
                holding.set(false);
                follower.awaitIndex(100, Duration.ofSeconds(30));
                HandshakeLivenessTest.append(appender, 100, 200);
                follower.awaitIndex(200, Duration.ofSeconds(30));
                server.awaitReplicated(199, 1, Duration.ofSeconds(10));
            }
            appender.close();
        }
        ReplicationTest.assertSameFiles(source, replica);
    }

    /**
     * Sixteen replicas' SUBSCRIBEs, one per data endpoint, captured while a source ran, are replayed over and over to
     * that source restarted a minute later (its clock, and the genuine replica's, set a minute ahead): they are stale,
     * cost no handshake, and a replica subscribing then follows.
     */
    @Test
    void subscribesCapturedBeforeARestartKeepNoReplicaOutOfTheRestartedSource() throws Exception {
        String control = Ports.loopback();
        int captured = ReplicationSource.MAX_PENDING;
        Map<String, byte[]> requests = new ConcurrentHashMap<>(); // by data endpoint: the first request seen
        MediaDriver shared = MediaDriver.launch(new MediaDriver.Context()
                .aeronDirectoryName(drivers.resolve("replicas").toString()).threadingMode(ThreadingMode.SHARED)
                .dirDeleteOnStart(true).dirDeleteOnShutdown(true));
        List<Replica> followers = new ArrayList<>();
        try (TappedDriver sourceDriver = new TappedDriver(drivers.resolve("source").toString());
             BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, ReplicationTest.SMALL);
             Attacker attacker = new Attacker(drivers.resolve("attacker").toString())) {
            sourceDriver.listen(frame -> {
                if (frame.streamId() == CONTROL_STREAM && frame.payload().length >= 4
                        && Wire.type(new UnsafeBuffer(frame.payload()), 0, frame.payload().length) == Wire.SUBSCRIBE) {
                    requests.putIfAbsent(endpointOf(frame.payload()), frame.payload());
                }
            });
            Appender<Tick> appender = queue.appender();
            HandshakeLivenessTest.append(appender, 0, 100);
            SourceOptions options = ReplicationTest.options(control).aeronDir(sourceDriver.directory())
                    .replicaTimeout(Duration.ofSeconds(10));
            try (ReplicationSource first = ReplicationSource.start(source, options)) {
                for (int i = 0; i < captured; i++) {
                    followers.add(Replica.start(replicas.resolve("r" + i), ReplicaOptions.of(control, Ports.loopback(),
                            ReplicationTest.SECRET).aeronDir(shared.aeronDirectoryName())));
                }
                for (Replica follower : followers) {
                    follower.awaitIndex(100, Duration.ofSeconds(30));
                }
                followers.forEach(Replica::close);
            }
            assertEquals(captured, requests.size());
            Path genuine = replicas.resolve("genuine");
            LongSupplier aMinuteLater = () -> System.currentTimeMillis() + 60_000;
            try (ReplicationSource restarted = ReplicationSource.start(source, options, aMinuteLater)) {
                ExclusivePublication toSource = attacker.publish(control, CONTROL_STREAM, "");
                for (byte[] request : requests.values()) {
                    Attacker.offer(toSource, request);
                }
                Thread.sleep(200);
                try (Replica follower = Replica.start(genuine, ReplicaOptions.of(control, Ports.loopback(),
                        ReplicationTest.SECRET).aeronDir(shared.aeronDirectoryName()), aMinuteLater)) {
                    long deadline = System.nanoTime() + 30_000_000_000L;
                    while (follower.nextIndex() < 100 && System.nanoTime() < deadline) {
                        for (byte[] request : requests.values()) { // the attacker keeps replaying
                            Attacker.offer(toSource, request);
                        }
                        Thread.sleep(200);
                    }
                    follower.awaitIndex(100, Duration.ofMillis(1));
                    restarted.awaitReplicated(99, 1, Duration.ofSeconds(10));
                }
                assertTrue(restarted.dropped(DropReason.STALE) >= captured, "every replay is stale");
                assertEquals(0, restarted.dropped(DropReason.OVER_LIMIT), "no replay took a handshake slot");
                assertEquals(0, restarted.dropped(DropReason.UNANSWERED), "no replay was challenged");
            }
            appender.close();
            ReplicationTest.assertSameFiles(source, genuine);
        } finally {
            followers.forEach(Replica::close);
            CloseHelper.close(shared);
        }
    }

    /** The data endpoint a SUBSCRIBE names (its length at byte 44, the endpoint from byte 88). */
    private static String endpointOf(byte[] subscribe) {
        UnsafeBuffer buffer = new UnsafeBuffer(subscribe);
        int length = buffer.getShort(44, Wire.ORDER) & 0xFFFF;
        return buffer.getStringWithoutLengthAscii(88, length);
    }
}
