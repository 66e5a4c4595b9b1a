package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.testkit.ForkedJvm;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Blit's promise for JDK 24+: with {@code --sun-misc-unsafe-memory-access=allow} a JVM that verifies and
 * copies through every path prints nothing but its own output; a JVM started with no JVM flag and only
 * {@code -Dio.blit.core.engine=GENERATED_FFM} verifies and copies without Unsafe and prints nothing; with
 * neither, the default engine's first copy makes the JDK print its one-time deprecation warning
 * (documented in the README); with {@code deny} Blit uses no Unsafe at all, and says so by working silently.
 */
class UnsafeQuietTest {
    @Test
    void copyingThroughEveryPathPrintsNothingWithAllow() throws Exception {
        ForkedJvm.Result child = ForkedJvm.run(List.of("--sun-misc-unsafe-memory-access=allow"), QuietCopyMain.class);
        assertEquals(0, child.exitCode(), child::describe);
        assertEquals("copied 42", child.stdout().strip(), child::describe);
        assertEquals("", child.stderr(), child::describe);
    }

    @Test
    void firstCopiesWithTheFfmEngineChosenByPropertyOnAJvmWithNoFlagsPrintNothing() throws Exception {
        ForkedJvm.Result child = ForkedJvm.run(List.of("-Dio.blit.core.engine=GENERATED_FFM"), FirstCopyMain.class);
        assertEquals(0, child.exitCode(), child::describe);
        assertEquals(List.of("engine GENERATED_FFM GENERATED_FFM", "copied 42 7"), child.stdout().lines().toList(), child::describe);
        assertEquals("", child.stderr(), child::describe);
    }

    @Test
    void withAllowTheDefaultEngineIsTheUnsafeOneAndPrintsNothing() throws Exception {
        ForkedJvm.Result child = ForkedJvm.run(List.of("--sun-misc-unsafe-memory-access=allow"), FirstCopyMain.class);
        assertEquals(0, child.exitCode(), child::describe);
        assertEquals(List.of("engine GENERATED GENERATED", "copied 42 7"), child.stdout().lines().toList(), child::describe);
        assertEquals("", child.stderr(), child::describe);
    }

    @Test
    void withNoFlagsTheDefaultEngineWarnsOnceOnTheFirstCopy() throws Exception {
        ForkedJvm.Result child = ForkedJvm.run(List.of(), FirstCopyMain.class);
        assertEquals(0, child.exitCode(), child::describe);
        assertEquals(List.of("engine GENERATED GENERATED", "copied 42 7"), child.stdout().lines().toList(), child::describe);
        assertEquals(1, child.stderr().lines().filter(line -> line.contains("terminally deprecated")).count(), child::describe);
    }

    @Test
    void withoutTheFlagTheUnsafeEnginesWarnOnceAndTheCopiesStillWork() throws Exception {
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
