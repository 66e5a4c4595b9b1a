package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment file truncated while an appender or tailer has it mapped (as another process could do) gives a
 * {@link QueueCorruptedException} naming the file and the record's offset, with HotSpot's InternalError as
 * cause: never a JVM crash, never a wrong message returned or a torn record committed. Each access path of
 * the queue runs in a child JVM ({@link TruncationChild}), interpreted ({@code -Xint}) and after enough
 * records for C2 to compile it (checked with {@code -XX:+PrintCompilation}), so that a crash fails this test
 * instead of killing the test JVM.
 */
class TruncatedUnderMappingTest {
    private static final int COMPILED_WARM_UP = 150_000;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({
        "read-header, interpreted", "read-header, compiled",
        "read-payload, interpreted", "read-payload, compiled",
        "read-bytes, interpreted", "read-bytes, compiled",
        "append-claim, interpreted", "append-claim, compiled",
        "append-payload, interpreted", "append-payload, compiled",
        "append-bytes, interpreted", "append-bytes, compiled",
    })
    void truncationUnderALiveMappingIsACorruptionNamingFileAndOffset(String path, String mode) throws Exception {
        boolean compiled = mode.equals("compiled");
        Path queueDir = Files.createDirectory(dir.resolve("queue"));
        List<String> command = new ArrayList<>(List.of(javaCommand(), "--sun-misc-unsafe-memory-access=allow",
                "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"), compiled ? "-XX:+PrintCompilation" : "-Xint",
                "-cp", System.getProperty("java.class.path"), TruncationChild.class.getName(),
                path, queueDir.toString(), Integer.toString(compiled ? COMPILED_WARM_UP : 50)));
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        Process child = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        child.getOutputStream().close();
        if (!child.waitFor(120, TimeUnit.SECONDS)) {
            child.destroyForcibly();
        }
        String compilations = Files.readString(out, StandardCharsets.UTF_8);
        String output = Files.readString(err, StandardCharsets.UTF_8);
        String context = String.join(" ", command) + "\n--- stderr ---\n" + output;
        assertTrue(!child.isAlive(), "the child JVM did not end within 120 s:\n" + context);

        try (Stream<Path> files = Files.list(dir)) { // -XX:ErrorFile puts any crash report here
            assertEquals(List.of(), files.filter(f -> f.getFileName().toString().startsWith("hs_err")).toList(),
                    "the child JVM crashed:\n" + context);
        }
        assertEquals(0, child.exitValue(), context);
        Map<String, String> lines = keyed(output);
        assertEquals(QueueCorruptedException.class.getName(), lines.get("THROWN"), context);
        assertEquals(lines.get("EXPECTED FILE"), lines.get("FILE"), context);
        assertEquals(lines.get("EXPECTED OFFSET"), lines.get("OFFSET"), context);
        assertTrue(lines.get("MESSAGE").contains(lines.get("EXPECTED FILE")), context);
        assertTrue(lines.get("MESSAGE").contains("is now " + lines.get("EXPECTED CUT") + " bytes"), context);
        assertTrue(lines.get("CAUSE").startsWith(InternalError.class.getName()), context);
        if (compiled) {
            String method = switch (path) {
                case "read-bytes" -> "Tailer::readNextBytes";
                case "read-header", "read-payload" -> "Tailer::readNext";
                default -> "Appender::append";
            };
            assertTrue(Pattern.compile("\\s4\\s+io\\.blit\\.queue\\." + Pattern.quote(method) + " ").matcher(compilations).find(),
                    "C2 (tier 4) compiled " + method + " before the fault:\n" + context + "\n--- stdout ---\n" + compilations);
        }
    }

    /** The child's {@code KEY value} lines (keys are the upper-case words before the value). */
    private static Map<String, String> keyed(String output) {
        Map<String, String> lines = new TreeMap<>();
        for (String line : output.split("\n")) {
            var m = Pattern.compile("^((?:[A-Z]+ )+)(.*)$").matcher(line);
            if (m.matches()) {
                lines.put(m.group(1).trim(), m.group(2));
            }
        }
        return lines;
    }

    private static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
