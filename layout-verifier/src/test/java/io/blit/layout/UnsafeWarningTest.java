package io.blit.layout;

import io.blit.layout.testkit.ForkedJvm;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.blit.layout.shapes.Shapes.MarketDataShape;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How the verifier behaves under each {@code --sun-misc-unsafe-memory-access} mode of JDK 24+
 * (JEP 498): its offsets come from {@code sun.misc.Unsafe.objectFieldOffset} under {@code allow}, the one
 * mode where that call is quiet, and from {@link HotSpotLayoutModel} in every other mode (no flag,
 * {@code warn}, {@code deny}), so that verification prints nothing in any of them; the fingerprint is the
 * same either way.
 */
class UnsafeWarningTest {
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
    void defaultModeVerifiesWithTheModelSilently() throws Exception {
        ForkedJvm.Result result = verifyInFreshJvm();
        assertEquals(0, result.exitCode(), result.describe());
        assertEquals(expectedStdout(), result.stdout(), result.describe());
        assertEquals("", result.stderr(), result.describe());
    }

    @Test
    void explicitWarnModeBehavesLikeTheDefault() throws Exception {
        ForkedJvm.Result result = verifyInFreshJvm("--sun-misc-unsafe-memory-access=warn");
        assertEquals(0, result.exitCode(), result.describe());
        assertEquals(expectedStdout(), result.stdout(), result.describe());
        assertEquals("", result.stderr(), result.describe());
    }

    @Test
    void denyVerifiesWithTheModelSilentlyAndGivesTheSameFingerprint() throws Exception {
        ForkedJvm.Result result = verifyInFreshJvm("--sun-misc-unsafe-memory-access=deny");
        assertEquals(0, result.exitCode(), result.describe());
        assertEquals(expectedStdout(), result.stdout(), result.describe());
        assertEquals("", result.stderr(), result.describe());
    }
}
