package io.blit.tools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.LayoutDescriptor;
import io.blit.queue.BlitQueue;
import io.blit.tools.messages.MarketData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class QueueCliTest {
    /** Where the first record of a segment file starts (header page, checkpoint page). */
    private static final long FIRST_RECORD = 8192;
    /** One MarketData record: 8-byte header word, 8-byte time, 144-byte payload. */
    private static final long RECORD = BlitQueue.recordBytes(144);

    @TempDir
    Path tmp;

    record Result(int code, String out, String err) {
        List<String> lines() {
            return out.lines().toList();
        }
    }

    static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = QueueCli.run(args, o, e);
        }
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private String dir() {
        return tmp.resolve("q").toString();
    }

    @Test
    void produceThenCheck() {
        Result produced = run("produce", "--dir", dir(), "--count", "1000");
        assertEquals(0, produced.code(), produced.err());
        assertTrue(produced.out().contains("indices 0..999"), produced.out());
        Result checked = run("check", "--dir", dir());
        assertEquals(0, checked.code(), checked.out() + checked.err());
        assertEquals("1000 records ok", checked.out().strip());
    }

    @Test
    void produceWithPrivateCreatesTheQueueForItsUserOnly() throws IOException {
        Path dir = tmp.resolve("parent").resolve("q");
        Result produced = run("produce", "--dir", dir.toString(), "--count", "2000", "--private");
        assertEquals(0, produced.code(), produced.err());
        assertEquals("rwx------", mode(dir));
        assertEquals("rwx------", mode(dir.getParent()));
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                assertEquals("rw-------", mode(file), file.toString());
            }
        }
    }

    private static String mode(Path path) throws IOException {
        return java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    @Test
    void concurrentProducersMakeOneGapFreeSequenceThatCheckAccepts() throws Exception {
        int producers = 3;
        int each = 20_000;
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(producers);
        List<java.util.concurrent.Future<Result>> results;
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(producers)) {
            results = java.util.stream.IntStream.range(0, producers)
                    .mapToObj(p -> pool.submit(() -> {
                        start.await();
                        return run("produce", "--dir", dir(), "--count", String.valueOf(each));
                    }))
                    .toList();
        }
        for (var result : results) {
            Result produced = result.get();
            assertEquals(0, produced.code(), produced.err());
            assertEquals("", produced.err());
        }
        Result checked = run("check", "--dir", dir());
        assertEquals(0, checked.code(), checked.out() + checked.err());
        assertEquals(producers * each + " records ok", checked.out().strip());
    }

    @Test
    void produceTwiceContinuesTheSequence() {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "300").code());
        Result second = run("produce", "--dir=" + dir(), "--count=200", "--rate", "0");
        assertEquals(0, second.code(), second.err());
        assertTrue(second.out().contains("indices 300..499"), second.out());
        assertEquals("", second.err());
        assertEquals("500 records ok", run("check", "--dir", dir()).out().strip());
    }

    @Test
    void produceWithARate() {
        long start = System.nanoTime();
        assertEquals(0, run("produce", "--dir", dir(), "--count", "50", "--rate", "1000").code());
        assertTrue(System.nanoTime() - start >= 45_000_000L, "50 messages at 1000/s take at least ~49 ms");
        assertEquals("50 records ok", run("check", "--dir", dir()).out().strip());
    }

    @Test
    void tailFromIndexPrintsThoseMessagesWithTheirFields() {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "20").code());
        Result tail = run("tail", "--dir", dir(), "--from", "5", "--count", "3");
        assertEquals(0, tail.code(), tail.err());
        List<String> lines = tail.lines();
        assertEquals(3, lines.size(), tail.out());
        for (int k = 0; k < 3; k++) {
            long n = 5 + k;
            String line = lines.get(k);
            assertTrue(line.startsWith("index=" + n + " "), line);
            assertTrue(line.contains(" securityId=" + n + " "), line);
            assertTrue(line.contains(" time="), line);
            assertTrue(line.contains(" bidQty0=" + (double) n), line);
            assertTrue(line.contains(" askPrice3=" + (n + 15 / 16.0)), line);
        }
    }

    @Test
    void tailFromStartAndEnd() {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "4").code());
        assertEquals(4, run("tail", "--dir", dir()).lines().size());
        Result end = run("tail", "--dir", dir(), "--from", "end");
        assertEquals(0, end.code());
        assertEquals("", end.out());
        Result follow = run("tail", "--dir", dir(), "--from", "2", "--count", "2", "--follow");
        assertEquals(0, follow.code());
        assertEquals(List.of("index=2", "index=3"), follow.lines().stream().map(l -> l.split(" ")[0]).toList());
    }

    @Test
    void dumpPrintsEveryRecordWithTheStoredFieldNames() {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "10").code());
        LayoutDescriptor descriptor;
        try (BlitQueue<Void> raw = BlitQueue.openRaw(Path.of(dir()))) {
            descriptor = raw.descriptor();
        }
        Result dump = run("dump", "--dir", dir());
        assertEquals(0, dump.code(), dump.err());
        List<String> records = dump.lines().stream().filter(l -> l.startsWith("index=")).toList();
        assertEquals(10, records.size(), dump.out());
        for (int n = 0; n < 10; n++) {
            String line = records.get(n);
            assertTrue(line.startsWith("index=" + n + " "), line);
            for (var field : descriptor.fields()) {
                assertTrue(line.contains(" " + field.name() + "="), field.name() + " missing in " + line);
            }
            assertTrue(line.contains(" securityId=" + n + " "), line);
            assertTrue(line.contains(" bidQty1=" + (n + 1 / 16.0)), line);
        }
        assertTrue(dump.out().contains("io.blit.tools.messages.MarketData"), dump.out());
        assertTrue(dump.lines().getLast().contains("10 records"), dump.out());
    }

    @Test
    void checkFailsOnATamperedPayloadByte() throws IOException {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "100").code());
        LayoutDescriptor descriptor;
        try (BlitQueue<Void> raw = BlitQueue.openRaw(Path.of(dir()))) {
            descriptor = raw.descriptor();
        }
        long fieldInPayload = descriptor.field("bidQty1").offset() - descriptor.start();
        Path segment = Path.of(dir(), "segment-00000000000000000000.blitq");
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            long at = FIRST_RECORD + 42 * RECORD + 16 + fieldInPayload + 3; // header word and time, then the payload
            file.seek(at);
            int b = file.read();
            file.seek(at);
            file.write(b ^ 0x10);
        }
        Result checked = run("check", "--dir", dir());
        assertEquals(1, checked.code(), checked.out() + checked.err());
        assertTrue(checked.out().startsWith("check failed: record 42 "), checked.out());
    }

    @Test
    void checkFailsWhenSecurityIdIsNotTheIndex() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(Path.of(dir()), MarketData.class);
             var appender = queue.appender()) {
            appender.append(new MarketData().fillFor(0, 0));
            appender.append(new MarketData().fillFor(7, 0));
        }
        Result checked = run("check", "--dir", dir());
        assertEquals(1, checked.code());
        assertTrue(checked.out().contains("record 1 has securityId=7"), checked.out());
    }

    @Test
    void corruptFileHeaderIsAOneLineErrorNamingTheFile() throws IOException {
        assertEquals(0, run("produce", "--dir", dir(), "--count", "5").code());
        Path segment = Path.of(dir(), "segment-00000000000000000000.blitq");
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            file.seek(0);
            file.write('X');
        }
        for (String command : List.of("check", "tail", "dump")) {
            Result result = run(command, "--dir", dir());
            assertEquals(2, result.code(), command);
            assertEquals(1, result.err().lines().count(), result.err());
            assertTrue(result.err().startsWith("error: ") && result.err().contains(segment.toString()), result.err());
        }
    }

    @Test
    void missingDirectoryIsAUsageError() {
        for (String command : List.of("check", "tail", "dump")) {
            Result result = run(command, "--dir", tmp.resolve("absent").toString());
            assertEquals(2, result.code(), command);
            assertEquals("error: no such directory: " + tmp.resolve("absent"), result.err().strip());
            assertFalse(Files.exists(tmp.resolve("absent")), "a reading command must not create the queue");
        }
        Result empty = run("check", "--dir", tmp.toString());
        assertEquals(2, empty.code());
        assertTrue(empty.err().contains("no queue in"), empty.err());
    }

    @Test
    void usageErrorsExitTwo() {
        assertEquals(2, run().code());
        assertEquals(2, run("frobnicate").code());
        assertEquals(2, run("produce", "--dir", dir()).code());
        assertEquals(2, run("produce", "--count", "5").code());
        assertEquals(2, run("produce", "--dir", dir(), "--count", "many").code());
        assertEquals(2, run("produce", "--dir", dir(), "--count", "-1").code());
        assertEquals(2, run("produce", "--dir", dir(), "--count", "1", "--rate", "-3").code());
        assertEquals(2, run("produce", "--dir", dir(), "--count", "1", "--bogus").code());
        assertEquals(2, run("check", "--dir").code());
        assertEquals(2, run("check", "--dir", dir(), "extra").code());
        assertEquals(0, run("produce", "--dir", dir(), "--count", "3").code());
        Result beyond = run("tail", "--dir", dir(), "--from", "99");
        assertEquals(2, beyond.code());
        assertTrue(beyond.err().startsWith("error: tail: --from 99"), beyond.err());
        Result notANumber = run("tail", "--dir", dir(), "--from", "middle");
        assertEquals(2, notANumber.code());
        assertTrue(notANumber.err().contains("--from expects an integer, got 'middle'"), notANumber.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"produce", "tail", "consumers", "stats", "dump", "check", "demo", "bench"})
    void everySubcommandHasHelp(String command) {
        Result help = run(command, "--help");
        assertEquals(0, help.code());
        assertTrue(help.out().startsWith("Usage: queue-demo " + command + " "), help.out());
        assertEquals("", help.err());
    }

    @Test
    void topLevelHelpListsTheCommands() {
        Result help = run("--help");
        assertEquals(0, help.code());
        for (String command : List.of("produce", "tail", "consumers", "stats", "dump", "check", "demo", "bench")) {
            assertTrue(help.out().contains("  " + command + " "), command);
        }
    }

    @Test
    void versionPrintsTheProjectVersion() {
        for (String[] args : List.of(new String[] {"--version"}, new String[] {"-V"}, new String[] {"produce", "--version"})) {
            Result version = run(args);
            assertEquals(0, version.code(), version.err());
            assertTrue(version.out().strip().matches("Blit \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"), version.out());
        }
    }

    @Test
    void aBadCommandLineIsOneLineNamingTheProblemAndTheHelp() {
        assertEquals("error: no command given (queue-demo --help for usage)", run().err().strip());
        assertEquals("error: produce: --count expects an integer, got 'many' (queue-demo produce --help for usage)",
                run("produce", "--dir", dir(), "--count", "many").err().strip());
        assertEquals("error: produce: Missing required option: '--count=N' (queue-demo produce --help for usage)",
                run("produce", "--dir", dir()).err().strip());
        assertEquals("error: produce: --count must be >= 0 (queue-demo produce --help for usage)",
                run("produce", "--dir", dir(), "--count", "-1").err().strip());
        assertEquals("error: produce: --rate expects a number, got 'fast' (queue-demo produce --help for usage)",
                run("produce", "--dir", dir(), "--count", "1", "--rate", "fast").err().strip());
        for (String[] args : List.of(new String[] {"frobnicate"}, new String[] {"check", "--dir"},
                new String[] {"check", "--dir", dir(), "extra"}, new String[] {"produce", "--dir", dir(), "--count", "1", "--bogus"})) {
            Result result = run(args);
            assertEquals(2, result.code(), List.of(args).toString());
            assertEquals(1, result.err().lines().count(), result.err());
            assertTrue(result.err().startsWith("error: ") && result.err().strip().endsWith(" --help for usage)"), result.err());
            assertEquals("", result.out());
        }
    }
}
