package io.blit.layout;

import io.blit.layout.testkit.ForkedJvm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.shapes.Shapes.MarketDataShape;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How the verifier behaves under each {@code --sun-misc-unsafe-memory-access} mode of JDK 24+
 * (JEP 498): its offsets come from {@code sun.misc.Unsafe.objectFieldOffset} where that is allowed
 * (the default mode warns once), and from {@link HotSpotLayoutModel} under {@code deny}.
 */
class UnsafeWarningTest {
    private static final String WARNING = "WARNING: A terminally deprecated method in sun.misc.Unsafe has been called";

    private static ForkedJvm.Result verifyInFreshJvm(String... unsafeOption) throws Exception {
        List<String> options = new ArrayList<>(ForkedJvm.currentXxFlags());
        options.addAll(List.of(unsafeOption));
        return ForkedJvm.run(options, PrintFingerprint.class);
    }

    private static String expectedStdout() {
        return LayoutVerifier.verify(MarketDataShape.class).fingerprint() + System.lineSeparator();
    }

    @Test
    void allowPrintsNothingButTheFingerprint() throws Exception {
        ForkedJvm.Result result = verifyInFreshJvm("--sun-misc-unsafe-memory-access=allow");
        assertEquals(0, result.exitCode(), result.describe());
        assertEquals(expectedStdout(), result.stdout(), result.describe());
        assertEquals("", result.stderr(), result.describe());
    }

    @Test
    void defaultModeWarnsOnStderrOnceAndStillVerifies() throws Exception {
        ForkedJvm.Result result = verifyInFreshJvm();
        assertEquals(0, result.exitCode(), result.describe());
        assertEquals(expectedStdout(), result.stdout(), result.describe());
        assertTrue(result.stderr().startsWith(WARNING), result.describe());
        assertTrue(result.stderr().contains("sun.misc.Unsafe::objectFieldOffset has been called by " + io.blit.layout.internal.UnsafeAccess.class.getName()),
                result.describe());
        assertEquals(1, result.stderr().split(java.util.regex.Pattern.quote(WARNING), -1).length - 1, "warned once: " + result.describe());
    }

    @Test
    void explicitWarnModeBehavesLikeTheDefault() throws Exception {
        ForkedJvm.Result result = verifyInFreshJvm("--sun-misc-unsafe-memory-access=warn");
        assertEquals(0, result.exitCode(), result.describe());
        assertEquals(expectedStdout(), result.stdout(), result.describe());
        assertTrue(result.stderr().startsWith(WARNING), result.describe());
    }

    @Test
    void denyVerifiesWithTheModelSilentlyAndGivesTheSameFingerprint() throws Exception {
        ForkedJvm.Result result = verifyInFreshJvm("--sun-misc-unsafe-memory-access=deny");
        assertEquals(0, result.exitCode(), result.describe());
        assertEquals(expectedStdout(), result.stdout(), result.describe());
        assertEquals("", result.stderr(), result.describe());
    }
}
