package io.blit.queue.internal.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.writer.WriterRegistry;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FileLocks}: who holds a lock, asked of the kernel ({@code F_OFD_GETLK}, with native access) or read from
 * {@code /proc/locks} (without), and writer liveness decided on either, by another process than the holder.
 */
class FileLocksTest {
    private static final long OWN_PID = ProcessHandle.current().pid();

    @TempDir
    Path tmp;

    @Test
    void withNativeAccessTheKernelIsAskedAndItsAnswersAreAuthoritative() throws Exception {
        List<String> lines = probedByAChild(true);
        assertEquals(List.of("kernel true", "authoritative true", "100 exclusive " + OWN_PID + " 100 101",
                "205 shared " + OWN_PID + " 200 210", "300 none", "alive true false"), lines);
    }

    @Test
    void withoutNativeAccessProcLocksNamesTheHolderAndLivenessProbesAsBefore() throws Exception {
        List<String> lines = probedByAChild(false);
        assertEquals(List.of("kernel false", "authoritative false", "100 exclusive " + OWN_PID + " 100 101",
                "205 shared " + OWN_PID + " 200 210", "300 none", "alive true false"), lines);
    }

    @Test
    void procLocksLinesAreReadStrictly() {
        String file = "fe:00:9978437";
        FileLocks.Holder read = FileLocks.parse("5: POSIX  ADVISORY  READ 19541 fe:00:9978437 16 23", file);
        assertEquals(new FileLocks.Holder(false, 19541, 16, 24), read);
        assertEquals("a shared lock of bytes [16, 24) held by pid 19541", read.describe());
        FileLocks.Holder ofd = FileLocks.parse("2: OFDLCK ADVISORY  WRITE -1 fe:00:9978437 0 EOF", file);
        assertEquals(new FileLocks.Holder(true, -1, 0, Long.MAX_VALUE), ofd);
        assertTrue(ofd.who().contains("does not report its holder's pid"), ofd.who());
        assertNull(FileLocks.parse("3: FLOCK  ADVISORY  WRITE 999 fe:00:9978437 0 EOF", file), "flock: no conflict");
        assertNull(FileLocks.parse("4: -> POSIX  ADVISORY  WRITE 555 fe:00:9978437 0 EOF", file), "a waiter");
        assertNull(FileLocks.parse("6: POSIX  ADVISORY  WRITE 19448 fe:00:9978383 65537 65537", file), "other file");
        assertNull(FileLocks.parse("7: POSIX  ADVISORY  WRITE " + OWN_PID + " fe:00:9978437 0 EOF", file), "own");
        assertNull(FileLocks.parse("8: POSIX  ADVISORY  WRITE x fe:00:9978437 0 EOF", file));
        assertNull(FileLocks.parse("", file));
        assertTrue(new FileLocks.Holder(true, 0, 0, 1).who().contains("another pid namespace"));
    }

    /**
     * This process holds an exclusive lock of byte 100 and a shared one of [200, 210) of a file, and a writer id in a
     * queue directory; a child JVM (with native access enabled or not) answers who holds what.
     */
    private List<String> probedByAChild(boolean nativeAccess) throws IOException, InterruptedException {
        Path file = Files.writeString(tmp.resolve("locked"), "x");
        Path queue = Files.createDirectory(tmp.resolve("q"));
        WriterRegistry writers = WriterRegistry.acquire(queue);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
             FileLock exclusive = channel.lock(100, 1, false);
             FileLock shared = channel.lock(200, 10, true)) {
            long id = writers.lease(false);
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "--sun-misc-unsafe-memory-access=allow"));
            if (nativeAccess) {
                command.add("--enable-native-access=ALL-UNNAMED");
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), LockProbeChild.class.getName(),
                    file.toString(), queue.toString(), Long.toString(id)));
            Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
            try {
                String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(child.waitFor(60, TimeUnit.SECONDS));
                assertEquals(0, child.exitValue(), output);
                assertFalse(output.contains("WARNING"), "no warning of the JDK's: " + output);
                return output.lines().toList();
            } finally {
                child.destroyForcibly();
            }
        } finally {
            writers.release();
        }
    }
}
