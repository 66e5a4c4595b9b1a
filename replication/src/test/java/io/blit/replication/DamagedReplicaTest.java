package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.replica.QueueRepair;
import io.blit.queue.replica.QueueVerifier;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica whose own files are damaged, started with {@code verifyOnStart}, cuts itself back to before the damage
 * (the damaged files kept whole in {@code repair/<time>/}) and takes the records again from its source: it ends byte-identical to the source. Without
 * the option it resumes at its end and the damage stays (the option is what repairs it).
 */
@SuppressWarnings("try") // a source or replica held open only for its side effects
class DamagedReplicaTest {
    private static final QueueOptions SMALL_FILES = QueueOptions.defaults().segmentSize(64 * 1024);
    private static final int RECORDS = 10_000;
    /** Where a segment file's records start; raw 8-byte payloads make records of 24 bytes (docs/format.md). */
    private static final long RECORDS_START = 8192;
    private static final int RECORD = 24;

    @TempDir
    Path source;
    @TempDir
    Path replica;

    @Test
    void aDamagedReplicaTakesTheDamagedRecordsAgainFromItsSource() throws Exception {
        String control = Ports.loopback();
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, SMALL_FILES); Appender<Void> appender = queue.appender();
             Arena arena = Arena.ofConfined()) {
            MemorySegment payload = arena.allocate(8);
            for (long n = 0; n < RECORDS; n++) {
                payload.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, n);
                appender.append(payload);
            }
            try (ReplicationSource server = ReplicationSource.start(source, ReplicationTest.options(control))) {
                try (Replica follower = Replica.start(replica, options(control, false))) {
                    follower.awaitIndex(RECORDS, Duration.ofSeconds(60));
                }
                List<Path> files = segments(replica);
                assertTrue(files.size() > 2, "several files");
                Path damaged = files.get(1);
                long firstOfDamaged = Long.parseLong(damaged.getFileName().toString().substring(8, 28));
                flipBit(damaged, RECORDS_START + RECORD * 100L + 7, 5); // record firstOfDamaged + 100: its P bit
                assertFalse(QueueVerifier.verify(replica).isEmpty(), "the replica is damaged");

                try (Replica follower = Replica.start(replica, options(control, false))) {
                    follower.awaitIndex(RECORDS, Duration.ofSeconds(60));
                    assertFalse(QueueVerifier.verify(replica).isEmpty(), "without verification, the damage stays");
                }
                try (Replica follower = Replica.start(replica, options(control, true))) {
                    follower.awaitIndex(RECORDS, Duration.ofSeconds(60));
                }
                assertEquals(List.of(), QueueVerifier.verify(replica), "the records were taken again");
                ReplicationTest.assertSameFiles(source, replica);
                try (Stream<Path> kept = Files.list(replica.resolve(QueueRepair.KEPT_DIRECTORY))) {
                    List<Path> dirs = kept.toList();
                    assertEquals(1, dirs.size(), dirs.toString());
                    Path keptDamaged = dirs.getFirst().resolve(damaged.getFileName());
                    assertEquals(ReplicationTest.segmentNames(source).length - files.indexOf(damaged),
                            segments(dirs.getFirst()).size(), "the damaged file and every later one kept");
                    long at = RECORDS_START + RECORD * 100L + 7;
                    assertEquals(Files.readAllBytes(source.resolve(damaged.getFileName()))[(int) at] ^ (1 << 5),
                            Files.readAllBytes(keptDamaged)[(int) at], "the kept copy is the damaged one");
                }
            }
        }
    }

    private static ReplicaOptions options(String control, boolean verify) throws IOException {
        return ReplicaOptions.of(control, Ports.loopback(), ReplicationTest.SECRET)
                .sourceTimeout(ReplicationTest.ONE_SESSION_SOURCE_TIMEOUT).verifyOnStart(verify);
    }

    private static List<Path> segments(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches("segment-\\d{20}\\.blitq")).sorted().toList();
        }
    }

    private static void flipBit(Path file, long offset, int bit) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, offset);
            one.put(0, (byte) (one.get(0) ^ (1 << bit)));
            channel.write(one.flip(), offset);
        }
    }
}
