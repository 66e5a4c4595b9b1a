package io.blit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.cli.BlitCliRun.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code replicate promote}: one line saying what it did, or one line saying why not with exit code 1. */
class PromoteCommandTest {
    private static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

    @TempDir
    Path tmp;

    @Test
    void aReplicaIsPromotedToTheNextTermAtItsEndAndThenReportsItselfPrimary() throws IOException {
        Path queue = replica(3);
        Result promoted = BlitCliRun.run("replicate", "promote", "--dir", queue.toString());
        assertEquals(0, promoted.code(), promoted.err());
        assertTrue(promoted.out().matches("promoted queue " + UUID + " to term 1 at index 3\n"), promoted.out());
        Result status = BlitCliRun.run("replicate", "status", "--dir", queue.toString());
        assertTrue(status.out().matches("queue " + UUID + " term 1 end 3 role primary\n"), status.out());
        assertEquals(promoted.out().split(" ")[2], status.out().split(" ")[1], "the same queue id");
        BlitCliRun.appendRaw(queue, 1); // appends are accepted now, at the promotion's index
        assertTrue(BlitCliRun.run("replicate", "status", "--dir", queue.toString()).out().contains(" end 4 "));
    }

    @Test
    void aGivenTermIsTaken() throws IOException {
        Path queue = replica(2);
        Result promoted = BlitCliRun.run("replicate", "promote", "--dir", queue.toString(), "--term", "12");
        assertEquals(0, promoted.code(), promoted.err());
        assertTrue(promoted.out().endsWith(" to term 12 at index 2\n"), promoted.out());
    }

    @Test
    void aPrimaryIsRefusedWithExitCodeOneOnOneLine() {
        Path queue = tmp.resolve("q");
        BlitCliRun.appendRaw(queue, 2);
        Result refused = BlitCliRun.run("replicate", "promote", "--dir", queue.toString());
        assertEquals(1, refused.code(), refused.out() + refused.err());
        assertEquals("", refused.out());
        assertTrue(refused.err().startsWith("error: queue " + queue + " is not a replica"), refused.err());
        assertEquals(1, refused.err().lines().count(), refused.err());
    }

    @Test
    void aTermNotAboveTheReplicasIsRefusedWithExitCodeOne() throws IOException {
        Path queue = replica(2);
        Result refused = BlitCliRun.run("replicate", "promote", "--dir", queue.toString(), "--term", "0");
        assertEquals(1, refused.code(), refused.out() + refused.err());
        assertTrue(refused.err().startsWith("error: a promotion's term is from 1"), refused.err());
        assertTrue(Files.exists(queue.resolve("replica-of")), "still a replica");
    }

    /** A queue of {@code count} raw records marked as a replica, as replication leaves one. */
    private Path replica(int count) throws IOException {
        Path queue = tmp.resolve("q");
        BlitCliRun.appendRaw(queue, count);
        Files.writeString(queue.resolve("replica-of"), "aeron 10.0.0.1:7000\n");
        return queue;
    }
}
