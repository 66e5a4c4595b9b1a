package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.ExclusivePublication;
import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stranger's Aeron publication with a large term length, connected to a replica's data endpoint and to a source's
 * control endpoint: Aeron's receiving driver creates an image log of three terms of the sender's length for it
 * (Aeron accepts any term length up to 1 GiB from a SETUP). The embedded drivers' images are sparse, so what the
 * stranger costs in {@code /dev/shm} is what it sends, not three times the term length it names.
 */
class StrangerImageTest {
    /** The largest term this test affords: a 768 MiB log on each side (sparse on the stranger's). */
    private static final String TERM = "256m";
    private static final long LOG_BYTES = 3L * (256 << 20);

    @TempDir
    Path source;
    @TempDir
    Path replica;
    @TempDir
    Path drivers;

    @Test
    void aStrangersLargeTermCostsTheDriversOnlyWhatItSends() throws Exception {
        String control = Ports.loopback();
        String endpoint = Ports.loopback();
        try (BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, ReplicationTest.SMALL);
             Appender<Tick> appender = queue.appender()) {
            appender.append(new Tick().fillFor(0));
            try (ReplicationSource server = ReplicationSource.start(source, SourceOptions.of(control, ReplicationTest.SECRET));
                 Replica follower = Replica.start(replica, ReplicaOptions.of(control, endpoint, ReplicationTest.SECRET));
                 Attacker stranger = new Attacker(drivers.resolve("stranger").toString())) {
                follower.awaitIndex(1, Duration.ofSeconds(30));
                String large = "|term-length=" + TERM + "|sparse=true";
                ExclusivePublication toReplica = stranger.publish(endpoint, AeronConnection.DATA_STREAM, large);
                ExclusivePublication toSource = stranger.publish(control, AeronConnection.CONTROL_STREAM, large);
                byte[] noise = "not a message of the protocol".getBytes(StandardCharsets.UTF_8);
                for (int i = 0; i < 10; i++) {
                    Attacker.offer(toReplica, noise);
                    Attacker.offer(toSource, noise);
                }
                assertOnlyTouched(Path.of(AeronConnection.embeddedDir(replica, "replica")));
                assertOnlyTouched(Path.of(AeronConnection.embeddedDir(source, "source")));
                appender.append(new Tick().fillFor(1));
                follower.awaitIndex(2, Duration.ofSeconds(30));
                server.awaitReplicated(1, 1, Duration.ofSeconds(10));
            }
        }
    }

    /** The driver holds an image log of the stranger's size, with next to nothing of it allocated. */
    private static void assertOnlyTouched(Path driverDir) throws IOException, InterruptedException {
        List<Path> large;
        try (Stream<Path> images = Files.list(driverDir.resolve("images"))) {
            large = images.filter(log -> {
                try {
                    return Files.size(log) >= LOG_BYTES;
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
        assertFalse(large.isEmpty(), "the stranger's image in " + driverDir);
        for (Path log : large) {
            long allocated = allocatedBytes(log);
            assertTrue(allocated < (16 << 20), log + " of " + Files.size(log) + " bytes has " + allocated
                    + " bytes allocated");
        }
    }

    /** The bytes the file system allocated for {@code file} ({@code stat}: blocks of 512 bytes). */
    static long allocatedBytes(Path file) throws IOException, InterruptedException {
        Process stat = new ProcessBuilder("stat", "-c", "%b %B", file.toString()).redirectErrorStream(true).start();
        String[] blocks = new String(stat.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim().split(" ");
        assertTrue(stat.waitFor() == 0, String.join(" ", blocks));
        return Long.parseLong(blocks[0]) * Long.parseLong(blocks[1]);
    }
}
