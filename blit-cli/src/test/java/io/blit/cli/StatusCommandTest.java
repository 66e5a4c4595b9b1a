package io.blit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.cli.BlitCliRun.Result;
import io.blit.queue.replica.Quarantine;
import io.blit.queue.replica.QueueTerms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code replicate status}: one line per queue directory, in the format scripts parse, and nothing written. */
class StatusCommandTest {
    private static final String LINE = "queue [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} term 0 end %d role %s\n";

    @TempDir
    Path tmp;

    @Test
    void aQueuePrintsItsIdTermEndAndRoleOnOneLineAndStaysUnchanged() throws IOException {
        Path queue = tmp.resolve("q");
        BlitCliRun.appendRaw(queue, 3);
        List<String> before = names(queue);
        Result status = BlitCliRun.run("replicate", "status", "--dir", queue.toString());
        assertEquals(0, status.code(), status.err());
        assertTrue(status.out().matches(LINE.formatted(3, "primary")), status.out());
        assertEquals(before, names(queue), "status reads only");

        Files.writeString(queue.resolve("replica-of"), "aeron 10.0.0.1:7000\n");
        Result replica = BlitCliRun.run("replicate", "status", "--dir", queue.toString());
        assertTrue(replica.out().matches(LINE.formatted(3, "replica")), replica.out());
        assertEquals(status.out().split(" ")[1], replica.out().split(" ")[1], "the same queue id");
    }

    @Test
    void aPrimaryThatKnowsOfANewerTermIsFenced() {
        Path queue = tmp.resolve("q");
        BlitCliRun.appendRaw(queue, 2);
        QueueTerms.fence(queue, 4);
        Result status = BlitCliRun.run("replicate", "status", "--dir", queue.toString());
        assertEquals(0, status.code(), status.err());
        assertTrue(status.out().matches(LINE.formatted(2, "fenced")), status.out());
    }

    @Test
    void aQuarantineSaysRoleQuarantineWhereverItIsCopied() throws IOException {
        Path queue = tmp.resolve("q");
        BlitCliRun.appendRaw(queue, 300);
        Path quarantine = Quarantine.moveFrom(queue, 120).orElseThrow().directory();
        Path copy = Files.createDirectory(tmp.resolve("copy"));
        try (var files = Files.list(quarantine)) {
            for (Path file : files.toList()) {
                Files.copy(file, copy.resolve(file.getFileName()));
            }
        }
        for (Path dir : List.of(quarantine, copy)) {
            Result status = BlitCliRun.run("replicate", "status", "--dir", dir.toString());
            assertEquals(0, status.code(), status.err());
            assertEquals("queue - term 0 end 300 role quarantine\n", status.out(), dir.toString());
        }
        Result live = BlitCliRun.run("replicate", "status", "--dir", queue.toString());
        assertTrue(live.out().matches(LINE.formatted(120, "primary")), live.out());
    }

    @Test
    void aDirectoryWithoutAQueueIsRefusedInOneLine() throws IOException {
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        Result status = BlitCliRun.run("replicate", "status", "--dir", empty.toString());
        assertEquals(2, status.code(), status.out() + status.err());
        assertEquals("error: no queue in " + empty + "\n", status.err());
        assertEquals("", status.out());
    }

    private static List<String> names(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
