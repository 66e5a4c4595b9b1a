package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A queue written under one object-header mode and opened under the other: field offsets relative to
 * the block start move for a class of mixed field sizes, so with {@link io.blit.core.LayoutPolicy#STRICT}
 * the open must fail with a report naming the moved fields, and with {@code TRANSLATE} (the default) every
 * value must read back exactly; a class of only 8-byte fields keeps its relative layout and reads back
 * exactly under both.
 * Writer and reader are both child JVMs with explicit flags, so the result does not depend on the
 * flags of the JVM running the tests.
 */
class CompactHeadersLayoutMismatchTest {
    private static final String COMPACT = "-XX:+UseCompactObjectHeaders";
    private static final String DEFAULT = "-XX:-UseCompactObjectHeaders";
    private static final int COUNT = 5;
    private static final long TIMEOUT_SECONDS = 60;

    @TempDir
    Path temp;

    private final AtomicInteger runs = new AtomicInteger();

    @Test
    void mixedSizeQueueWrittenUnderCompactHeadersIsRefusedUnderDefaultHeadersWhenStrict() throws Exception {
        assertMismatch(COMPACT, DEFAULT);
    }

    @Test
    void mixedSizeQueueWrittenUnderDefaultHeadersIsRefusedUnderCompactHeadersWhenStrict() throws Exception {
        assertMismatch(DEFAULT, COMPACT);
    }

    @Test
    void mixedSizeQueueWrittenUnderCompactHeadersIsTranslatedExactlyUnderDefaultHeaders() throws Exception {
        assertTranslated(COMPACT, DEFAULT);
    }

    @Test
    void mixedSizeQueueWrittenUnderDefaultHeadersIsTranslatedExactlyUnderCompactHeaders() throws Exception {
        assertTranslated(DEFAULT, COMPACT);
    }

    @Test
    void mixedSizeQueueWrittenAndReadUnderCompactHeadersReadsBackExactValues() throws Exception {
        Path dir = temp.resolve("queue");
        List<String> writer = runChild(COMPACT, "write", dir, "mixed", Integer.toString(COUNT));
        assertTrue(writer.contains("done"), String.join("\n", writer));
        assertEquals("compact-headers", mode(writer), "the flag took effect in the writer");

        List<String> reader = runChild(COMPACT, "read", dir, "mixed", "STRICT");
        assertEquals("compact-headers", mode(reader));
        assertExactMixedValues(reader);
    }

    @Test
    void marketDataWrittenUnderCompactHeadersReadsBackExactValuesUnderDefaultHeaders() throws Exception {
        Path dir = temp.resolve("queue");
        List<String> writer = runChild(COMPACT, "write", dir, "market", Integer.toString(COUNT));
        assertTrue(writer.contains("done"), String.join("\n", writer));
        assertEquals("compact-headers", mode(writer));

        List<String> reader = runChild(DEFAULT, "read", dir, "market", "STRICT");
        assertFalse(mode(reader).equals("compact-headers"), "reader runs with default headers: " + mode(reader));
        assertEquals(layout(writer), layout(reader), "only 8-byte fields: same relative offsets in both modes");
        assertNoException(reader);
        List<String> expected = new ArrayList<>();
        MarketData md = new MarketData();
        for (int i = 0; i < COUNT; i++) {
            md.fillFor(i, 1_000L + i);
            expected.add(i + " time=" + (1_000L + i) + " consistent=true bidQty1=" + md.bidQty1
                    + " askPrice3=" + md.askPrice3);
        }
        assertEquals(expected, lines(reader, "VALUE "), String.join("\n", reader));
        assertTrue(reader.contains("read " + COUNT), String.join("\n", reader));
    }

    private void assertTranslated(String writerFlag, String readerFlag) throws Exception {
        Path dir = temp.resolve("queue");
        List<String> writer = runChild(writerFlag, "write", dir, "mixed", Integer.toString(COUNT));
        assertTrue(writer.contains("done"), String.join("\n", writer));
        List<String> reader = runChild(readerFlag, "read", dir, "mixed", "TRANSLATE");
        assertFalse(mode(writer).equals(mode(reader)), "writer and reader run in different header modes: " + mode(writer));
        assertFalse(layout(writer).equals(layout(reader)), "the relative layouts differ: " + layout(writer) + " vs " + layout(reader));
        assertExactMixedValues(reader);
    }

    private static void assertExactMixedValues(List<String> reader) {
        assertNoException(reader);
        List<String> expected = new ArrayList<>();
        MixedSizes m = new MixedSizes();
        for (int i = 0; i < COUNT; i++) {
            expected.add(m.fillFor(i).values());
        }
        assertEquals(expected, lines(reader, "VALUE "), String.join("\n", reader));
        assertTrue(reader.contains("read " + COUNT), String.join("\n", reader));
    }

    private void assertMismatch(String writerFlag, String readerFlag) throws Exception {
        Path dir = temp.resolve("queue");
        List<String> writer = runChild(writerFlag, "write", dir, "mixed", Integer.toString(COUNT));
        assertTrue(writer.contains("done"), String.join("\n", writer));
        List<String> reader = runChild(readerFlag, "read", dir, "mixed", "STRICT");
        assertFalse(mode(writer).equals(mode(reader)), "writer and reader run in different header modes: " + mode(writer));

        Map<String, Integer> writerOffsets = layout(writer);
        Map<String, Integer> readerOffsets = layout(reader);
        assertEquals(writerOffsets.keySet(), readerOffsets.keySet());
        List<String> moved = new ArrayList<>();
        for (String field : writerOffsets.keySet()) {
            if (!writerOffsets.get(field).equals(readerOffsets.get(field))) {
                moved.add(field);
            }
        }
        assertFalse(moved.isEmpty(), "the relative layouts differ between the modes: " + writerOffsets + " vs " + readerOffsets);

        String all = String.join("\n", reader);
        assertTrue(lines(reader, "VALUE ").isEmpty(), "no values read silently:\n" + all);
        assertFalse(reader.stream().anyMatch(l -> l.startsWith("read ")), "the open must fail:\n" + all);
        assertEquals(List.of(LayoutMismatchException.class.getName()), lines(reader, "EXCEPTION "), all);
        String message = message(reader);
        assertTrue(message.contains(MixedSizes.class.getName()) && message.contains("LayoutPolicy.STRICT"), message);
        assertTrue(message.contains("; " + moved.size() + (moved.size() == 1 ? " difference" : " differences")),
                "one difference per moved field " + moved + ":\n" + message);
        for (String field : writerOffsets.keySet()) {
            String line = message.lines().filter(l -> l.contains("'" + field + "'")).findFirst().orElse(null);
            if (moved.contains(field)) {
                assertTrue(line != null, "field " + field + " moved but is not named:\n" + message);
                assertTrue(line.contains("+" + writerOffsets.get(field) + " (writer)")
                        && line.contains("+" + readerOffsets.get(field) + " (reader)"), line);
            } else {
                assertEquals(null, line, "field " + field + " did not move but is reported:\n" + message);
            }
        }
    }

    private List<String> runChild(String headerFlag, String command, Path dir, String kind, String... more)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(javaCommand(), headerFlag, "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"), LayoutModeChild.class.getName(),
                command, dir.toString(), Long.toString(QueueRoundTripTest.SMALL.segmentSize()), kind));
        cmd.addAll(List.of(more));
        Path out = temp.resolve("child-" + runs.incrementAndGet() + ".out");
        Process child = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!child.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            fail("child " + cmd + " timed out:\n" + Files.readString(out, StandardCharsets.UTF_8));
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(0, child.exitValue(), "child " + cmd + ":\n" + output);
        return output.lines().toList();
    }

    private static String mode(List<String> output) {
        List<String> modes = lines(output, "MODE ");
        assertEquals(1, modes.size(), String.join("\n", output));
        return modes.getFirst();
    }

    private static Map<String, Integer> layout(List<String> output) {
        List<String> layouts = lines(output, "LAYOUT ");
        assertEquals(1, layouts.size(), String.join("\n", output));
        Map<String, Integer> offsets = new LinkedHashMap<>();
        for (String entry : layouts.getFirst().split(" ")) {
            String[] parts = entry.split("=");
            offsets.put(parts[0], Integer.parseInt(parts[1]));
        }
        return offsets;
    }

    private static void assertNoException(List<String> output) {
        assertTrue(lines(output, "EXCEPTION ").isEmpty(), String.join("\n", output));
    }

    private static String message(List<String> output) {
        int begin = output.indexOf("MESSAGE-BEGIN");
        int end = output.indexOf("MESSAGE-END");
        assertTrue(begin >= 0 && end > begin, String.join("\n", output));
        return String.join("\n", output.subList(begin + 1, end));
    }

    private static List<String> lines(List<String> output, String prefix) {
        return output.stream().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length())).toList();
    }

    private static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
