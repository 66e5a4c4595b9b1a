package io.blit.tools.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.BlitQueue;
import io.blit.queue.Tailer;
import io.blit.replication.DriverDirectories;
import io.blit.tools.messages.MarketData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replicate serve} and {@code replicate follow} as users run them: each in a JVM of its own, over UDP on the
 * loopback, the source's messages appended by yet another writer. Afterwards the replica's files equal the source's
 * byte for byte and {@code check} passes on the replica (every index once, in order, every message consistent).
 */
class ReplicationProcessTest {
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final List<String> FLAGS = List.of("--sun-misc-unsafe-memory-access=allow",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED");

    @TempDir
    Path work;
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopProcesses() throws InterruptedException {
        stopAll();
    }

    /**
     * Ends every started process with SIGTERM (its replica or source closes, and its embedded driver deletes its
     * directory in /dev/shm), forcibly if it has not ended in 15 s.
     */
    private void stopAll() throws InterruptedException {
        started.forEach(Process::destroy);
        for (Process process : started) {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
        started.clear();
    }

    @Test
    void twoMillionMarketDataReachTheReplicaByteForByte() throws Exception {
        Path source = work.resolve("source");
        Path replica = work.resolve("replica");
        Path secret = secret();
        String control = endpoint();
        assertEquals(0, cli("produce", "--dir", source.toString(), "--count", "1"));
        List<String> driversBefore = embeddedDriverDirectories();
        serve(source, control, secret);
        follow(replica, control, endpoint(), secret);
        assertEquals(0, cli("produce", "--dir", source.toString(), "--count", "1999999"));
        awaitEnd(replica, 2_000_000, 120);
        stopAll();
        assertCopy(source, replica, 2_000_000);
        assertEquals(driversBefore, embeddedDriverDirectories(),
                "serve and follow ended by SIGTERM delete their embedded drivers' directories");
    }

    @Test
    void aMixedQueueReachesTheReplicaByteForByteWithItsTypes() throws Exception {
        Path source = work.resolve("mixed-source");
        Path replica = work.resolve("mixed-replica");
        Path secret = secret();
        String control = endpoint();
        assertEquals(0, cli("produce", "--dir", source.toString(), "--count", "1", "--type", "mixed"));
        serve(source, control, secret);
        follow(replica, control, endpoint(), secret, "mixed");
        assertEquals(0, cli("produce", "--dir", source.toString(), "--count", "299999", "--type", "mixed"));
        awaitEnd(replica, 300_000, 120);
        stopAll();
        assertCopy(source, replica, 300_000, "mixed");
    }

    @Test
    void killedReplicasAndSourcesResumeWithoutAGapOrADuplicate() throws Exception {
        Path source = work.resolve("source");
        Path replica = work.resolve("replica");
        Path secret = secret();
        String control = endpoint();
        String dataEndpoint = endpoint();
        assertEquals(0, cli("produce", "--dir", source.toString(), "--count", "1"));
        AtomicBoolean producing = new AtomicBoolean(true);
        AtomicLong appended = new AtomicLong(1);
        Thread producer = Thread.ofPlatform().start(() -> produce(source, producing, appended));
        Process server = serve(source, control, secret);
        Process follower = follow(replica, control, dataEndpoint, secret);
        List<String> kills = new ArrayList<>(Collections.nCopies(10, "replica"));
        kills.addAll(Collections.nCopies(5, "source"));
        Random random = new Random(20261124L);
        Collections.shuffle(kills, random);
        for (String victim : kills) {
            Thread.sleep(300 + random.nextInt(1_200));
            if (victim.equals("replica")) {
                follower.destroyForcibly().waitFor();
                follower = follow(replica, control, dataEndpoint, secret);
            } else {
                server.destroyForcibly().waitFor();
                server = serve(source, control, secret);
            }
        }
        producing.set(false);
        producer.join();
        awaitEnd(replica, appended.get(), 60);
        stopAll();
        assertCopy(source, replica, appended.get());
    }

    /** The embedded drivers' directories that exist now (in {@code <Aeron's default>-blit}), sorted. */
    private static List<String> embeddedDriverDirectories() throws IOException {
        Path parent = DriverDirectories.parent();
        if (!Files.isDirectory(parent)) {
            return List.of();
        }
        try (Stream<Path> drivers = Files.list(parent)) {
            return drivers.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** Appends MarketData in bursts of 100 every 5 ms (numbered by index) until told to stop. */
    private static void produce(Path source, AtomicBoolean producing, AtomicLong appended) {
        try (BlitQueue<MarketData> queue = BlitQueue.open(source, MarketData.class)) {
            var appender = queue.appender();
            MarketData message = new MarketData();
            while (producing.get()) {
                for (int i = 0; i < 100; i++) {
                    long index = appended.get();
                    appender.append(message.fillFor(index, System.nanoTime()));
                    appended.incrementAndGet();
                }
                Thread.sleep(5);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void assertCopy(Path source, Path replica, long count) throws IOException {
        assertCopy(source, replica, count, "marketdata");
    }

    /** The replica's files equal the source's, and {@code check --type type} accepts the replica. */
    private void assertCopy(Path source, Path replica, long count, String type) throws IOException {
        String[] names = segmentNames(source);
        assertArrayEquals(names, segmentNames(replica));
        for (String name : names) {
            assertEquals(-1, Files.mismatch(source.resolve(name), replica.resolve(name)), name + " differs");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = QueueCli.run(new String[] {"check", "--dir", replica.toString(), "--type", type},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String report = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, report);
        assertTrue(report.contains(count + " records ok"), report);
    }

    private static void awaitEnd(Path replica, long count, int seconds) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long end = -1;
        while (System.nanoTime() < deadline) {
            if (Files.exists(replica) && segmentCount(replica) > 0) {
                try (BlitQueue<Void> queue = BlitQueue.openRaw(replica); Tailer<Void> tailer = queue.tailerFromEnd()) {
                    end = tailer.index();
                }
                if (end >= count) {
                    return;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the replica reached index " + end + " of " + count + " in " + seconds + " s");
    }

    private Process serve(Path source, String control, Path secret) throws IOException {
        return start("serve", "replicate", "serve", "--dir", source.toString(), "--control", control,
                "--secret-file", secret.toString());
    }

    private Process follow(Path replica, String control, String endpoint, Path secret) throws IOException {
        return follow(replica, control, endpoint, secret, "marketdata");
    }

    private Process follow(Path replica, String control, String endpoint, Path secret, String type) throws IOException {
        return start("follow", "replicate", "follow", "--dir", replica.toString(), "--source", control,
                "--endpoint", endpoint, "--secret-file", secret.toString(), "--type", type);
    }

    private Process start(String log, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(JAVA));
        command.addAll(FLAGS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), QueueCli.class.getName()));
        command.addAll(List.of(args));
        Path output = work.resolve(log + "-" + started.size() + ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        started.add(process);
        return process;
    }

    private static int cli(String... args) {
        return QueueCli.run(args, new PrintStream(new ByteArrayOutputStream()), System.err);
    }

    /** A new secret file, as users make one. */
    private Path secret() {
        Path file = work.resolve("secret");
        assertEquals(0, cli("replicate", "keygen", "--secret-file", file.toString()));
        return file;
    }

    private static String endpoint() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return "127.0.0.1:" + socket.getLocalPort();
        }
    }

    private static String[] segmentNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".blitq")).sorted()
                    .toArray(String[]::new);
        }
    }

    private static long segmentCount(Path dir) throws IOException {
        return segmentNames(dir).length;
    }
}
