package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.testkit.ForkedJvm;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Blit's promise for JDK 24+: with {@code --sun-misc-unsafe-memory-access=allow} a JVM that verifies
 * and copies through every path prints nothing but its own output; without the flag the JDK prints its
 * one-time deprecation warning (documented in the README); with {@code deny} Blit uses no Unsafe at
 * all, and says so by working silently.
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
