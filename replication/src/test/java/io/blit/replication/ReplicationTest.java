package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.core.BlockCopier;
import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.Tailer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A source and replicas in one JVM, each with its own embedded media driver, over UDP on the loopback. */
@SuppressWarnings("try") // a source or replica held open only for its side effects
class ReplicationTest {
    static final byte[] SECRET = "a shared secret of the replication tests".getBytes(StandardCharsets.UTF_8);
    static final QueueOptions SMALL = QueueOptions.defaults().segmentSize(1 << 20);
    /**
     * For tests that count one session over a whole run: a stall of a loaded machine longer than the default source
     * timeout (2 s) would legitimately start a second one.
     */
    static final Duration ONE_SESSION_SOURCE_TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path source;
    @TempDir
    Path replica;

    @Test
    void aReplicaCatchesUpThenFollowsLiveAndHoldsTheSameBytes() throws Exception {
        String control = Ports.loopback();
        try (BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, SMALL)) {
            Appender<Tick> appender = queue.appender();
            Tick tick = new Tick();
            for (long n = 0; n < 50_000; n++) {
                appender.append(tick.fillFor(n));
            }
            try (SessionLog log = new SessionLog();
                 ReplicationSource server = ReplicationSource.start(source, SourceOptions.of(control, SECRET));
                 Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(), SECRET)
                         .sourceTimeout(ONE_SESSION_SOURCE_TIMEOUT))) {
                follower.awaitIndex(50_000, Duration.ofSeconds(30));
                for (long n = 50_000; n < 100_000; n++) {
                    long index = appender.append(tick.fillFor(n));
                    if (n % 10_000 == 0) {
                        server.awaitReplicated(index, 1, Duration.ofSeconds(30));
                    }
                }
                follower.awaitIndex(100_000, Duration.ofSeconds(30));
                server.awaitReplicated(99_999, 1, Duration.ofSeconds(5));
                Thread.sleep(300); // idle: acknowledgements of the last batch and heartbeats, no new batch
                assertEquals(1, log.sessionsStarted(), "one session served the whole run, idle pauses included");
                assertTrue(server.replicas().get(0).serving());
                TimeoutException notYet = assertThrows(TimeoutException.class,
                        () -> server.awaitReplicated(100_000, 1, Duration.ofMillis(50)));
                assertTrue(notYet.getMessage().contains("holds up to 99999, 1 behind"), notYet.getMessage());
            }
            appender.close();
        }
        assertSameFiles(source, replica);
        try (BlitQueue<Tick> copy = BlitQueue.open(replica, Tick.class)) {
            Tailer<Tick> tailer = copy.tailer();
            Tick in = new Tick();
            for (long n = 0; n < 100_000; n++) {
                assertTrue(tailer.readNext(in) && in.isConsistentFor(n), "message " + n);
            }
            IllegalStateException refused = assertThrows(IllegalStateException.class, copy::appender);
            assertTrue(refused.getMessage().contains("is a replica of aeron " ), refused.getMessage());
        }
    }

    @Test
    void aReplicaWithAnotherSecretGetsNoAnswerAndTheSourceCountsItsRequests() throws Exception {
        String control = Ports.loopback();
        appendTicks(10);
        byte[] wrong = "another secret, not the source's one".getBytes(StandardCharsets.UTF_8);
        try (ReplicationSource server = ReplicationSource.start(source, SourceOptions.of(control, SECRET));
             Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(), wrong))) {
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (server.dropped(DropReason.UNSIGNED) < 2 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(server.dropped(DropReason.UNSIGNED) >= 2, "requests signed with another secret are counted");
            assertThrows(TimeoutException.class, () -> follower.awaitIndex(10, Duration.ofMillis(500)));
            assertTrue(follower.running(), "a replica that gets no answer keeps asking");
            assertEquals(0, server.replicas().size());
        }
    }

    @Test
    void anotherLayoutIsRefusedNamingTheFields() throws Exception {
        String control = Ports.loopback();
        appendTicks(10);
        var expected = BlockCopier.of(OtherTick.class).layout().descriptor();
        try (ReplicationSource server = ReplicationSource.start(source, SourceOptions.of(control, SECRET));
             Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(), SECRET)
                     .expectedLayout(expected))) {
            RefusalException refused = assertThrows(RefusalException.class,
                    () -> follower.awaitIndex(10, Duration.ofSeconds(30)));
            assertTrue(refused.getMessage().contains("layout differs") && refused.getMessage().contains("price"),
                    refused.getMessage());
        }
    }

    @Test
    void aReplicaOfAnotherQueueIsRefused(@TempDir Path other) throws Exception {
        String control = Ports.loopback();
        appendTicks(10);
        try (BlitQueue<Tick> queue = BlitQueue.open(other, Tick.class, SMALL)) {
            queue.appender().append(new Tick().fillFor(1));
        }
        try (ReplicationSource first = ReplicationSource.start(other, SourceOptions.of(control, SECRET));
             Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(), SECRET))) {
            follower.awaitIndex(1, Duration.ofSeconds(30));
        }
        try (ReplicationSource server = ReplicationSource.start(source, SourceOptions.of(control, SECRET));
             Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(), SECRET))) {
            RefusalException refused = assertThrows(RefusalException.class,
                    () -> follower.awaitIndex(10, Duration.ofSeconds(30)));
            assertTrue(refused.getMessage().contains("a replica of another queue"), refused.getMessage());
        }
    }

    /**
     * A replica acknowledges every record of a batch the source filled to its size; the source counts the batch as
     * sent to its last record (not to its last run's first), so such acknowledgements never end the session: one
     * session serves the whole stream, with idle pauses between bursts.
     */
    @Test
    void oneSessionServesBurstsOfFullBatchesAndTheirAcknowledgements() throws Exception {
        String control = Ports.loopback();
        try (SessionLog log = new SessionLog();
             BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, SMALL);
             ReplicationSource server = ReplicationSource.start(source, SourceOptions.of(control, SECRET).batchBytes(1024));
             Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(), SECRET)
                     .sourceTimeout(ONE_SESSION_SOURCE_TIMEOUT))) {
            Appender<Tick> appender = queue.appender();
            Tick tick = new Tick();
            long next = 0;
            for (int burst = 0; burst < 20; burst++) {
                for (int i = 0; i < 2_000; i++, next++) {
                    appender.append(tick.fillFor(next));
                }
                server.awaitReplicated(next - 1, 1, Duration.ofSeconds(30));
                Thread.sleep(20);
            }
            assertEquals(1, log.sessionsStarted(), "one session served every burst");
            assertTrue(server.replicas().get(0).serving());
            appender.close();
        }
        assertSameFiles(source, replica);
    }

    /**
     * Batches travel encrypted when the source is told to, or when the replica requires it: a field value of a record
     * that is in plain sight in an authenticated session's batches is in none of an encrypted one's, and the replica's
     * files are byte-identical either way.
     */
    @Test
    void batchesAreEncryptedWhenEitherSideAsksAndReadableOnTheWireOtherwise(@TempDir Path drivers) throws Exception {
        appendTicks(2_000);
        long plainSeen = batchesShowing(drivers.resolve("plain"), SourceOptions.of(Ports.loopback(), SECRET), false);
        assertTrue(plainSeen > 0, "an authenticated session's batches carry the records as stored");
        for (Path dir : new Path[] {replica}) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
        }
        assertEquals(0, batchesShowing(drivers.resolve("source-encrypts"), SourceOptions.of(Ports.loopback(), SECRET)
                .encrypt(true), false));
        try (Stream<Path> files = Files.list(replica)) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        assertEquals(0, batchesShowing(drivers.resolve("replica-requires"), SourceOptions.of(Ports.loopback(), SECRET),
                true));
    }

    /** Replicates the 2,000 ticks through a tapped replica driver; returns how many stream frames (fragments of batches) show tick 1,234's time. */
    private long batchesShowing(Path driverDir, SourceOptions options, boolean requireEncryption) throws Exception {
        byte[] time = java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.nativeOrder()).putLong(1_234L * 1_000)
                .array();
        java.util.concurrent.atomic.AtomicLong showing = new java.util.concurrent.atomic.AtomicLong();
        try (TappedDriver driver = new TappedDriver(driverDir.toString());
             ReplicationSource server = ReplicationSource.start(source, options);
             Replica follower = Replica.start(replica, ReplicaOptions.of(options.control(), Ports.loopback(), SECRET)
                     .aeronDir(driver.directory()).requireEncryption(requireEncryption))) {
            driver.listen(frame -> {
                byte[] payload = frame.payload();
                if (frame.streamId() == 1001 && java.util.Collections.indexOfSubList(java.util.Arrays.asList(box(payload)),
                        java.util.Arrays.asList(box(time))) >= 0) {
                    showing.incrementAndGet();
                }
            });
            follower.awaitIndex(2_000, Duration.ofSeconds(30));
            server.awaitReplicated(1_999, 1, Duration.ofSeconds(10));
        }
        assertSameFiles(source, replica);
        return showing.get();
    }

    private static Byte[] box(byte[] bytes) {
        Byte[] boxed = new Byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            boxed[i] = bytes[i];
        }
        return boxed;
    }

    /** The tests' source options: an embedded driver, the tests' secret. */
    @Test
    void aReplicaServesAFurtherReplicaByteForByte(@TempDir Path chained) throws Exception {
        String control = Ports.loopback();
        String chainControl = Ports.loopback();
        try (BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, SMALL)) {
            Appender<Tick> appender = queue.appender();
            Tick tick = new Tick();
            for (long n = 0; n < 30_000; n++) {
                appender.append(tick.fillFor(n));
            }
            try (ReplicationSource server = ReplicationSource.start(source, SourceOptions.of(control, SECRET));
                 Replica first = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(), SECRET))) {
                first.awaitIndex(1, Duration.ofSeconds(30)); // the replica holds a file: it can be served
                try (ReplicationSource relay = ReplicationSource.start(replica, SourceOptions.of(chainControl, SECRET));
                     Replica second = Replica.start(chained,
                             ReplicaOptions.of(chainControl, Ports.loopback(), SECRET))) {
                    for (long n = 30_000; n < 60_000; n++) {
                        appender.append(tick.fillFor(n));
                    }
                    second.awaitIndex(60_000, Duration.ofSeconds(60));
                    relay.awaitReplicated(59_999, 1, Duration.ofSeconds(5));
                }
            }
            appender.close();
        }
        assertTrue(segmentNames(source).length >= 3, "the chain crosses rolls");
        assertSameFiles(source, replica);
        assertSameFiles(source, chained);
    }

    static SourceOptions options(String control) {
        return SourceOptions.of(control, SECRET);
    }

    private void appendTicks(int count) {
        try (BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, SMALL)) {
            Appender<Tick> appender = queue.appender();
            Tick tick = new Tick();
            for (long n = 0; n < count; n++) {
                appender.append(tick.fillFor(n));
            }
        }
    }

    static void assertSameFiles(Path expected, Path actual) throws IOException {
        String[] names = segmentNames(expected);
        assertArrayEquals(names, segmentNames(actual));
        for (String name : names) {
            assertEquals(-1, Files.mismatch(expected.resolve(name), actual.resolve(name)), name);
        }
    }

    static String[] segmentNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".blitq")).sorted()
                    .toArray(String[]::new);
        }
    }
}
