package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.testkit.ForkedJvm;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A block image in a memory-mapped file outlives the JVM that wrote it: another JVM of the same
 * configuration (same java, same -XX flags) reads back exactly the values written, both ways.
 */
@Tag("jvm-modes")
class FreshJvmMappedFileTest {
    @TempDir
    Path directory;

    @Test
    void aFreshJvmReadsBackExactlyWhatThisJvmWroteToAMappedFile() throws Exception {
        long seed = 0x5EED_0001L;
        List<Object> written = MappedFileImage.objects(seed);
        Path file = directory.resolve("parent-wrote.bin");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = MappedFileImage.map(file, arena, true);
            MappedFileImage.write(segment, written);
        }
        assertEquals(MappedFileImage.fileSize(), Files.size(file));

        ForkedJvm.Result child = runChild("read", file, seed);

        List<String> expected = new ArrayList<>(MappedFileImage.describe(written));
        expected.add("verdict OK");
        assertEquals(expected, linesStartingWith(child, MappedFileChild.PREFIX), child::describe);
        assertEquals(0, child.exitCode(), child::describe);
        assertInheritsThisJvmsLayoutFlags(child);
    }

    @Test
    void thisJvmReadsBackExactlyWhatAFreshJvmWroteToAMappedFile() throws Exception {
        long seed = 0x5EED_0002L;
        Path file = directory.resolve("child-wrote.bin");

        ForkedJvm.Result child = runChild("write", file, seed);
        assertEquals(0, child.exitCode(), child::describe);
        assertEquals(MappedFileImage.fileSize(), Files.size(file));

        List<Object> read;
        try (Arena arena = Arena.ofConfined()) {
            read = MappedFileImage.read(MappedFileImage.map(file, arena, false));
        }
        List<Object> generated = MappedFileImage.objects(seed);
        for (int i = 0; i < generated.size(); i++) {
            RandomFields.assertSameBits(generated.get(i), read.get(i), "object " + i + ": ");
        }
        List<String> expected = new ArrayList<>(MappedFileImage.describe(read));
        expected.add("verdict OK");
        assertEquals(expected, linesStartingWith(child, MappedFileChild.PREFIX), child::describe);
        assertInheritsThisJvmsLayoutFlags(child);
    }

    /** A child JVM with this JVM's -XX flags, so that it lays objects out the same way. */
    private static ForkedJvm.Result runChild(String mode, Path file, long seed) throws Exception {
        List<String> options = new ArrayList<>();
        options.add("--sun-misc-unsafe-memory-access=allow");
        options.addAll(ForkedJvm.currentXxFlags());
        return ForkedJvm.run(options, MappedFileChild.class, mode, file.toString(), Long.toString(seed));
    }

    /** The child's stdout lines that start with {@code prefix}, without it (HotSpot warnings can go to stdout). */
    private static List<String> linesStartingWith(ForkedJvm.Result child, String prefix) {
        return child.stdout().lines().filter(line -> line.startsWith(prefix) && !line.startsWith(prefix + "engine ")).map(line -> line.substring(prefix.length())).toList();
    }

    /** The describe lines already compare header modes and fingerprints; this names the cause if they differ. */
    private static void assertInheritsThisJvmsLayoutFlags(ForkedJvm.Result child) {
        List<String> flags = ForkedJvm.currentXxFlags();
        assertTrue(child.command().containsAll(flags), child::describe);
        if (System.getProperty("blit.expected.header") != null) {
            assertTrue(flags.stream().anyMatch(f -> f.contains("CompactObjectHeaders") || f.contains("CompressedClassPointers")),
                    "this execution's header flag must reach the child: " + flags);
        }
    }
}
