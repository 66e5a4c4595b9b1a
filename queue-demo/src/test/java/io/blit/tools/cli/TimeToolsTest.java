package io.blit.tools.cli;

import static io.blit.tools.cli.QueueCliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tail --from-time} and {@code dump --from/--to} with times, as operators use them: on a mixed queue whose
 * message n was appended at 09:29:00 + n seconds (a clock the test sets), so every expected index is known.
 */
class TimeToolsTest {
    private static final long START = Instant.parse("2026-11-26T09:29:00Z").getEpochSecond() * 1_000_000_000L;

    @TempDir
    Path tmp;

    private final AtomicLong now = new AtomicLong();

    /** Appends mixed messages {@code from} to {@code to - 1}, message n at 09:29:00 + n s, in small files. */
    private void append(Path dir, long from, long to) {
        QueueOptions options = QueueOptions.defaults().segmentSize(16 << 10).clock(now::get);
        try (BlitQueue<Object> queue = BlitQueue.open(dir, MixedStream.TYPES, options);
             Appender<Object> appender = queue.appender()) {
            for (long n = from; n < to; n++) {
                now.set(START + n * 1_000_000_000L);
                Object message = MixedStream.typeOf(n).factory().get();
                assertEquals(n, appender.append(MixedStream.fill(message, n, 0)));
            }
        }
    }

    @Test
    void tailFromATimePrintsTheMessagesOfATypeAppendedFromThatTimeOn() {
        Path dir = tmp.resolve("q");
        append(dir, 0, 100);
        QueueCliTest.Result tail = run("tail", "--dir", dir.toString(), "--from-time", "2026-11-26T09:30:00Z",
                "--type", "BookUpdate", "--count", "3");
        assertEquals(0, tail.code(), tail.err());
        assertEquals(List.of("index=62", "index=65", "index=68"), firstWords(tail.lines()));
        assertTrue(tail.lines().stream().allMatch(l -> l.contains(" type=BookUpdate ")), tail.out());
        QueueCliTest.Result offset = run("tail", "--dir", dir.toString(), "--from-time", "2026-11-26T10:30:00+01:00",
                "--count", "1");
        assertEquals(List.of("index=60"), firstWords(offset.lines()), "an instant with an offset");
    }

    @Test
    void tailFollowingFromATimeStillToComeSkipsWhatIsAppendedBeforeIt() throws Exception {
        Path dir = tmp.resolve("q");
        append(dir, 0, 100);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompletableFuture<Integer> tail = CompletableFuture.supplyAsync(() -> QueueCli.run(new String[] {"tail",
                "--dir", dir.toString(), "--follow", "--from-time", "2026-11-26T09:31:40Z", "--count", "2"},
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err));
        Thread.sleep(300); // the tail starts at the end of the queue, index 100
        append(dir, 100, 200); // 160 is appended at 09:31:40
        assertEquals(0, tail.get(30, TimeUnit.SECONDS));
        assertEquals(List.of("index=160", "index=161"), firstWords(out.toString(StandardCharsets.UTF_8).lines().toList()));
    }

    @Test
    void dumpBetweenTwoTimesPrintsTheMessagesAppendedInBetweenBothIncluded() {
        Path dir = tmp.resolve("q");
        append(dir, 0, 100);
        QueueCliTest.Result dump = run("dump", "--dir", dir.toString(), "--from", "2026-11-26T09:29:10Z",
                "--to", "2026-11-26T09:29:12Z");
        assertEquals(0, dump.code(), dump.err());
        List<String> records = dump.lines().stream().filter(l -> !l.startsWith("#")).toList();
        assertEquals(List.of("index=10", "index=11", "index=12"), firstWords(records));
        assertTrue(dump.out().contains("# 3 records"), dump.out());
        QueueCliTest.Result mixed = run("dump", "--dir", dir.toString(), "--from", "98", "--to",
                "2026-11-27T00:00:00Z");
        assertEquals(List.of("index=98", "index=99"), firstWords(mixed.lines().stream()
                .filter(l -> !l.startsWith("#")).toList()), "an index and a time after every message");
        QueueCliTest.Result between = run("dump", "--dir", dir.toString(), "--from", "2026-11-26T09:29:10.5Z",
                "--to", "2026-11-26T09:29:10.7Z");
        assertTrue(between.out().contains("# 0 records"), "no message in that window: " + between.out());
    }

    @Test
    void badTimesAreOneLineAndExitTwo() {
        Path dir = tmp.resolve("q");
        append(dir, 0, 10);
        String d = dir.toString();
        for (String[] command : List.of(
                new String[] {"tail", "--dir", d, "--from-time", "yesterday"},
                new String[] {"tail", "--dir", d, "--from-time", "2026-11-26T09:30:00"},
                new String[] {"tail", "--dir", d, "--from", "5", "--from-time", "2026-11-26T09:30:00Z"},
                new String[] {"dump", "--dir", d, "--from", "09:30"},
                new String[] {"dump", "--dir", d, "--from", "2026-11-26T09:30:00Z", "--to", "2026-11-26T09:29:00Z"},
                new String[] {"tail", "--dir", tmp.resolve("absent").toString(), "--from-time", "2026-11-26T09:30:00Z"},
                new String[] {"tail", "--dir", d, "--from-time", "2026-11-26T09:30:00Z", "--type", "Nope"})) {
            QueueCliTest.Result result = run(command);
            String shown = String.join(" ", command);
            assertEquals(2, result.code(), shown + ": " + result.err());
            assertEquals(1, result.err().lines().count(), shown + ": " + result.err());
        }
        assertTrue(run("tail", "--dir", d, "--from-time", "yesterday").err().contains("ISO-8601"));
    }

    private static List<String> firstWords(List<String> lines) {
        return lines.stream().map(l -> l.split(" ")[0]).toList();
    }
}
