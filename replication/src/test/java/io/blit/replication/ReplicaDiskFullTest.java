package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.testkit.Tmpfs;
import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.Tailer;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica whose file system fills up: it stops with an exception naming its file (never a JVM crash, never a
 * record committed from a write that faulted), what it committed reads back intact, and once there is space again a
 * restarted replica resumes and ends byte-identical to its source. The file system is a tmpfs of 8 MiB, mounted for
 * the test: this needs the privilege to mount (root, as on the CI machines), and the test is skipped without it.
 */
class ReplicaDiskFullTest {
    private static final int MESSAGES = 400_000; // ~16 MiB of records: twice the replica's file system

    @TempDir
    Path source;
    @RegisterExtension
    final Tmpfs tmpfs = Tmpfs.sized("8m");

    @Test
    void aFullFileSystemStopsTheReplicaCleanlyAndARestartWithSpaceResumes() throws Exception {
        Path point = tmpfs.mount(); // skips the test without the privilege to mount
        Path replica = point.resolve("replica");
        String control = Ports.loopback();
        String endpoint = Ports.loopback();
        try (BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, ReplicationTest.SMALL);
             Appender<Tick> appender = queue.appender()) {
            Tick tick = new Tick();
            for (long n = 0; n < MESSAGES; n++) {
                appender.append(tick.fillFor(n));
            }
        }
        try (ReplicationSource server = ReplicationSource.start(source, ReplicationTest.options(control))) {
            long held;
            try (Replica follower = Replica.start(replica, ReplicaOptions.of(control, endpoint, ReplicationTest.SECRET))) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (follower.running() && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                RuntimeException failure = follower.failure();
                assertTrue(failure instanceof IllegalStateException || failure instanceof UncheckedIOException,
                        "stopped with a reason: " + failure);
                assertTrue(failure.getMessage().contains(replica.toString()), failure.getMessage());
                held = follower.nextIndex();
            }
            assertTrue(held > 0 && held < MESSAGES, "the replica held " + held + " of " + MESSAGES + " when it filled up");
            assertReadsBack(replica, held);

            tmpfs.remount("size=64m");
            try (Replica follower = Replica.start(replica, ReplicaOptions.of(control, endpoint, ReplicationTest.SECRET))) {
                follower.awaitIndex(MESSAGES, Duration.ofSeconds(60));
            }
        }
        ReplicationTest.assertSameFiles(source, replica);
    }

    /** Every record below {@code held} is intact, and nothing above it is readable. */
    private static void assertReadsBack(Path replica, long held) {
        try (BlitQueue<Tick> copy = BlitQueue.open(replica, Tick.class);
             Tailer<Tick> tailer = copy.tailer()) {
            Tick in = new Tick();
            for (long n = 0; n < held; n++) {
                assertTrue(tailer.readNext(in) && in.isConsistentFor(n), "message " + n);
            }
            assertFalse(tailer.readNext(in), "nothing past what the replica committed");
            assertEquals(held, tailer.index());
        }
    }

}
