package io.blit.tools.cli;

import static io.blit.tools.cli.QueueCliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.testkit.Tmpfs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code check}, {@code dump}, {@code tail} and {@code consumers} on a queue copied to a read-only mount (a tmpfs
 * remounted {@code ro}): each works and changes nothing. Needs the privilege to mount; skipped without it.
 */
class ReadOnlyToolsTest {
    @RegisterExtension
    final Tmpfs tmpfs = Tmpfs.sized("160m");

    @Test
    void theReadingCommandsWorkOnAReadOnlyMount() throws Exception {
        Path point = tmpfs.mount(); // skips the test without the privilege to mount
        String dir = point.resolve("q").toString();
        assertEquals(0, run("produce", "--dir", dir, "--count", "3000", "--type", "mixed")
                .code(), "produce");
        assertEquals(0, run("tail", "--dir", dir, "--consumer", "risk", "--count", "10").code());
        Map<String, Long> before = sizes(Path.of(dir));
        tmpfs.remount("ro");

        QueueCliTest.Result check = run("check", "--dir", dir, "--type", "mixed");
        assertEquals(0, check.code(), check.out() + check.err());
        assertEquals("3000 records ok", check.out().strip());
        QueueCliTest.Result tail = run("tail", "--dir", dir, "--from", "2", "--count", "1");
        assertEquals(0, tail.code(), tail.err());
        assertTrue(tail.out().startsWith("index=2 type=BookUpdate "), tail.out());
        QueueCliTest.Result dump = run("dump", "--dir", dir);
        assertEquals(0, dump.code(), dump.err());
        assertTrue(dump.out().contains("# 3000 records"), dump.out());
        QueueCliTest.Result consumers = run("consumers", "--dir", dir);
        assertEquals(0, consumers.code(), consumers.err());
        assertTrue(consumers.out().startsWith("risk committed 9 lag 2990"), consumers.out());
        assertEquals(before, sizes(Path.of(dir)), "no file added, none resized");
    }

    private static Map<String, Long> sizes(Path dir) throws IOException {
        Map<String, Long> sizes = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                sizes.put(file.getFileName() + " " + Files.getLastModifiedTime(file), Files.size(file));
            }
        }
        return sizes;
    }

}
