package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.testkit.ForkedJvm;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Blit's promise for JDK 24+: with {@code --sun-misc-unsafe-memory-access=allow} a JVM that verifies
 * and copies through every path prints nothing but its own output; without the flag the JDK prints its
 * one-time deprecation warning (documented in the README); with {@code deny} Blit uses no Unsafe at
 * all, and says so by working silently. With {@code jdk.internal.misc} exported to Blit it uses the JDK's
 * internal Unsafe: quiet and by address in every mode, {@code deny} included.
 */
class UnsafeQuietTest {
    private static final String EXPORT = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";

    @ParameterizedTest
    @ValueSource(strings = {"", "--sun-misc-unsafe-memory-access=warn", "--sun-misc-unsafe-memory-access=allow",
        "--sun-misc-unsafe-memory-access=deny"})
    void withTheInternalPackageExportedEveryModeCopiesByAddressAndPrintsNothing(String mode) throws Exception {
        List<String> flags = mode.isEmpty() ? List.of(EXPORT) : List.of(EXPORT, mode);
        ForkedJvm.Result child = ForkedJvm.run(flags, ExportedCopyMain.class);
        assertEquals(0, child.exitCode(), child::describe);
        assertEquals(List.of("unsafe jdk.internal.misc.Unsafe", "engine GENERATED", "copied 252"),
                child.stdout().lines().toList(), child::describe);
        assertEquals("", child.stderr(), child::describe);
    }

    @Test
    void withoutTheExportTheAccessorsUseSunMiscUnsafe() throws Exception {
        ForkedJvm.Result child = ForkedJvm.run(List.of("--sun-misc-unsafe-memory-access=allow"), ExportedCopyMain.class);
        assertEquals(0, child.exitCode(), child::describe);
        assertEquals(List.of("unsafe sun.misc.Unsafe", "engine GENERATED", "copied 252"),
                child.stdout().lines().toList(), child::describe);
        assertEquals("", child.stderr(), child::describe);
    }

    @Test
    void copyingThroughEveryPathPrintsNothingWithAllow() throws Exception {
        ForkedJvm.Result child = ForkedJvm.run(List.of("--sun-misc-unsafe-memory-access=allow"), QuietCopyMain.class);
        assertEquals(0, child.exitCode(), child::describe);
        assertEquals("copied 42", child.stdout().strip(), child::describe);
        assertEquals("", child.stderr(), child::describe);
    }

    @Test
    void withoutTheFlagTheJdkWarnsOnceAndTheCopiesStillWork() throws Exception {
        ForkedJvm.Result child = ForkedJvm.run(List.of(), QuietCopyMain.class);
        assertEquals(0, child.exitCode(), child::describe);
        assertEquals("copied 42", child.stdout().strip(), child::describe);
        assertTrue(child.stderr().contains("terminally deprecated method in sun.misc.Unsafe"), child::describe);
        assertEquals(1, child.stderr().lines().filter(line -> line.contains("terminally deprecated")).count(), child::describe);
    }

    @Test
    void withDenyTheCopiesWorkWithoutUnsafeAndPrintNothing() throws Exception {
        ForkedJvm.Result child = ForkedJvm.run(List.of("--sun-misc-unsafe-memory-access=deny"), DenyCopyMain.class);
        assertEquals(0, child.exitCode(), child::describe);
        assertEquals(List.of("engine GENERATED_FFM", "copied 126", "WORD_LOOP refused"), child.stdout().lines().toList(), child::describe);
        assertEquals("", child.stderr(), child::describe);
    }
}
