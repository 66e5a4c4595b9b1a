package io.blit.tools.cli;

import static io.blit.tools.cli.QueueCliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.tools.messages.BookUpdate;
import io.blit.tools.messages.MarketData;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code produce --type mixed} and the reading commands on a queue of two types, exactly as scripts use them. */
class MixedStreamCliTest {
    @TempDir
    Path tmp;

    private String dir() {
        return tmp.resolve("q").toString();
    }

    @Test
    void produceMixedWritesTypeIdsOneAndTwoThatCheckVerifiesAcrossRuns() {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "1000", "--type", "mixed").code());
        assertEquals(0, run("produce", "--dir", dir(), "--count", "500", "--type", "mixed").code());
        QueueCliTest.Result check = run("check", "--dir", dir(), "--type", "mixed");
        assertEquals(0, check.code(), check.out() + check.err());
        assertEquals("1500 records ok", check.out().strip());
        QueueCliTest.Result byFile = run("check", "--dir", dir());
        assertEquals("1500 records ok", byFile.out().strip(), "without --type: the types the file records");
        try (BlitQueue<Object> queue = BlitQueue.open(Path.of(dir()), MixedStream.TYPES)) {
            assertEquals(1, queue.types().typeId(MarketData.class));
            assertEquals(2, queue.types().typeId(BookUpdate.class));
        }
    }

    @Test
    void dumpAndTailPrintEachRecordsTypeName() {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "6", "--type", "mixed").code());
        List<String> dumped = run("dump", "--dir", dir()).lines().stream().filter(l -> l.startsWith("index=")).toList();
        List<String> tailed = run("tail", "--dir", dir()).lines();
        for (List<String> lines : List.of(dumped, tailed)) {
            assertEquals(6, lines.size(), String.valueOf(lines));
            for (int n = 0; n < 6; n++) {
                String type = n % 3 == 2 ? "BookUpdate" : "MarketData";
                assertTrue(lines.get(n).startsWith("index=" + n + " type=" + type + " "), lines.get(n));
                assertTrue(lines.get(n).contains(n % 3 == 2 ? " sequence=" + n + " " : " securityId=" + n + " "),
                        lines.get(n));
            }
        }
    }

    @Test
    void checkFindsARecordOfTheWrongTypeAndRefusesAMixedQueueAsSingleType() {
        try (BlitQueue<Object> queue = BlitQueue.open(Path.of(dir()), MixedStream.TYPES);
             Appender<Object> appender = queue.appender()) {
            appender.append(new MarketData().fillFor(0, 0));
            appender.append(new MarketData().fillFor(1, 0));
            appender.append(new MarketData().fillFor(2, 0)); // message 2 must be a BookUpdate
        }
        QueueCliTest.Result check = run("check", "--dir", dir(), "--type", "mixed");
        assertEquals(1, check.code(), check.out() + check.err());
        assertTrue(check.out().startsWith("check failed: record 2 is a MarketData, expected a BookUpdate"), check.out());
        QueueCliTest.Result byFile = run("check", "--dir", dir());
        assertEquals(1, byFile.code(), "checked as the mixed stream its file says it is: " + byFile.out());
        QueueCliTest.Result single = run("check", "--dir", dir(), "--type", "marketdata");
        assertEquals(2, single.code());
        assertTrue(single.err().contains("holds message types 1=MarketData(144 bytes), 2=BookUpdate("), single.err());
        assertEquals(0, run("produce", "--dir", tmp.resolve("single").toString(), "--count", "3").code());
        QueueCliTest.Result mixed = run("check", "--dir", tmp.resolve("single").toString(), "--type", "mixed");
        assertEquals(2, mixed.code());
        assertTrue(mixed.err().contains("not the mixed stream's types"), mixed.err());
    }

    @Test
    void tailFiltersByTypeAndDumpPrintsAnIndexRange() {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "30", "--type", "mixed").code());
        QueueCliTest.Result books = run("tail", "--dir", dir(), "--type", "BookUpdate", "--count", "3");
        assertEquals(0, books.code(), books.err());
        assertEquals(List.of("index=2", "index=5", "index=8"), books.lines().stream().map(l -> l.split(" ")[0]).toList());
        QueueCliTest.Result byId = run("tail", "--dir", dir(), "--type", "2", "--from", "20");
        assertEquals(List.of("index=20", "index=23", "index=26", "index=29"),
                byId.lines().stream().map(l -> l.split(" ")[0]).toList());
        QueueCliTest.Result unknown = run("tail", "--dir", dir(), "--type", "Quote");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("--type Quote: the queue's newest file holds no such type"), unknown.err());
        QueueCliTest.Result range = run("dump", "--dir", dir(), "--from", "10", "--to", "12");
        assertEquals(0, range.code(), range.err());
        assertEquals(List.of("index=10", "index=11", "index=12"), range.lines().stream()
                .filter(l -> l.startsWith("index=")).map(l -> l.split(" ")[0]).toList());
        assertEquals(2, run("dump", "--dir", dir(), "--from", "99").code(), "beyond the end");
        assertEquals(2, run("dump", "--dir", dir(), "--from", "5", "--to", "4").code());
    }
}
