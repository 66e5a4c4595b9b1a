package io.blit.tools.cli;

import io.blit.tools.messages.MarketData;

import static io.blit.tools.cli.QueueCliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.tools.cli.QueueCliTest.Result;
import io.blit.tools.messages.BookUpdate;
import io.blit.queue.BlitQueue;
import io.blit.queue.Appender;
import io.blit.tools.latency.MessageKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The bench and demo commands, and produce/check --type book. Structure of the output, never speed. */
class LatencyCommandTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"bench", "demo"})
    void helpDescribesTheCommand(String command) {
        Result help = run(command, "--help");
        assertEquals(0, help.code(), help.err());
        assertTrue(help.out().startsWith("Usage: queue-demo " + command + " "), help.out());
        assertTrue(help.out().contains("--kind") || help.out().contains("bench options"), help.out());
    }

    @Test
    void mainUsageListsBenchAndDemo() {
        Result usage = run("--help");
        assertTrue(usage.out().contains("bench") && usage.out().contains("demo"), usage.out());
        assertFalse(usage.out().contains("not yet"), usage.out());
    }

    @Test
    void benchPrintsBothTablesTheRatioWritesJsonAndChartAndDeletesItsFiles() throws IOException {
        Path json = tmp.resolve("out.json");
        Path queues = Files.createDirectories(tmp.resolve("queues"));
        Result bench = run("bench", "--kind", "tc,normal", "--rate", "20000", "--count", "1000", "--runs", "2",
                "--warmup", "1000", "--json", json.toString(), "--dir", queues.toString());
        assertEquals(0, bench.code(), bench.out() + bench.err());
        List<String> lines = bench.lines();
        assertTrue(lines.get(0).startsWith("bench: thread mode, 20,000 msg/s, 1,000 warm-up + 2 runs x 1,000"), lines.get(0));
        assertEquals(2, lines.stream().filter(l -> l.startsWith("Percentile ")).count(), bench.out());
        assertEquals(2, lines.stream().filter(l -> l.startsWith("worst ")).count(), bench.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches("median p50: normal \\S+ us / tc \\S+ us = \\d+\\.\\dx")), bench.out());
        assertTrue(Files.readString(json).startsWith("[\n  {\"kind\": \"tc\", \"mode\": \"thread\", \"rate\": 20000"));
        assertTrue(Files.readString(tmp.resolve("out.svg")).startsWith("<svg "));
        try (Stream<Path> left = Files.list(queues)) {
            assertEquals(List.of(), left.toList(), "temporary queue directory deleted");
        }
    }

    @Test
    void benchWithTheFloorPrintsWhatTheQueueAddsToIt() {
        Result bench = run("bench", "--kind", "floor,tc", "--rate", "20000", "--count", "500", "--runs", "1",
                "--warmup", "500");
        assertEquals(0, bench.code(), bench.out() + bench.err());
        List<String> lines = bench.lines();
        assertEquals(2, lines.stream().filter(l -> l.startsWith("Percentile ")).count(), bench.out());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("floor (no queue: one shared cache line per message), thread mode")),
                bench.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches(
                "median p50 over the floor: tc \\S+ us - floor \\S+ us = -?\\S+ us added by the queue")), bench.out());
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("median p50: ")), "the floor is no queue to take a ratio of: "
                + bench.out());
    }

    @Test
    void roundsRunEveryKindInTurnAndMergeThemInBothModes() {
        for (String mode : List.of("thread", "process")) {
            Result bench = run("bench", "--kind", "floor,tc", "--mode", mode, "--rate", "20000", "--count", "500",
                    "--runs", "2", "--rounds", "2", "--warmup", "500");
            assertEquals(0, bench.code(), bench.out() + bench.err());
            List<String> lines = bench.lines();
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("[4/4] trivially copyable BookUpdate")), bench.out());
            assertEquals(2, lines.stream().filter(l -> l.matches("Percentile +run1 +run2 +run3 +run4 +% Variation"))
                    .count(), "2 rounds x 2 runs per kind: " + bench.out());
            assertEquals(4, lines.stream().filter(l -> l.matches("round [12] placement: .+")).count(), bench.out());
        }
        assertEquals(2, run("bench", "--rounds", "0").code());
    }

    @Test
    void aPeerKindGetsBlitsShareOfItsMedians() {
        // flagged-test: a peer kind of the test class path (its threads run in a JVM with its own flag)
        Result bench = run("bench", "--kind", "tc,flagged-test", "--rate", "20000", "--count", "500", "--runs", "1",
                "--warmup", "500");
        assertEquals(0, bench.code(), bench.out() + bench.err());
        assertTrue(bench.lines().stream().anyMatch(l -> l.matches(
                "tc / flagged-test: p50 [0-9.]+(e-?[0-9]+)?, p99 [0-9.]+(e-?[0-9]+)? \\(medians of the runs\\)")), bench.out());
    }

    @Test
    void demoTakesBenchOptionsAndRunsProcesses() throws IOException {
        Path queues = Files.createDirectories(tmp.resolve("queues"));
        Result demo = run("demo", "--kind", "tc", "--rate", "20000", "--count", "500", "--runs", "1",
                "--warmup", "500", "--dir", queues.toString());
        assertEquals(0, demo.code(), demo.out() + demo.err());
        assertTrue(demo.out().startsWith("Blit latency demo: process mode"), demo.out());
        assertTrue(demo.out().contains("[1/1] trivially copyable BookUpdate: 1,000 messages"), demo.out());
        try (Stream<Path> left = Files.list(queues)) {
            assertEquals(List.of(), left.toList(), "temporary files deleted");
        }
    }

    @Test
    void badOptionsAreUsageErrors() {
        Result kind = run("bench", "--kind", "fast");
        assertEquals(QueueCli.USAGE, kind.code());
        assertTrue(kind.err().contains("unknown message kind 'fast'"), kind.err());
        Result mode = run("bench", "--mode", "fibre");
        assertEquals(QueueCli.USAGE, mode.code());
        assertTrue(mode.err().contains("--mode must be thread or process"), mode.err());
        Result rate = run("bench", "--rate", "0");
        assertEquals(QueueCli.USAGE, rate.code());
        assertTrue(rate.err().contains("--rate must be >= 1"), rate.err());
        Result twice = run("bench", "--kind", "tc,tc");
        assertEquals(QueueCli.USAGE, twice.code());
        Result segment = run("bench", "--segment-size", Long.toString(8L << 30));
        assertEquals(QueueCli.USAGE, segment.code());
        assertTrue(segment.err().contains("--segment-size must be at most"), segment.err());
        Result dir = run("bench", "--dir", tmp.resolve("missing").toString());
        assertEquals(QueueCli.USAGE, dir.code());
        assertTrue(dir.err().contains("no such directory"), dir.err());
    }

    @Test
    void kindsAndSegmentSizing() {
        assertEquals(List.of(MessageKind.TC, MessageKind.NORMAL), LatencyCommand.kinds("both"));
        assertEquals(List.of(MessageKind.MARKET_DATA, MessageKind.TC), LatencyCommand.kinds("md, tc"));
        long size = LatencyCommand.autoSegmentSize(MessageKind.TC, 1_000_000);
        assertTrue(size >= 208L * 1_000_000 && size % 4096 == 0, "holds a million 208-byte records: " + size);
        assertEquals(1L << 30, LatencyCommand.autoSegmentSize(MessageKind.NORMAL, 100_000_000));
        assertEquals(Path.of("a/b.svg"), LatencyCommand.chartFile(Path.of("a/b.json")));
        assertEquals(Path.of("b.txt.svg"), LatencyCommand.chartFile(Path.of("b.txt")));
    }

    @Test
    void warnsWhenTheMedianIsABacklog() {
        org.HdrHistogram.Histogram fast = io.blit.tools.latency.ReceiveLoop.newHistogram();
        fast.recordValue(300);
        org.HdrHistogram.Histogram slow = io.blit.tools.latency.ReceiveLoop.newHistogram();
        slow.recordValue(2_000_000);
        assertTrue(LatencyCommand.backlogNote(new io.blit.tools.latency.LatencyResult(MessageKind.TC, "thread", 100_000,
                List.of(fast))).isEmpty());
        String note = LatencyCommand.backlogNote(new io.blit.tools.latency.LatencyResult(MessageKind.NORMAL, "thread",
                100_000, List.of(slow))).orElseThrow();
        assertTrue(note.startsWith("note: normal: the median latency (2001 us) is over 100 send intervals (10.0 us)"),
                note);
    }

    @Test
    void produceAndCheckBookUpdates() {
        String dir = tmp.resolve("book").toString();
        Result produced = run("produce", "--type", "book", "--dir", dir, "--count", "500");
        assertEquals(0, produced.code(), produced.err());
        Result checked = run("check", "--type", "book", "--dir", dir);
        assertEquals(0, checked.code(), checked.out() + checked.err());
        assertEquals("500 records ok", checked.out().strip());
        Result byFile = run("check", "--dir", dir);
        assertEquals("500 records ok", byFile.out().strip(), "without --type: the class the file records");
        Result asMarketData = run("check", "--type", "marketdata", "--dir", dir);
        assertEquals(QueueCli.USAGE, asMarketData.code(), "a BookUpdate queue is not a MarketData queue");
        assertTrue(asMarketData.err().contains("BookUpdate") || asMarketData.err().contains("MarketData"), asMarketData.err());
        Result badType = run("produce", "--type", "quote", "--dir", dir, "--count", "1");
        assertEquals(QueueCli.USAGE, badType.code());
        assertTrue(badType.err().contains("--type must be marketdata, book or mixed"), badType.err());
    }

    @Test
    void checkBookReportsAWrongRecord() {
        Path dir = tmp.resolve("bad");
        try (BlitQueue<BookUpdate> queue = BlitQueue.open(dir, BookUpdate.class);
             Appender<BookUpdate> appender = queue.appender()) {
            BookUpdate update = new BookUpdate();
            appender.append(update.fillFor(0, 1));
            update.fillFor(1, 1).askPrice3 = -1;
            appender.append(update);
        }
        Result checked = run("check", "--type", "book", "--dir", dir.toString());
        assertEquals(QueueCli.CHECK_FAILED, checked.code(), checked.out());
        assertTrue(checked.out().contains("record 1 has inconsistent fields") && checked.out().contains("askPrice3=-1.0"),
                checked.out());
    }

    @Test
    void segmentSizeTakesAUnitSuffix() {
        Result tooLarge = run("bench", "--segment-size", "3g");
        assertEquals(QueueCli.USAGE, tooLarge.code());
        assertTrue(tooLarge.err().startsWith("error: bench: --segment-size must be at most 2147483648"), tooLarge.err());
        Result notASize = run("bench", "--segment-size", "lots");
        assertEquals(QueueCli.USAGE, notASize.code());
        assertEquals("error: bench: --segment-size expects a size in bytes such as 65536, 64k, 256m or 1g, got 'lots'"
                + " (queue-demo bench --help for usage)", notASize.err().strip());
        Result kind = run("demo", "--kind", "tc,fast");
        assertTrue(kind.err().startsWith("error: demo: --kind names an unknown message kind 'fast'"), kind.err());
    }
}
