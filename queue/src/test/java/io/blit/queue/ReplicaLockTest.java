package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.sidecar.ReplicaIdentity;
import io.blit.queue.replica.ReplicaLock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One follower per replica directory, and the replica's identity that outlives its followers. */
class ReplicaLockTest {
    @TempDir
    Path dir;

    @Test
    void aSecondLockInThisProcessIsRefusedNamingTheDirectoryAndThePidAndTheFirstStaysHeld() {
        Path replica = dir.resolve("r");
        try (ReplicaLock first = ReplicaLock.acquire(replica, false)) {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> ReplicaLock.acquire(replica, false));
            assertTrue(refused.getMessage().contains("replica " + replica + " is followed already")
                    && refused.getMessage().contains("pid " + ProcessHandle.current().pid()), refused.getMessage());
            // the path spelled another way is the same directory
            assertThrows(IllegalStateException.class, () -> ReplicaLock.acquire(dir.resolve("./r/."), false));
            assertTrue(first.replicaId() != 0);
        }
        try (ReplicaLock again = ReplicaLock.acquire(replica, false)) {
            assertTrue(again.replicaId() != 0, "released at close: the directory can be followed again");
        }
    }

    @Test
    void theIdentityIsCreatedOnceAndReadOnEveryLockAfter() throws Exception {
        long id;
        try (ReplicaLock lock = ReplicaLock.acquire(dir, false)) {
            id = lock.replicaId();
        }
        byte[] file = Files.readAllBytes(dir.resolve(ReplicaIdentity.NAME));
        assertEquals(16, file.length);
        assertArrayEquals("BLITRID\0".getBytes(StandardCharsets.US_ASCII), Arrays.copyOf(file, 8));
        assertEquals(id, ByteBuffer.wrap(file, 8, 8).order(ByteOrder.LITTLE_ENDIAN).getLong());
        for (int restart = 0; restart < 3; restart++) {
            try (ReplicaLock lock = ReplicaLock.acquire(dir, false)) {
                assertEquals(id, lock.replicaId(), "restart " + restart);
            }
        }
        Path other = dir.resolve("other");
        try (ReplicaLock lock = ReplicaLock.acquire(other, false)) {
            assertNotEquals(id, lock.replicaId(), "another directory is another replica");
        }
    }

    @Test
    void aLockHeldByAnotherProcessIsRefusedNamingItsPidUntilItEnds() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--sun-misc-unsafe-memory-access=allow", "-cp", System.getProperty("java.class.path"),
                ReplicaLockHolder.class.getName(), dir.toString()).redirectErrorStream(true).start();
        try {
            String line = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            assertTrue(line != null && line.startsWith("locked "), "the child holds the lock: " + line);
            for (int attempt = 0; attempt < 2; attempt++) { // a refusal closes its descriptor: the child's lock stays
                IllegalStateException refused = assertThrows(IllegalStateException.class,
                        () -> ReplicaLock.acquire(dir, false));
                assertTrue(refused.getMessage().contains("replica " + dir + " is followed already (by pid "
                        + child.pid() + ")"), refused.getMessage());
            }
            child.getOutputStream().close();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, child.exitValue());
            try (ReplicaLock lock = ReplicaLock.acquire(dir, false)) {
                assertEquals(Long.parseLong(line.substring("locked ".length())), lock.replicaId(),
                        "one identity for the directory, whichever process follows it");
            }
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void aQueueThatIsNotAReplicaIsRefusedAndGetsNoFileOfAReplica() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            queue.appender().append(new MarketData());
        }
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> ReplicaLock.acquire(dir, false));
        assertTrue(refused.getMessage().contains("is not a replica"), refused.getMessage());
        assertTrue(Files.notExists(dir.resolve(ReplicaLock.NAME)) && Files.notExists(dir.resolve(ReplicaIdentity.NAME)));
    }

    @Test
    void plantedLinksAreNeverFollowedAndACorruptIdentityIsRefused() throws Exception {
        Path target = dir.resolve("target");
        Files.writeString(target, "keep");
        Path replica = Files.createDirectory(dir.resolve("r"));
        Files.createSymbolicLink(replica.resolve(ReplicaIdentity.NAME), target);
        IllegalStateException linked = assertThrows(IllegalStateException.class,
                () -> ReplicaLock.acquire(replica, false));
        assertTrue(linked.getMessage().contains("is a symbolic link"), linked.getMessage());
        Files.delete(replica.resolve(ReplicaIdentity.NAME));
        Files.delete(replica.resolve(ReplicaLock.NAME)); // created before the identity was refused
        Files.createSymbolicLink(replica.resolve(ReplicaLock.NAME), target);
        assertThrows(IllegalStateException.class, () -> ReplicaLock.acquire(replica, false));
        assertEquals("keep", Files.readString(target), "the link's target is untouched");
        Files.delete(replica.resolve(ReplicaLock.NAME));
        Files.write(replica.resolve(ReplicaIdentity.NAME), new byte[16]);
        QueueCorruptedException corrupt = assertThrows(QueueCorruptedException.class,
                () -> ReplicaLock.acquire(replica, false));
        assertTrue(corrupt.getMessage().contains("not a replica identity"), corrupt.getMessage());
        try (ReplicaLock lock = ReplicaLock.acquire(dir.resolve("free"), false)) {
            assertTrue(lock.replicaId() != 0, "a refusal leaves no lock of this process behind");
        }
        Files.delete(replica.resolve(ReplicaIdentity.NAME));
        try (ReplicaLock lock = ReplicaLock.acquire(replica, false)) {
            assertTrue(lock.replicaId() != 0, "and the refused directory is free once repaired");
        }
    }
}
