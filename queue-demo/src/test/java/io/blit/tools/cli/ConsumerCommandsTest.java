package io.blit.tools.cli;

import static io.blit.tools.cli.QueueCliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.NamedTailer;
import io.blit.tools.cli.QueueCliTest.Result;
import io.blit.tools.messages.MarketData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tail --consumer NAME} and {@code consumers}. */
class ConsumerCommandsTest {
    /** One consumers line; the holder and time are checked by the tests that need them. */
    private static final String LINE = "%s committed %d lag %d holder none last-commit ";

    @TempDir
    Path tmp;

    private String dir() {
        return tmp.resolve("q").toString();
    }

    private static List<String> indices(Result tail) {
        return tail.lines().stream().map(line -> line.split(" ")[0]).toList();
    }

    @Test
    void tailAsAConsumerResumesAfterTheMessagesItPrinted() {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "20").code());
        Result first = run("tail", "--dir", dir(), "--consumer", "risk", "--count", "3");
        assertEquals(0, first.code(), first.err());
        assertEquals(List.of("index=0", "index=1", "index=2"), indices(first));
        String line = first.lines().get(1);
        assertTrue(line.startsWith("index=1 ") && line.contains(" securityId=1 ") && line.contains(" bidQty1=" + (1 + 1 / 16.0)),
                "tail's own format: " + line);
        Result second = run("tail", "--dir", dir(), "--consumer", "risk", "--count", "3");
        assertEquals(List.of("index=3", "index=4", "index=5"), indices(second));

        Result consumers = run("consumers", "--dir", dir());
        assertEquals(0, consumers.code(), consumers.err());
        assertEquals(1, consumers.lines().size(), consumers.out());
        assertTrue(consumers.lines().getFirst().matches("risk committed 5 lag 14 holder none last-commit "
                + "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z"), consumers.out());

        Result rest = run("tail", "--dir", dir(), "--consumer", "risk");
        assertEquals(14, rest.lines().size());
        assertTrue(run("consumers", "--dir", dir()).out().startsWith(String.format(LINE, "risk", 19, 0)));
    }

    @Test
    void aNewConsumerStartsWhereFromSaysAndAnExistingOneIgnoresIt() {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "10").code());
        assertEquals("", run("tail", "--dir", dir(), "--consumer", "late", "--from", "end").out());
        assertEquals(List.of("index=7"), indices(run("tail", "--dir", dir(), "--consumer", "mid", "--from", "7", "--count", "1")));
        assertEquals(0, run("produce", "--dir", dir(), "--count", "2").code());
        assertEquals(List.of("index=10", "index=11"), indices(run("tail", "--dir", dir(), "--consumer", "late", "--from", "start")));
        assertEquals(List.of("index=8", "index=9"), indices(run("tail", "--dir", dir(), "--consumer", "mid", "--count", "2")));

        List<String> lines = run("consumers", "--dir", dir()).lines();
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith(String.format(LINE, "late", 11, 0)), lines.get(0));
        assertTrue(lines.get(1).startsWith(String.format(LINE, "mid", 9, 2)), lines.get(1));
    }

    @Test
    void followingAsAConsumerCommitsEachPrintedMessage() {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "5").code());
        Result follow = run("tail", "--dir", dir(), "--consumer", "f", "--from", "3", "--follow", "--count", "2");
        assertEquals(List.of("index=3", "index=4"), indices(follow));
        assertTrue(run("consumers", "--dir", dir()).out().startsWith(String.format(LINE, "f", 4, 0)));
    }

    @Test
    void aNewConsumerThatPrintsNothingStillRecordsItsStart() {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "4").code());
        Result none = run("tail", "--dir", dir(), "--consumer", "idle", "--count", "0");
        assertEquals(0, none.code(), none.err());
        assertEquals("", none.out());
        assertEquals(String.format(LINE, "idle", -1, 4) + "never", run("consumers", "--dir", dir()).out().strip());
    }

    @Test
    void consumersOfAQueueWithoutNamedConsumersPrintsNothingAndCreatesNothing() {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "4").code());
        Result consumers = run("consumers", "--dir", dir());
        assertEquals(0, consumers.code(), consumers.err());
        assertEquals("", consumers.out());
        assertFalse(Files.exists(Path.of(dir(), "consumers.blitc")));
        Result missing = run("consumers", "--dir", tmp.resolve("absent").toString());
        assertEquals(2, missing.code());
        assertEquals("error: no such directory: " + tmp.resolve("absent"), missing.err().strip());
    }

    @Test
    void consumersShowsTheLiveHolder() {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "4").code());
        try (BlitQueue<MarketData> queue = BlitQueue.open(Path.of(dir()), MarketData.class);
             NamedTailer<MarketData> held = queue.tailer("held")) {
            assertTrue(held.readNext(new MarketData()));
            held.commit();
            String line = run("consumers", "--dir", dir()).out().strip();
            assertTrue(line.startsWith("held committed 0 lag 3 holder " + ProcessHandle.current().pid() + " last-commit 20"),
                    line);
        }
    }

    @Test
    void aBadConsumerNameIsAOneLineUsageError() {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "4").code());
        Result bad = run("tail", "--dir", dir(), "--consumer", "risk desk");
        assertEquals(2, bad.code());
        assertEquals("error: tail: --consumer: consumer name \"risk desk\" must be 1 to 32 characters of A-Z a-z 0-9 . _ -: "
                + "character 4 is ' ' (U+0020) (queue-demo tail --help for usage)", bad.err().strip());
        Result beyond = run("tail", "--dir", dir(), "--consumer", "risk", "--from", "99");
        assertEquals(2, beyond.code());
        assertTrue(beyond.err().startsWith("error: tail: --from 99: index 99 is beyond the end"), beyond.err());
        assertEquals("", run("consumers", "--dir", dir()).out(), "a refused tail creates no consumer");
    }

    @Test
    void aConsumerHeldByALiveProcessIsAOneLineErrorNamingItsPid() {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "4").code());
        try (BlitQueue<MarketData> queue = BlitQueue.open(Path.of(dir()), MarketData.class);
             NamedTailer<MarketData> held = queue.tailer("risk")) {
            Result refused = run("tail", "--dir", dir(), "--consumer", "risk");
            assertEquals(2, refused.code());
            assertEquals(1, refused.err().lines().count(), refused.err());
            assertTrue(refused.err().startsWith("error: consumer risk of queue " + dir() + " is held by this process (pid "
                    + ProcessHandle.current().pid() + ")"), refused.err());
            assertEquals("", refused.out());
            assertEquals(0, held.index());
        }
    }

    @Test
    void aConsumerWhoseNextMessagesWereDeletedIsAOneLineErrorNamingThem() {
        BlitQueue.open(Path.of(dir()), MarketData.class, QueueOptions.defaults().segmentSize(64 << 10)).close();
        assertEquals(0, run("produce", "--dir", dir(), "--count", "2000").code()); // 64 KiB files: 377 messages each
        assertEquals(0, run("tail", "--dir", dir(), "--consumer", "slow", "--count", "2").code());
        long firstLeft;
        try (BlitQueue<MarketData> queue = BlitQueue.open(Path.of(dir()), MarketData.class)) {
            long[] firsts = queue.fileFirstIndices();
            queue.deleteFilesBefore(firsts[2]);
            firstLeft = firsts[2];
        }
        Result lost = run("tail", "--dir", dir(), "--consumer", "slow");
        assertEquals(2, lost.code());
        assertEquals("error: messages [2, " + firstLeft + ") of queue " + dir() + " were deleted by retention before "
                + "consumer slow read them; the oldest message left is " + firstLeft, lost.err().strip());
    }
}
