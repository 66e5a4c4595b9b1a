package io.blit.queue;

import static io.blit.queue.replica.ReplicaCopies.copyAsReplica;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.sidecar.ConsumerFile;
import io.blit.queue.internal.writer.WriterRegistry;
import io.blit.queue.replica.QueueTerms;
import io.blit.queue.replica.ReplicaLock;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a local user who may only read a queue's files can do to it (docs/failover.md, "Who is trusted with what"): hold
 * shared locks of {@code writers.blitw} and {@code replica.lock} as another uid, which must neither hang a writer nor
 * make a refusal name the wrong process; and links planted in the directory, which Blit never follows.
 */
class LocalReaderTest {
    /** Bounds a hang only: the appender is expected at once. */
    private static final Duration HANG = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    @Test
    void aReaderHoldingTheWriterIdCounterAsAnotherUserDoesNotHoldUpAnAppender() throws Exception {
        OtherUserLock.assumeAvailable();
        Path dir = OtherUserLock.readable(Files.createDirectory(tmp.resolve("q")));
        append(dir, 0);
        Path writers = OtherUserLock.readable(dir.resolve(WriterRegistry.NAME));
        try (OtherUserLock reader = OtherUserLock.hold(tmp, writers, 16, 8)) { // the counter's bytes
            long took = Bounded.call(HANG, () -> {
                long start = System.nanoTime();
                append(dir, 1);
                return System.nanoTime() - start;
            });
            assertTrue(took < TimeUnit.SECONDS.toNanos(5), "the appender did not wait on the reader: "
                    + TimeUnit.NANOSECONDS.toMillis(took) + " ms");
        }
        append(dir, 2);
    }

    @Test
    void aReaderHoldingEveryWriterIdAsAnotherUserFailsTheAppenderAtOnceNamingItsPid() throws Exception {
        OtherUserLock.assumeAvailable();
        Path dir = OtherUserLock.readable(Files.createDirectory(tmp.resolve("q")));
        append(dir, 0);
        Path writers = OtherUserLock.readable(dir.resolve(WriterRegistry.NAME));
        try (OtherUserLock reader = OtherUserLock.hold(tmp, writers, 0, Long.MAX_VALUE)) { // the whole file
            IllegalStateException refused = Bounded.call(HANG, () -> assertThrows(IllegalStateException.class,
                    () -> append(dir, 1)));
            assertTrue(refused.getMessage().contains(writers.toString())
                    && refused.getMessage().contains("locked shared")
                    && refused.getMessage().contains("pid " + reader.pid()), refused.getMessage());
            assertFalse(refused.getMessage().contains("pid " + ProcessHandle.current().pid()), refused.getMessage());
        }
        append(dir, 1);
    }

    @Test
    void aReaderHoldingTheReplicaLockAsAnotherUserIsNamedNotTheLastFollowersPid() throws Exception {
        OtherUserLock.assumeAvailable();
        Path primary = tmp.resolve("primary");
        append(primary, 0);
        append(primary, 1);
        Path replica = OtherUserLock.readable(Files.createDirectory(tmp.resolve("replica")));
        copyAsReplica(primary, replica);
        ReplicaLock.acquire(replica, false).close(); // a follower came and went: the file names this process's pid
        Path lockFile = OtherUserLock.readable(replica.resolve(ReplicaLock.NAME));
        String ownPid = "pid " + ProcessHandle.current().pid();
        try (OtherUserLock reader = OtherUserLock.hold(tmp, lockFile, 0, Long.MAX_VALUE)) {
            IllegalStateException follow = assertThrows(IllegalStateException.class,
                    () -> ReplicaLock.acquire(replica, false));
            IllegalStateException promote = assertThrows(IllegalStateException.class,
                    () -> QueueTerms.promote(replica));
            for (IllegalStateException refused : List.of(follow, promote)) {
                assertTrue(refused.getMessage().contains("pid " + reader.pid())
                        && refused.getMessage().contains("locked shared"), refused.getMessage());
                assertFalse(refused.getMessage().contains(ownPid), "never the pid the file names: "
                        + refused.getMessage());
            }
            assertEquals(QueueTerms.Role.REPLICA, QueueTerms.status(replica).role(), "nothing was promoted");
        }
        assertEquals(1, QueueTerms.promote(replica), "once the reader let go");
    }

    @Test
    void aDanglingLinkNamedWritersBlitwIsRefusedNamingItAndNothingIsCreatedWhereItPoints() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("q"));
        append(dir, 0);
        Path writers = dir.resolve(WriterRegistry.NAME);
        Files.delete(writers);
        Path target = tmp.resolve("elsewhere");
        Files.createSymbolicLink(writers, target);
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> append(dir, 1));
        assertTrue(refused.getMessage().contains(writers.toString())
                && refused.getMessage().contains("symbolic link"), refused.getMessage());
        assertFalse(Files.exists(target, LinkOption.NOFOLLOW_LINKS), "nothing created through the link");

        Path fresh = Files.createDirectory(tmp.resolve("fresh"));
        Files.createSymbolicLink(fresh.resolve(WriterRegistry.NAME), target);
        assertThrows(IllegalStateException.class, () -> append(fresh, 0), "a new queue too");
        assertFalse(Files.exists(target, LinkOption.NOFOLLOW_LINKS), "nothing created through the link");
    }

    @Test
    void aDanglingLinkNamedConsumersBlitcIsRefusedNamingItAndNothingIsCreatedWhereItPoints() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("q"));
        append(dir, 0);
        Path consumers = ConsumerFile.path(dir);
        Path target = tmp.resolve("elsewhere");
        Files.createSymbolicLink(consumers, target);
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> queue.tailer("c"));
            assertTrue(refused.getMessage().contains(consumers.toString())
                    && refused.getMessage().contains("symbolic link"), refused.getMessage());
        }
        assertFalse(Files.exists(target, LinkOption.NOFOLLOW_LINKS), "nothing created through the link");
    }

    /** Appends message {@code n} to the queue in {@code dir}, as a process that opens, appends and closes. */
    private static void append(Path dir, long n) {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Appender<MarketData> appender = queue.appender()) {
            assertEquals(n, appender.append(new MarketData().fillFor(n, n)));
        }
    }
}
