package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.ExclusivePublication;
import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.replication.wire.Batch;
import io.blit.replication.wire.HmacSha256;
import io.blit.replication.wire.Keys;
import io.blit.replication.wire.Refuse;
import io.blit.replication.wire.Sealer;
import io.blit.replication.wire.Session;
import io.blit.replication.wire.Subscribe;
import io.blit.replication.wire.Wire;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Peers that do not hold the secret, on and off the path, against a source and a replica on the loopback: each
 * attack is made while a real replica follows, and each test ends with the replica still following and its files
 * byte-identical to the source's. Frames are seen and crafted with {@link TappedDriver} and {@link Attacker}.
 */
class HostileNetworkTest {
    static final QueueOptions SMALL = QueueOptions.defaults().segmentSize(1 << 20);
    private static final int CONTROL_STREAM = 1000;
    private static final int DATA_STREAM = 1001;

    @TempDir
    Path source;
    @TempDir
    Path replica;
    @TempDir
    Path drivers;

    /**
     * A SUBSCRIBE captured on the path and replayed — while its session runs and after its replica is gone — neither
     * ends the live session nor gives the attacker a session whose acknowledgements count: {@code awaitReplicated}
     * does not return for records no replica holds.
     */
    @Test
    void aReplayedSubscribeGetsNoSessionAndForgedAcksDoNotCount() throws Exception {
        String control = Ports.loopback();
        AtomicReference<byte[]> captured = new AtomicReference<>();
        try (TappedDriver sourceDriver = new TappedDriver(drivers.resolve("source").toString());
             BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, SMALL);
             Attacker attacker = new Attacker(drivers.resolve("attacker").toString())) {
            captureFirstSubscribe(sourceDriver, captured);
            Appender<Tick> appender = queue.appender();
            append(appender, 0, 1_000);
            try (ReplicationSource server = ReplicationSource.start(source,
                    ReplicationTest.options(control).aeronDir(sourceDriver.directory()).replicaTimeout(Duration.ofSeconds(1)))) {
                try (Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(),
                        ReplicationTest.SECRET))) {
                    follower.awaitIndex(1_000, Duration.ofSeconds(30));
                    assertNotNull(captured.get(), "the tap saw the replica's request");
                    ExclusivePublication toSource = attacker.publish(control, CONTROL_STREAM, "");
                    for (int i = 0; i < 5; i++) {
                        Attacker.offer(toSource, captured.get());
                    }
                    append(appender, 1_000, 2_000);
                    follower.awaitIndex(2_000, Duration.ofSeconds(30));
                    server.awaitReplicated(1_999, 1, Duration.ofSeconds(10));
                    assertEquals(1, server.replicas().size(), "the replay started no session");
                }
                // the replica is gone: the replay now reaches the source's check of seen nonces
                ExclusivePublication toSource = attacker.publish(control, CONTROL_STREAM, "");
                waitFor(() -> server.replicas().stream().noneMatch(ReplicaStatus::serving), 30);
                for (int i = 0; i < 5; i++) {
                    Attacker.offer(toSource, captured.get());
                }
                long replicaId = Subscribe.replicaId(new UnsafeBuffer(captured.get()));
                for (int i = 0; i < 200; i++) { // ACKs claiming everything, sealed with no key the session has
                    Attacker.offer(toSource, forgedAck(replicaId, i + 1_000, Long.MAX_VALUE / 2));
                }
                append(appender, 2_000, 3_000);
                waitFor(() -> server.dropped(DropReason.REPLAYED) >= 5, 10);
                waitFor(() -> server.dropped(DropReason.FOREIGN) >= 200, 10);
                TimeoutException notHeld = assertThrows(TimeoutException.class,
                        () -> server.awaitReplicated(2_500, 1, Duration.ofMillis(500)));
                assertTrue(notHeld.getMessage().contains("holds up to 1999"), notHeld.getMessage());
                assertEquals(1, server.replicas().size());
            }
            appender.close();
        }
    }

    /** After a restart of the source (its seen nonces forgotten), a replay costs one unanswered challenge: no session. */
    @Test
    void aReplayedSubscribeToARestartedSourceIsChallengedAndGoesUnanswered() throws Exception {
        String control = Ports.loopback();
        AtomicReference<byte[]> captured = new AtomicReference<>();
        try (TappedDriver sourceDriver = new TappedDriver(drivers.resolve("source").toString());
             BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, SMALL);
             Attacker attacker = new Attacker(drivers.resolve("attacker").toString())) {
            captureFirstSubscribe(sourceDriver, captured);
            Appender<Tick> appender = queue.appender();
            append(appender, 0, 100);
            SourceOptions options = ReplicationTest.options(control).aeronDir(sourceDriver.directory())
                    .replicaTimeout(Duration.ofSeconds(1));
            String endpoint = Ports.loopback();
            try (Replica follower = Replica.start(replica, ReplicaOptions.of(control, endpoint,
                    ReplicationTest.SECRET))) {
                try (ReplicationSource first = ReplicationSource.start(source, options)) {
                    follower.awaitIndex(100, Duration.ofSeconds(30));
                }
                try (ReplicationSource restarted = ReplicationSource.start(source, options)) {
                    ExclusivePublication toSource = attacker.publish(control, CONTROL_STREAM, "");
                    Attacker.offer(toSource, captured.get());
                    waitFor(() -> restarted.dropped(DropReason.UNANSWERED) >= 1, 30);
                    append(appender, 100, 200);
                    follower.awaitIndex(200, Duration.ofSeconds(30)); // the genuine replica resubscribed meanwhile
                    assertTrue(restarted.replicas().stream().allMatch(r -> r.endpoint().equals(endpoint)));
                    assertEquals(1, restarted.replicas().stream().filter(ReplicaStatus::serving).count());
                }
            }
            appender.close();
        }
        ReplicationTest.assertSameFiles(source, replica);
    }

    /**
     * Refusals nobody with the secret sealed: the old unsigned kind, a session REFUSE with a made-up tag, and a
     * genuine refusal of another (earlier) handshake replayed. None stops the replica, during its handshake or after.
     */
    @Test
    void unsignedForgedAndReplayedRefusalsDoNotStopAReplica() throws Exception {
        String control = Ports.loopback();
        String endpoint = Ports.loopback();
        try (BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, SMALL);
             Attacker attacker = new Attacker(drivers.resolve("attacker").toString());
             Replica follower = Replica.start(replica, ReplicaOptions.of(control, endpoint, ReplicationTest.SECRET))) {
            Appender<Tick> appender = queue.appender();
            append(appender, 0, 500);
            ExclusivePublication toReplica = attacker.publish(endpoint, DATA_STREAM, "");
            sendRefusals(toReplica);
            Thread.sleep(300);
            assertTrue(follower.running(), "the replica survived refusals during its handshake");
            assertNull(follower.refusal());
            try (ReplicationSource server = ReplicationSource.start(source, ReplicationTest.options(control))) {
                follower.awaitIndex(500, Duration.ofSeconds(30));
                sendRefusals(toReplica);
                append(appender, 500, 1_000);
                follower.awaitIndex(1_000, Duration.ofSeconds(30));
                assertTrue(follower.running());
                assertNull(follower.refusal());
                waitFor(() -> follower.dropped(DropReason.FOREIGN) >= 6, 10); // the attacker's image is polled apart
            }
            appender.close();
        }
        ReplicationTest.assertSameFiles(source, replica);
    }

    private static void sendRefusals(ExclusivePublication toReplica) {
        byte[] unsigned = new byte[64]; // protocol 2's REFUSE: type 3, a replica id and nonce, a reason, no valid MAC
        UnsafeBuffer old = new UnsafeBuffer(unsigned);
        old.putInt(0, 3, Wire.ORDER);
        Attacker.offer(toReplica, unsigned);
        UnsafeBuffer forged = new UnsafeBuffer(new byte[256]);
        int length = Refuse.encode(forged, "stop", new Sealer(new byte[32])); // a key that is not the session's
        Attacker.offer(toReplica, Arrays.copyOf(forged.byteArray(), length));
        byte[][] earlier = Keys.session(ReplicationTest.SECRET, new byte[16], new byte[16],
                Wire.NO_QUEUE, "127.0.0.1:1"); // a captured refusal
        length = Refuse.encode(forged, "the source queue no longer holds index 0", new Sealer(earlier[0]));
        Attacker.offer(toReplica, Arrays.copyOf(forged.byteArray(), length));
    }

    /**
     * A flood of requests without the secret — well-formed ones, and ones whose data endpoint smuggles channel
     * parameters (a 1 GiB term, a third party's address) — costs the source no thread, no publication (nothing new
     * in its driver's directory) and no log line per request: only counters and at most one summary line. A signed
     * request with such an endpoint (a misconfigured replica) is refused by the endpoint grammar, not published to.
     */
    @Test
    void aFloodOfRequestsWithoutTheSecretCostsNoThreadNoPublicationAndNoLogLineEach() throws Exception {
        String control = Ports.loopback();
        Logger logger = Logger.getLogger("io.blit.replication");
        AtomicInteger lines = new AtomicInteger();
        Handler counter = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.incrementAndGet();
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        try (TappedDriver sourceDriver = new TappedDriver(drivers.resolve("source").toString());
             BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, SMALL);
             Attacker attacker = new Attacker(drivers.resolve("attacker").toString());
             ReplicationSource server = ReplicationSource.start(source,
                     ReplicationTest.options(control).aeronDir(sourceDriver.directory()))) {
            append(queue.appender(), 0, 10);
            Path publications = Path.of(sourceDriver.directory(), "publications");
            long threadsBefore = blitThreads();
            long logBuffersBefore = files(publications);
            ExclusivePublication toSource = attacker.publish(control, CONTROL_STREAM, "");
            logger.addHandler(counter);
            SplittableRandom random = new SplittableRandom(24);
            HmacSha256 notTheSecret = new HmacSha256(Keys.subscribeKey("not the secret, just as long as it".getBytes()));
            HmacSha256 theSecret = new HmacSha256(Keys.subscribeKey(ReplicationTest.SECRET));
            String injection = "x|term-length=1073741824|endpoint=127.0.0.1:9";
            int unsigned = 3_000;
            for (int i = 0; i < unsigned; i++) {
                String endpoint = i % 2 == 0 ? injection : "127.0.0.1:" + (10_000 + i);
                Attacker.offer(toSource, subscribe(random, endpoint, control, notTheSecret));
            }
            for (int i = 0; i < 50; i++) {
                Attacker.offer(toSource, subscribe(random, injection, control, theSecret));
            }
            waitFor(() -> server.dropped(DropReason.UNSIGNED) == unsigned && server.dropped(DropReason.MALFORMED) == 50,
                    30);
            Thread.sleep(200);
            logger.removeHandler(counter);
            assertEquals(threadsBefore, blitThreads(), "no thread started for a stranger");
            assertEquals(logBuffersBefore, files(publications), "no publication made for a stranger");
            assertTrue(lines.get() <= 1, lines.get() + " log lines for " + unsigned + " requests");
            assertEquals(0, server.replicas().size());
        } finally {
            logger.removeHandler(counter);
        }
    }

    /**
     * Messages from a peer with its own driver and no handshake at all: empty ones (4,096 of them, across the ends of
     * its 64 KiB terms) and random bytes. The replica drops every one without reading past its length and follows on.
     */
    @Test
    void emptyAndRandomMessagesFromAStrangerDoNotStopAReplica() throws Exception {
        String control = Ports.loopback();
        String endpoint = Ports.loopback();
        try (BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, SMALL);
             Attacker attacker = new Attacker(drivers.resolve("attacker").toString());
             ReplicationSource server = ReplicationSource.start(source, ReplicationTest.options(control));
             Replica follower = Replica.start(replica, ReplicaOptions.of(control, endpoint, ReplicationTest.SECRET))) {
            Appender<Tick> appender = queue.appender();
            append(appender, 0, 1_000);
            follower.awaitIndex(1_000, Duration.ofSeconds(30));
            ExclusivePublication toReplica = attacker.publish(endpoint, DATA_STREAM, "|term-length=65536");
            for (int i = 0; i < 4_096; i++) {
                Attacker.offer(toReplica, new byte[0]);
            }
            SplittableRandom random = new SplittableRandom(5);
            for (int i = 0; i < 1_000; i++) {
                byte[] junk = new byte[random.nextInt(1, 200)];
                random.nextBytes(junk);
                if (i % 3 == 0 && junk.length >= 4) {
                    new UnsafeBuffer(junk).putInt(0, Wire.BATCH + random.nextInt(-1, 2), Wire.ORDER);
                }
                Attacker.offer(toReplica, junk);
            }
            append(appender, 1_000, 2_000);
            follower.awaitIndex(2_000, Duration.ofSeconds(30));
            waitFor(() -> follower.dropped(DropReason.FOREIGN) + follower.dropped(DropReason.UNSIGNED) >= 5_096, 20);
            assertTrue(follower.running());
            assertNull(follower.failure());
            server.awaitReplicated(1_999, 1, Duration.ofSeconds(10));
            appender.close();
        }
        ReplicationTest.assertSameFiles(source, replica);
    }

    /**
     * An attacker on the path injects a BATCH as the accepted session's next frame (its session id, term and offset
     * read off the wire), winning the race against the source's own next message there. The replica finds the tag
     * wrong and drops it; the genuine message Aeron then discards leaves a gap in the session's sequence, so the
     * replica resubscribes and ends byte-identical: nothing injected is ever written.
     */
    @Test
    void aBatchInjectedAsTheAcceptedSessionIsDroppedAndTheReplicaResynchronises() throws Exception {
        String control = Ports.loopback();
        String endpoint = Ports.loopback();
        AtomicReference<TappedDriver.Frame> last = new AtomicReference<>();
        AtomicInteger session = new AtomicInteger();
        try (TappedDriver replicaDriver = new TappedDriver(drivers.resolve("replica").toString());
             BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, SMALL);
             Attacker attacker = new Attacker(drivers.resolve("attacker").toString());
             ReplicationSource server = ReplicationSource.start(source, ReplicationTest.options(control));
             Replica follower = Replica.start(replica, ReplicaOptions.of(control, endpoint, ReplicationTest.SECRET)
                     .aeronDir(replicaDriver.directory()).sourceTimeout(Duration.ofMillis(700)))) {
            replicaDriver.listen(frame -> {
                if (frame.streamId() != DATA_STREAM) {
                    return;
                }
                if (frame.payload().length >= 4
                        && Wire.type(new UnsafeBuffer(frame.payload()), 0, frame.payload().length) == Wire.CHALLENGE) {
                    session.set(frame.sessionId());
                }
                if (frame.sessionId() == session.get()) {
                    last.set(frame);
                }
            });
            Appender<Tick> appender = queue.appender();
            append(appender, 0, 1_000);
            follower.awaitIndex(1_000, Duration.ofSeconds(30));
            for (int attempt = 0; attempt < 50 && follower.dropped(DropReason.FORGED) == 0; attempt++) {
                TappedDriver.Frame at = last.get();
                attacker.inject(endpoint, at.sessionId(), DATA_STREAM, at.termId(), at.nextOffset(), forgedBatch());
                Thread.sleep(150);
            }
            assertTrue(follower.dropped(DropReason.FORGED) >= 1, "the injected batch reached the replica and was dropped");
            append(appender, 1_000, 3_000);
            follower.awaitIndex(3_000, Duration.ofSeconds(30));
            server.awaitReplicated(2_999, 1, Duration.ofSeconds(10));
            assertTrue(follower.running());
            assertNull(follower.failure());
            appender.close();
        }
        ReplicationTest.assertSameFiles(source, replica);
    }

    /** Keeps the first SUBSCRIBE the source's driver receives, as an observer on the path would. */
    private static void captureFirstSubscribe(TappedDriver sourceDriver, AtomicReference<byte[]> captured) {
        sourceDriver.listen(frame -> {
            if (frame.streamId() == CONTROL_STREAM && frame.payload().length >= 4
                    && Wire.type(new UnsafeBuffer(frame.payload()), 0, frame.payload().length) == Wire.SUBSCRIBE) {
                captured.compareAndSet(null, frame.payload());
            }
        });
    }

    /** A BATCH of the same length as a HEARTBEAT (so that it takes exactly the genuine message's place): a run head, no key. */
    private static byte[] forgedBatch() {
        UnsafeBuffer batch = new UnsafeBuffer(new byte[64]);
        Batch.start(batch, Long.MAX_VALUE / 2);
        Batch.count(batch, 1);
        batch.putInt(Session.BODY_AT, Batch.ENTRY_RECORD, Wire.ORDER);
        batch.setMemory(Session.BODY_AT + 8, 16, (byte) 0x5A);
        return Arrays.copyOf(batch.byteArray(), 40);
    }

    private static byte[] forgedAck(long replicaId, long sequence, long committed) {
        byte[] ack = new byte[56];
        UnsafeBuffer buffer = new UnsafeBuffer(ack);
        Session.head(buffer, Wire.ACK, 0, sequence);
        buffer.putLong(16, replicaId, Wire.ORDER);
        buffer.putLong(24, committed, Wire.ORDER);
        buffer.putLong(32, -1, Wire.ORDER);
        return ack;
    }

    private static byte[] subscribe(SplittableRandom random, String endpoint, String source, HmacSha256 mac) {
        byte[] nonce = new byte[16];
        random.nextBytes(nonce);
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        int length = Subscribe.encode(buffer, new Subscribe.Request(random.nextLong(), nonce, -1, 0, endpoint, null, null,
                System.currentTimeMillis(), Wire.NO_QUEUE, Endpoint.canonical(source), java.util.List.of()),
                mac);
        return Arrays.copyOf(buffer.byteArray(), length);
    }

    private static long blitThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("blit-replication")).count();
    }

    private static long files(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.count();
        }
    }

    private static void append(Appender<Tick> appender, long from, long to) {
        Tick tick = new Tick();
        for (long n = from; n < to; n++) {
            assertEquals(n, appender.append(tick.fillFor(n)));
        }
    }

    static void waitFor(BooleanSupplier condition, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + seconds + " s");
            }
            Thread.sleep(20);
        }
    }
}
