package io.blit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.cli.BlitCliRun.Result;
import io.blit.queue.BlitQueue;
import io.blit.queue.NamedTailer;
import io.blit.queue.Quarantined;
import io.blit.queue.replica.Quarantine;
import io.blit.queue.replica.QueueTerms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The administration commands: {@code replicate fence}, {@code consumers remove|move}, {@code quarantine list|drop}:
 * one line of what each did, or one line saying why not (a held consumer: exit 1 naming the holder's pid; bad input:
 * exit 2, nothing changed).
 */
class AdministrationCommandsTest {
    private static final String ID = "([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|-)";
    private static final long PID = ProcessHandle.current().pid();

    @TempDir
    Path tmp;

    @Test
    void fenceRaisesTheFenceOnceAndStatusThenSaysFenced() {
        Path queue = queue(3);
        Result fenced = BlitCliRun.run("replicate", "fence", "--dir", queue.toString(), "--term", "5");
        assertEquals(0, fenced.code(), fenced.err());
        assertTrue(fenced.out().matches("fenced queue " + ID + " at term 5\n"), fenced.out());
        assertEquals(5, QueueTerms.status(queue).fenceTerm());
        assertEquals(QueueTerms.Role.FENCED, QueueTerms.status(queue).role());
        Result again = BlitCliRun.run("replicate", "fence", "--dir", queue.toString(), "--term", "4");
        assertEquals(0, again.code(), again.err());
        assertTrue(again.out().matches("queue " + ID + " already fenced at term 5\n"), again.out());
        assertEquals(5, QueueTerms.status(queue).fenceTerm(), "never lowered");
    }

    @Test
    void fenceRefusesATermOutOfRangeAndADirectoryWithoutAQueueWritingNothing() throws IOException {
        Path queue = queue(1);
        Result high = BlitCliRun.run("replicate", "fence", "--dir", queue.toString(), "--term", "4294967296");
        assertEquals(2, high.code(), high.err());
        assertEquals("error: --term 4294967296 is outside 0 to 4294967295\n", high.err());
        assertEquals(0, QueueTerms.status(queue).fenceTerm());
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        Result none = BlitCliRun.run("replicate", "fence", "--dir", empty.toString(), "--term", "1");
        assertEquals(2, none.code(), none.err());
        assertTrue(none.err().startsWith("error: no queue in " + empty), none.err());
        try (var entries = Files.list(empty)) {
            assertEquals(0, entries.count(), "nothing written");
        }
    }

    @Test
    void removeForgetsAConsumerAndRefusesAHeldOneNamingTheHolder() {
        Path queue = queue(10);
        commit(queue, "risk", 4);
        try (BlitQueue<Void> open = BlitQueue.openRaw(queue); NamedTailer<Void> held = open.tailer("risk")) {
            Result refused = BlitCliRun.run("consumers", "remove", "--dir", queue.toString(), "--name", "risk");
            assertEquals(1, refused.code(), refused.out() + refused.err());
            assertEquals("", refused.out());
            assertEquals("error: cannot remove consumer risk: process " + PID + " holds it; stop that reader first\n",
                    refused.err());
        }
        assertTrue(consumers(queue).startsWith("risk committed 4 "), "unchanged while held");
        Result removed = BlitCliRun.run("consumers", "remove", "--dir", queue.toString(), "--name", "risk");
        assertEquals(0, removed.code(), removed.err());
        assertEquals("removed consumer risk (committed 4)\n", removed.out());
        assertEquals("", consumers(queue));
        Result unknown = BlitCliRun.run("consumers", "remove", "--dir", queue.toString(), "--name", "risk");
        assertEquals(2, unknown.code(), unknown.err());
        assertTrue(unknown.err().startsWith("error: queue " + queue + " has no consumer risk"), unknown.err());
    }

