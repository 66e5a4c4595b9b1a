package io.blit.cli;

import static io.blit.cli.BlitCliRun.appendRaw;
import static io.blit.cli.BlitCliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.cli.BlitCliRun.Result;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tail}, {@code dump}, {@code stats}, {@code consumers} and the integrity {@code check}, run through blit.jar's entry point. */
class ReadingCommandsTest {
    /** The committed sample of segment-file format 1 (its records carry no time), in the queue module's test tree. */
    private static final Path FORMAT_1_RAW = Path.of("..", "queue", "src", "test", "resources", "format-v1", "raw");

    @TempDir
    Path tmp;

    private Path dir() {
        return tmp.resolve("q");
    }

    @Test
    void dumpAndTailPrintEachRecordWithItsAppendTimeLastInUtcToTheNanosecond() {
        Instant before = Instant.now();
        appendRaw(dir(), 3);
        Instant after = Instant.now();
        for (Result result : List.of(run("dump", "--dir", dir().toString()), run("tail", "--dir", dir().toString()))) {
            assertEquals(0, result.code(), result.err());
            List<String> records = result.lines().stream().filter(l -> l.startsWith("index=")).toList();
            assertEquals(3, records.size(), result.out());
            for (int n = 0; n < 3; n++) {
                String line = records.get(n);
                assertTrue(line.startsWith("index=" + n + " length=8 bytes=0" + n + "00000000000000 appended="), line);
                String appended = line.substring(line.lastIndexOf(" appended=") + " appended=".length());
                assertTrue(appended.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{9}Z"), appended);
                Instant at = Instant.parse(appended);
                assertFalse(at.isBefore(before.minusMillis(1)) || at.isAfter(after.plusMillis(1)),
                        at + " not within " + before + ".." + after);
            }
        }
    }

    @Test
    void aRecordOfAFormat1FileIsPrintedWithADashForItsTime() throws IOException {
        copy(FORMAT_1_RAW, dir());
        Result dump = run("dump", "--dir", dir().toString());
        assertEquals(0, dump.code(), dump.err());
        List<String> records = dump.lines().stream().filter(l -> l.startsWith("index=")).toList();
        assertFalse(records.isEmpty(), dump.out());
        records.forEach(line -> assertTrue(line.endsWith(" appended=-"), line));
        Result tail = run("tail", "--dir", dir().toString(), "--count", "1");
        assertTrue(tail.out().startsWith("index=0 ") && tail.out().strip().endsWith(" appended=-"), tail.out());
    }

    @Test
    void checkCallsAWholeQueueOfAnyTypesOk() {
        appendRaw(dir(), 50);
        Result check = run("check", "--dir", dir().toString());
        assertEquals(0, check.code(), check.out() + check.err());
        assertEquals("50 records ok", check.out().strip());
    }

    @Test
    void checkReportsACorruptRecordHeaderInOneLineNamingTheFileOffsetAndIndex() throws IOException {
        appendRaw(dir(), 5);
        Path segment;
        try (Stream<Path> files = Files.list(dir())) {
            segment = files.filter(f -> f.getFileName().toString().startsWith("segment-")).findFirst().orElseThrow();
        }
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            file.seek(8192); // the first record's header word, after the header and checkpoint pages
            file.writeLong(-1);
        }
        Result check = run("check", "--dir", dir().toString());
        assertEquals(1, check.code(), check.out() + check.err());
        assertEquals(1, check.out().lines().count(), check.out());
        assertTrue(check.out().startsWith("check failed: ") && check.out().contains(segment.getFileName().toString())
                && check.out().contains(" at byte 8192 (index 0): "), check.out());
    }

    @Test
    void aMissingDirectoryIsBadInputInOneLine() {
        Result check = run("check", "--dir", tmp.resolve("absent").toString());
        assertEquals(2, check.code());
        assertEquals("error: no such directory: " + tmp.resolve("absent"), check.err().strip());
    }

    @Test
    void statsAndConsumersReadTheQueue() {
        appendRaw(dir(), 7);
        Result stats = run("stats", "--dir", dir().toString());
        assertEquals(0, stats.code(), stats.err());
        assertTrue(stats.out().contains(" queue end 7 files 1 "), stats.out());
        Result consumers = run("consumers", "--dir", dir().toString());
        assertEquals(0, consumers.code(), consumers.err());
        assertEquals("", consumers.out(), "no named consumer");
    }

    @Test
    void theDemosCommandsAreNotInTheOperationsTool() {
        for (String command : List.of("produce", "bench", "demo")) {
            Result result = run(command, "--dir", "q");
            assertEquals(2, result.code(), command);
            assertTrue(result.err().contains("Unmatched argument") || result.err().contains("Unknown"), result.err());
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
    }
}
