package io.blit.tools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.replication.Replica;
import io.blit.replication.ReplicaOptions;
import io.blit.replication.ReplicationSource;
import io.blit.replication.SecretFile;
import io.blit.replication.SourceOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replicate follow --rejoin} as an operator runs it on an old primary, in a JVM of its own: after a replica of
 * the old primary was promoted and took appends, the old primary follows it. Its records the new primary does not
 * hold are named on exactly one line that starts with {@code quarantined}; an old primary with nothing to set aside
 * prints no such line.
 */
class RejoinProcessTest {
    private static final int REPLICATED = 100;
    private static final int NEW_PRIMARY_APPENDS = 20;

    @TempDir
    Path work;
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopProcesses() throws InterruptedException {
        for (Process process : started) {
            process.destroy();
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    @Test
    void anOldPrimaryRejoiningPrintsOneQuarantinedLineNamingItsUnreplicatedTail() throws Exception {
        Path old = work.resolve("old");
        Path promoted = work.resolve("promoted");
        failOver(old, promoted, 30);
        List<String> lines = rejoin(old, promoted);
        List<String> quarantined = lines.stream().filter(line -> line.startsWith("quarantined")).toList();
        assertEquals(1, quarantined.size(), String.join("\n", lines));
        String prefix = "quarantined 30 records (index 100 to 129) into " + old.resolve("quarantine")
                + old.getFileSystem().getSeparator() + "from-100-";
        assertTrue(quarantined.getFirst().startsWith(prefix), quarantined.getFirst());
        assertTrue(Pattern.matches("\\d{8}T\\d{6}Z(-\\d+)?", quarantined.getFirst().substring(prefix.length())),
                quarantined.getFirst());
        Path quarantine = Path.of(quarantined.getFirst().substring("quarantined 30 records (index 100 to 129) into "
                .length()));
        assertTrue(Files.isDirectory(quarantine), quarantine + " exists");
        assertEquals(130, endOf(quarantine), "it holds the old primary's tail, up to index 129");
        assertEquals(REPLICATED + NEW_PRIMARY_APPENDS, endOf(old), "then the old primary followed the new one");
    }

    @Test
    void anOldPrimaryWithNothingToSetAsidePrintsNoQuarantinedLine() throws Exception {
        Path old = work.resolve("old");
        Path promoted = work.resolve("promoted");
        failOver(old, promoted, 0);
        List<String> lines = rejoin(old, promoted);
        assertTrue(lines.getFirst().startsWith("following "), String.join("\n", lines));
        assertTrue(lines.stream().noneMatch(line -> line.startsWith("quarantined")), String.join("\n", lines));
        assertTrue(Files.notExists(old.resolve("quarantine")), "nothing set aside");
        assertEquals(REPLICATED + NEW_PRIMARY_APPENDS, endOf(old));
    }

    /**
     * A primary {@code old} of {@value #REPLICATED} records, all replicated to {@code promoted}, then {@code tail}
     * more that never were; {@code promoted} is promoted and takes {@value #NEW_PRIMARY_APPENDS} appends.
     */
    private void failOver(Path old, Path promoted, int tail) throws Exception {
        assertEquals(0, cli("produce", "--dir", old.toString(), "--count", String.valueOf(REPLICATED)));
        byte[] secret = SecretFile.read(secret());
        String control = endpoint();
        try (ReplicationSource source = ReplicationSource.start(old, SourceOptions.of(control, secret));
             Replica replica = Replica.start(promoted, ReplicaOptions.of(control, endpoint(), secret))) {
            replica.awaitIndex(REPLICATED, Duration.ofSeconds(30));
            source.awaitReplicated(REPLICATED - 1, 1, Duration.ofSeconds(10));
        }
        if (tail > 0) {
            assertEquals(0, cli("produce", "--dir", old.toString(), "--count", String.valueOf(tail)));
        }
        assertEquals(0, cli("replicate", "promote", "--dir", promoted.toString()));
        assertEquals(0, cli("produce", "--dir", promoted.toString(), "--count", String.valueOf(NEW_PRIMARY_APPENDS)));
    }

    /**
     * Serves {@code promoted} and runs {@code replicate follow --rejoin} on {@code old} until it holds what
     * {@code promoted} holds, then stops it with SIGTERM; {@return the lines it printed}
     */
    private List<String> rejoin(Path old, Path promoted) throws Exception {
        String control = endpoint();
        Path output = work.resolve("follow.log");
        try (ReplicationSource source = ReplicationSource.start(promoted, SourceOptions.of(control,
                SecretFile.read(work.resolve("secret"))))) {
            List<String> command = CliProcesses.command("replicate", "follow", "--dir", old.toString(), "--source",
                    control, "--endpoint", endpoint(), "--secret-file", work.resolve("secret").toString(), "--type",
                    "marketdata", "--rejoin");
            Process follower = new ProcessBuilder(command)
                    .redirectOutput(output.toFile()).redirectError(work.resolve("follow.err").toFile()).start();
            started.add(follower);
            long last = REPLICATED + NEW_PRIMARY_APPENDS - 1;
            source.awaitReplicated(last, 1, Duration.ofSeconds(60));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            // a progress line after the catch-up
            while (!Files.readString(output).contains("end " + (last + 1) + ",")) {
                assertTrue(System.nanoTime() < deadline, () -> read(output) + read(work.resolve("follow.err")));
                Thread.sleep(50);
            }
            follower.destroy();
            assertTrue(follower.waitFor(30, TimeUnit.SECONDS), "follow stops on SIGTERM");
        }
        return Files.readAllLines(output);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }

    private Path secret() {
        Path file = work.resolve("secret");
        assertEquals(0, cli("replicate", "keygen", "--secret-file", file.toString()));
        return file;
    }

    private static long endOf(Path dir) {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, QueueOptions.defaults().readOnly(true))) {
            return queue.endIndex();
        }
    }

    private static int cli(String... args) {
        return QueueCli.run(args, new PrintStream(new ByteArrayOutputStream()), System.err);
    }

    private static String endpoint() throws IOException {
        return CliProcesses.endpoint();
    }
}