    @Test
    void moveSetsTheNextIndexByIndexOrTimeAndRefusesAHeldConsumer() {
        Path queue = queue(10);
        commit(queue, "risk", 7);
        Result moved = BlitCliRun.run("consumers", "move", "--dir", queue.toString(), "--name", "risk", "--to", "3");
        assertEquals(0, moved.code(), moved.err());
        assertEquals("moved consumer risk to index 3 (committed 2, was 7)\n", moved.out());
        assertTrue(consumers(queue).startsWith("risk committed 2 lag 7 "), consumers(queue));
        Result toTime = BlitCliRun.run("consumers", "move", "--dir", queue.toString(), "--name", "risk",
                "--to-time", "2000-01-01T00:00:00Z");
        assertEquals(0, toTime.code(), toTime.err());
        assertEquals("moved consumer risk to index 0 (committed -1, was 2)\n", toTime.out());
        Result future = BlitCliRun.run("consumers", "move", "--dir", queue.toString(), "--name", "risk",
                "--to-time", "2200-01-01T00:00:00Z");
        assertEquals("moved consumer risk to index 10 (committed 9, was -1)\n", future.out(), future.err());
        try (BlitQueue<Void> open = BlitQueue.openRaw(queue); NamedTailer<Void> held = open.tailer("risk")) {
            Result refused = BlitCliRun.run("consumers", "move", "--dir", queue.toString(), "--name", "risk",
                    "--to", "1");
            assertEquals(1, refused.code(), refused.out() + refused.err());
            assertEquals("error: cannot move consumer risk: process " + PID + " holds it; stop that reader first\n",
                    refused.err());
        }
        Result beyond = BlitCliRun.run("consumers", "move", "--dir", queue.toString(), "--name", "risk", "--to", "11");
        assertEquals(2, beyond.code(), beyond.err());
        assertEquals("error: --to 11 is outside the queue: 0 to its end 10\n", beyond.err());
        assertTrue(consumers(queue).startsWith("risk committed 9 lag 0 "), "unchanged: " + consumers(queue));
        Result both = BlitCliRun.run("consumers", "move", "--dir", queue.toString(), "--name", "risk", "--to", "1",
                "--to-time", "2000-01-01T00:00:00Z");
        assertEquals(2, both.code(), both.err());
    }

    @Test
    void quarantineListsAndDropsWhatARejoinSetAside() {
        Path queue = queue(10);
        Result none = BlitCliRun.run("quarantine", "list", "--dir", queue.toString());
        assertEquals("no quarantine in " + queue + "\n", none.out(), none.err());
        Quarantined tail = Quarantine.moveFrom(queue, 6).orElseThrow();
        String name = tail.directory().getFileName().toString();
        Result listed = BlitCliRun.run("quarantine", "list", "--dir", queue.toString());
        assertEquals(0, listed.code(), listed.err());
        assertEquals("quarantine " + name + " from 6 end 10 records 4\n", listed.out());
        Result dropped = BlitCliRun.run("quarantine", "drop", "--dir", queue.toString(), "--name", name);
        assertEquals(0, dropped.code(), dropped.err());
        assertEquals("dropped quarantine " + name + " from 6 end 10 records 4\n", dropped.out());
        assertFalse(Files.exists(tail.directory()));
        assertEquals("no quarantine in " + queue + "\n", BlitCliRun.run("quarantine", "list", "--dir",
                queue.toString()).out());
        assertEquals(6, QueueTerms.status(queue).endIndex(), "the live queue is untouched");
    }

    @Test
    void dropRefusesWhatIsNotACompleteQuarantineDeletingNothing() throws IOException {
        Path queue = queue(4);
        Result badName = BlitCliRun.run("quarantine", "drop", "--dir", queue.toString(), "--name", "../" + queue);
        assertEquals(2, badName.code(), badName.err());
        assertTrue(badName.err().startsWith("error: --name ../"), badName.err());
        Path foreign = Files.createDirectories(queue.resolve("quarantine/from-1-20261128T121500Z"));
        Files.writeString(foreign.resolve("notes"), "kept");
        Result unmarked = BlitCliRun.run("quarantine", "drop", "--dir", queue.toString(), "--name",
                foreign.getFileName().toString());
        assertEquals(2, unmarked.code(), unmarked.err());
        assertTrue(unmarked.err().startsWith("error: quarantine " + foreign + " is not complete"), unmarked.err());
        assertTrue(Files.exists(foreign.resolve("notes")), "nothing deleted");
        Result listed = BlitCliRun.run("quarantine", "list", "--dir", queue.toString());
        assertEquals("incomplete from-1-20261128T121500Z\n", listed.out(), listed.err());
        Result absent = BlitCliRun.run("quarantine", "drop", "--dir", queue.toString(), "--name",
                "from-2-20261128T121500Z");
        assertEquals(2, absent.code(), absent.err());
    }

    private Path queue(int count) {
        Path queue = tmp.resolve("q");
        BlitCliRun.appendRaw(queue, count);
        return queue;
    }

    /** Reads {@code count} messages as {@code name} and commits the last. */
    private static void commit(Path queue, String name, long lastIndex) {
        try (BlitQueue<Void> open = BlitQueue.openRaw(queue); NamedTailer<Void> tailer = open.tailer(name)) {
            tailer.seek(lastIndex + 1);
            tailer.commit();
        }
    }

    private static String consumers(Path queue) {
        Result listed = BlitCliRun.run("consumers", "--dir", queue.toString());
        assertEquals(0, listed.code(), listed.err());
        return listed.out();
    }
}
