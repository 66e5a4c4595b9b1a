package io.blit.tools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.replication.ReplicationSource;
import io.blit.replication.SecretFile;
import io.blit.replication.SourceOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replicate follow} with a secret that is not its source's, in a JVM of its own, as an operator runs it: a
 * source never answers a request signed with another secret, so the command gives up once its handshake timeout has
 * passed without a session, exits 1, and says on one line that the handshake failed and what to check.
 */
class FollowProcessTest {
    private static final int HANDSHAKE_TIMEOUT_SECONDS = 3;
    /** Bounds a hang: the JVM's start, the handshake timeout and the replica's close, on a loaded machine. */
    private static final long EXIT_WITHIN_SECONDS = 90;

    @TempDir
    Path work;
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopProcesses() throws InterruptedException {
        for (Process process : started) {
            process.destroyForcibly().waitFor();
        }
    }

    @Test
    void aWrongSecretEndsFollowWithExitOneAndALineSayingTheHandshakeFailed() throws Exception {
        Path primary = work.resolve("primary");
        assertEquals(0, cli("produce", "--dir", primary.toString(), "--count", "10"));
        Path secret = keygen("secret");
        Path wrong = keygen("wrong");
        String control = CliProcesses.endpoint();
        String endpoint = CliProcesses.endpoint();
        try (ReplicationSource source = ReplicationSource.start(primary, SourceOptions.of(control,
                SecretFile.read(secret)))) {
            List<String> command = CliProcesses.command("replicate", "follow", "--dir",
                    work.resolve("replica").toString(), "--source", control, "--endpoint", endpoint, "--secret-file",
                    wrong.toString(), "--handshake-timeout", String.valueOf(HANDSHAKE_TIMEOUT_SECONDS));
            Path err = work.resolve("follow.err");
            Process follower = new ProcessBuilder(command).redirectOutput(work.resolve("follow.out").toFile())
                    .redirectError(err.toFile()).start();
            started.add(follower);
            assertTrue(follower.waitFor(EXIT_WITHIN_SECONDS, TimeUnit.SECONDS),
                    "follow gives up within " + EXIT_WITHIN_SECONDS + " s");
            String printed = Files.readString(err);
            assertEquals(1, follower.exitValue(), printed);
            List<String> errors = printed.lines().filter(line -> line.startsWith("error: ")).toList();
            assertEquals(1, errors.size(), printed);
            String line = errors.getFirst();
            assertTrue(line.startsWith("error: the handshake with source " + control + " failed: no session within "
                    + HANDSHAKE_TIMEOUT_SECONDS + " s."), line);
            assertTrue(line.contains("--secret-file") && line.contains(endpoint), line);
            assertTrue(source.replicas().isEmpty(), "the source served no replica");
        }
    }

    @Test
    void aNegativeHandshakeTimeoutIsBadInput() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = QueueCli.run(new String[] {"replicate", "follow", "--dir", work.resolve("r").toString(),
                "--source", "127.0.0.1:1", "--endpoint", "127.0.0.1:2", "--secret-file", keygen("s").toString(),
                "--handshake-timeout", "-1"}, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
        assertEquals(2, code, err.toString());
        assertTrue(err.toString().contains("--handshake-timeout -1 is negative"), err.toString());
        assertTrue(Files.notExists(work.resolve("r")), "nothing created");
    }

    private Path keygen(String name) {
        Path file = work.resolve(name);
        assertEquals(0, cli("replicate", "keygen", "--secret-file", file.toString()));
        return file;
    }

    private static int cli(String... args) {
        return QueueCli.run(args, new PrintStream(new ByteArrayOutputStream()), System.err);
    }
}
