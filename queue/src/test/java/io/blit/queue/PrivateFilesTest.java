package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.blit.queue.replica.RecordStream;
import io.blit.queue.replica.ReplicaWriter;

/**
 * {@link QueueOptions#privateFiles} and {@link ReplicaWriter#open(Path, String, boolean)}: every file created
 * {@code rw-------} and every directory {@code rwx------}, exactly, whatever the umask (the build's is typically 022,
 * which gives new files {@code rw-r--r--}); without the option, the process's default modes.
 */
class PrivateFilesTest {
    private static final QueueOptions SMALL = QueueOptions.defaults().segmentSize(64 << 10);
    private static final String FILE = "rw-------";
    private static final String DIRECTORY = "rwx------";

    @TempDir
    Path tmp;

    @Test
    void aPrivateQueueCreatesEveryFileAndDirectoryForItsUserOnly() throws IOException {
        Path dir = tmp.resolve("parent").resolve("q");
        Map<String, String> whileOpen;
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL.privateFiles(true))) {
            append(queue, 2_000); // about 5 files of 64 KiB
            awaitTemporary(dir); // the next file, prepared in the background
            whileOpen = modes(dir);
        }
        assertTrue(whileOpen.size() >= 5, whileOpen.toString());
        assertTrue(whileOpen.keySet().stream().anyMatch(name -> name.contains(".tmp-")), whileOpen.toString());
        whileOpen.forEach((name, mode) -> assertEquals(FILE, mode, name));
        modes(dir).forEach((name, mode) -> assertEquals(FILE, mode, name));
        assertEquals(DIRECTORY, mode(dir));
        assertEquals(DIRECTORY, mode(dir.getParent()), "missing parents are created for the user only too");
    }

    @Test
    void anExistingDirectoryKeepsItsModeAndTheFilesCreatedInItAreTheUsersOnly() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("q"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL.privateFiles(true))) {
            append(queue, 1_000);
        }
        assertEquals("rwxr-xr-x", mode(dir));
        modes(dir).forEach((name, mode) -> assertEquals(FILE, mode, name));
    }

    @Test
    void withoutTheOptionFilesAndDirectoriesGetTheProcesssDefaultModes() throws IOException {
        String defaultFile = mode(Files.createFile(tmp.resolve("probe")));
        String defaultDirectory = mode(Files.createDirectory(tmp.resolve("probe-dir")));
        Path dir = tmp.resolve("q");
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL)) {
            append(queue, 1_000);
        }
        assertEquals(defaultDirectory, mode(dir));
        modes(dir).forEach((name, mode) -> assertEquals(defaultFile, mode, name));
    }

    @Test
    void aPrivateReplicaCreatesItsDirectoryMarkerFilesAndBlanksForItsUserOnly() throws IOException {
        Path source = tmp.resolve("source");
        try (BlitQueue<MarketData> queue = BlitQueue.open(source, MarketData.class, SMALL)) {
            append(queue, 2_000);
        }
        Path replica = tmp.resolve("replicas").resolve("r");
        List<Map<String, String>> seen = new ArrayList<>();
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, SMALL);
             RecordStream stream = RecordStream.open(source, SMALL, 0);
             ReplicaWriter writer = ReplicaWriter.open(replica, "test", true)) {
            for (int event = stream.poll(); event != RecordStream.NONE; event = stream.poll()) {
                if (event == RecordStream.FILE) {
                    writer.startFile(stream.fileHeader());
                    awaitTemporary(replica); // the blank for the next file, prepared in the background
                    seen.add(modes(replica));
                } else {
                    writer.write(stream.word(), stream.payload());
                }
            }
        }
        assertTrue(seen.size() >= 5, seen.toString());
        for (Map<String, String> files : seen) {
            assertTrue(files.keySet().stream().anyMatch(name -> name.startsWith("segment-blank.blitq.tmp-")),
                    files.toString());
            files.forEach((name, mode) -> assertEquals(FILE, mode, name));
        }
        Map<String, String> files = modes(replica);
        assertEquals(FILE, files.get("replica-of"));
        files.forEach((name, mode) -> assertEquals(FILE, mode, name));
        assertEquals(DIRECTORY, mode(replica));
        assertEquals(DIRECTORY, mode(replica.getParent()));
    }

    @Test
    void reopeningAReplicaPrivatelyRestrictsItsMarker() throws IOException {
        Path replica = tmp.resolve("r");
        ReplicaWriter.open(replica, "test").close();
        String before = mode(replica.resolve("replica-of"));
        ReplicaWriter.open(replica, "test", true).close();
        assertEquals(FILE, mode(replica.resolve("replica-of")), "was " + before);
    }

    private static void append(BlitQueue<MarketData> queue, int count) {
        try (Appender<MarketData> appender = queue.appender()) {
            MarketData message = new MarketData();
            for (long n = 0; n < count; n++) {
                appender.append(message.fillFor(n, n));
            }
        }
    }

    /** Waits (up to 10 s) until {@code dir} holds a temporary (a file prepared in the background). */
    private static void awaitTemporary(Path dir) throws IOException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (modes(dir).keySet().stream().noneMatch(name -> name.contains(".tmp-"))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no temporary in " + dir + ": " + modes(dir));
            }
            Thread.onSpinWait();
        }
    }

    /** Name and mode of every entry in {@code dir} (entries that vanish meanwhile are left out). */
    private static Map<String, String> modes(Path dir) throws IOException {
        Map<String, String> modes = new TreeMap<>();
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                try {
                    modes.put(entry.getFileName().toString(), mode(entry));
                } catch (java.nio.file.NoSuchFileException published) {
                    // a temporary published or deleted meanwhile
                }
            }
        }
        return modes;
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }
}
