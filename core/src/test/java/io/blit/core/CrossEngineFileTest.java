package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.testkit.ForkedJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written by an engine that uses {@code sun.misc.Unsafe} ({@code GENERATED}, {@code WORD_LOOP},
 * in a JVM that allows it) are read back exactly by {@code GENERATED_FFM} in a JVM started with
 * {@code --sun-misc-unsafe-memory-access=deny}, and the other way round; each side compares every
 * object, bit for bit, with the objects generated from the shared seed, and both sides report the same
 * fingerprints. All JVMs are fresh children with this JVM's header flags, so the test means the same in
 * every execution of the build ({@code jvm-modes}: in all three header modes).
 */
@Tag("jvm-modes")
class CrossEngineFileTest {
    private static final String ALLOW = "--sun-misc-unsafe-memory-access=allow";
    private static final String DENY = "--sun-misc-unsafe-memory-access=deny";

    @TempDir
    Path directory;

    @Test
    void theNoUnsafeEngineUnderDenyReadsWhatTheUnsafeEnginesWrote() throws Exception {
        for (CopyEngine writer : List.of(CopyEngine.GENERATED, CopyEngine.WORD_LOOP)) {
            Path file = directory.resolve(writer + ".bin");
            long seed = 0xC0FFEEL + writer.ordinal();
            List<String> written = expectOk(run(ALLOW, "write", file, seed, writer.name()), writer);
            List<String> read = expectOk(run(DENY, "read", file, seed, null), CopyEngine.GENERATED_FFM);
            assertEquals(written, read, "digests and fingerprints on both sides, " + writer + " -> GENERATED_FFM under deny");
        }
    }

    @Test
    void theUnsafeEnginesReadWhatTheNoUnsafeEngineWroteUnderDeny() throws Exception {
        Path file = directory.resolve("ffm.bin");
        long seed = 0xBEEFL;
        List<String> written = expectOk(run(DENY, "write", file, seed, null), CopyEngine.GENERATED_FFM);
        assertEquals(MappedFileImage.fileSize(), Files.size(file));
        for (CopyEngine reader : List.of(CopyEngine.GENERATED, CopyEngine.WORD_LOOP)) {
            List<String> read = expectOk(run(ALLOW, "read", file, seed, reader.name()), reader);
            assertEquals(written, read, "digests and fingerprints on both sides, GENERATED_FFM under deny -> " + reader);
        }
    }

    private static ForkedJvm.Result run(String unsafeMode, String mode, Path file, long seed, String engine) throws Exception {
        List<String> options = new ArrayList<>(ForkedJvm.currentXxFlags());
        options.add(unsafeMode);
        List<String> args = new ArrayList<>(List.of(mode, file.toString(), Long.toString(seed)));
        if (engine != null) {
            args.add(engine);
        }
        return ForkedJvm.run(options, MappedFileChild.class, args.toArray(String[]::new));
    }

    /** Asserts the child used {@code engine} and found every object as generated; returns its other report lines. */
    private static List<String> expectOk(ForkedJvm.Result child, CopyEngine engine) {
        assertEquals(0, child.exitCode(), child::describe);
        List<String> lines = child.stdout().lines().filter(line -> line.startsWith(MappedFileChild.PREFIX))
                .map(line -> line.substring(MappedFileChild.PREFIX.length())).toList();
        assertEquals("engine " + engine, lines.getFirst(), child::describe);
        assertEquals("verdict OK", lines.getLast(), child::describe);
        assertTrue(lines.size() > MappedFileImage.SHAPES.size() * MappedFileImage.COUNT, child::describe);
        return lines.subList(1, lines.size());
    }
}
