package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.core.BlockCopier;
import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
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
    static final BlitQueue.Options SMALL = BlitQueue.Options.defaults().segmentSize(1 << 20);

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
            try (ReplicationSource server = ReplicationSource.start(source, SourceOptions.of(control, SECRET));
                 Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(), SECRET))) {
                follower.awaitIndex(50_000, Duration.ofSeconds(30));
                for (long n = 50_000; n < 100_000; n++) {
                    long index = appender.append(tick.fillFor(n));
                    if (n % 10_000 == 0) {
                        server.awaitReplicated(index, 1, Duration.ofSeconds(30));
                    }
                }
                follower.awaitIndex(100_000, Duration.ofSeconds(30));
                server.awaitReplicated(99_999, 1, Duration.ofSeconds(5));
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
    void aWrongSecretIsRefusedAndNamed() throws Exception {
        String control = Ports.loopback();
        appendTicks(10);
        byte[] wrong = "another secret, not the source's".getBytes(StandardCharsets.UTF_8);
        try (ReplicationSource server = ReplicationSource.start(source, SourceOptions.of(control, SECRET));
             Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(), wrong))) {
            RefusalException refused = assertThrows(RefusalException.class,
                    () -> follower.awaitIndex(10, Duration.ofSeconds(20)));
            assertTrue(refused.getMessage().contains("not signed with this source's secret"), refused.getMessage());
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
                    () -> follower.awaitIndex(10, Duration.ofSeconds(20)));
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
            follower.awaitIndex(1, Duration.ofSeconds(20));
        }
        try (ReplicationSource server = ReplicationSource.start(source, SourceOptions.of(control, SECRET));
             Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(), SECRET))) {
            RefusalException refused = assertThrows(RefusalException.class,
                    () -> follower.awaitIndex(10, Duration.ofSeconds(20)));
            assertTrue(refused.getMessage().contains("a replica of another queue"), refused.getMessage());
        }
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
