package io.blit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.blit.cli.BlitCliRun.Result;
import io.blit.queue.replica.QueueTerms;
import io.blit.replication.ReplicationSource;
import io.blit.replication.SecretFile;
import io.blit.replication.SourceOptions;
import java.net.DatagramSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code replicate follow --until-caught-up}: exits 0 once the replica holds the source's end, saying so. */
class FollowUntilCaughtUpTest {
    /** Bounds a hang: two embedded media drivers, the handshake and 5,000 records on a loaded machine. */
    private static final Duration EXIT_WITHIN = Duration.ofSeconds(90);

    @TempDir
    Path tmp;

    @Test
    void followExitsZeroOnceItHoldsTheSourcesEnd() throws Exception {
        Path primary = tmp.resolve("primary");
        BlitCliRun.appendRaw(primary, 5_000);
        Path secret = tmp.resolve("secret");
        assertEquals(0, BlitCliRun.run("replicate", "keygen", "--secret-file", secret.toString()).code());
        String control = loopback();
        Path replica = tmp.resolve("replica");
        try (ReplicationSource source = ReplicationSource.start(primary, SourceOptions.of(control,
                SecretFile.read(secret)))) {
            Result followed = assertTimeoutPreemptively(EXIT_WITHIN, () -> BlitCliRun.run("replicate", "follow",
                    "--dir", replica.toString(), "--source", control, "--endpoint", loopback(), "--secret-file",
                    secret.toString(), "--until-caught-up"));
            assertEquals(0, followed.code(), followed.out() + followed.err());
            List<String> lines = followed.lines();
            assertEquals("caught up with " + control + " at end 5000", lines.getLast(), followed.out());
        }
        assertEquals(5_000, QueueTerms.status(replica).endIndex());
        assertEquals(QueueTerms.Role.REPLICA, QueueTerms.status(replica).role());
    }

    private static String loopback() throws java.io.IOException {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return "127.0.0.1:" + socket.getLocalPort();
        }
    }
}
