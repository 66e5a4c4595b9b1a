package io.blit.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.blit.layout.internal.UnsafeAccess;
import io.blit.layout.testkit.ForkedJvm;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The layouts under {@code --sun-misc-unsafe-memory-access=deny} (offsets from the model) are the
 * layouts under {@code allow} (offsets from the JVM): every field's offset, the padding and the
 * fingerprint of every shape, in this JVM's header mode. Runs in both unsafe modes of the build and
 * compares with a forked JVM of the other one; runs in every header mode ({@code jvm-modes}).
 */
@Tag("jvm-modes")
class DenyModeLayoutTest {
    @Test
    void theOtherUnsafeModeGivesTheSameLayoutForEveryShape() throws Exception {
        boolean allowedHere = UnsafeAccess.memoryAccessAllowed();
        List<String> options = quietChildOptions();
        options.add("--sun-misc-unsafe-memory-access=" + (allowedHere ? "deny" : "allow"));
        ForkedJvm.Result other = ForkedJvm.run(options, PrintLayouts.class);
        assertEquals(0, other.exitCode(), other.describe());
        assertEquals("", withoutDeprecationWarning(other.stderr()), other.describe());
        String expected = "unsafe-memory-access-allowed=" + !allowedHere + System.lineSeparator() + PrintLayouts.allLayouts();
        assertEquals(expected, other.stdout());
    }

    @Test
    void theProbeMatchesTheCommandLine() {
        boolean denied = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()
                .contains("--sun-misc-unsafe-memory-access=deny");
        assertEquals(!denied, UnsafeAccess.memoryAccessAllowed());
    }

    @Test
    void aClassInheritingJdkFieldsIsRefusedUnderDenyAndVerifiedUnderAllow() throws Exception {
        List<String> options = quietChildOptions();
        options.add("--sun-misc-unsafe-memory-access=deny");
        ForkedJvm.Result denied = ForkedJvm.run(options, PrintFingerprint.class, JdkPrimitiveChild.class.getName());
        assertEquals(PrintFingerprint.VERIFY_FAILED, denied.exitCode(), denied.describe());
        assertEquals("failed: java.lang.UnsupportedOperationException: cannot determine the layout of "
                + JdkPrimitiveChild.class.getName() + " with sun.misc.Unsafe memory access denied: it inherits fields"
                + " from the JDK class java.util.concurrent.atomic.AtomicInteger", denied.stdout().substring(0, denied.stdout().indexOf(',')), denied.describe());
        if (UnsafeAccess.memoryAccessAllowed()) {
            assertEquals(2, LayoutVerifier.verify(JdkPrimitiveChild.class).fields().size());
        } else {
            assertThrows(UnsupportedOperationException.class, () -> LayoutVerifier.verify(JdkPrimitiveChild.class));
        }
    }

    /**
     * This JVM's header mode, without the JVM's own chatter: under -XX:-UseCompressedClassPointers the
     * JVM warns on stdout that the CDS archive does not fit (hence no CDS; the deprecation warning on
     * stderr is filtered by the caller).
     */
    private static List<String> quietChildOptions() {
        List<String> options = new ArrayList<>(ForkedJvm.currentXxFlags());
        options.add("-Xshare:off");
        return options;
    }

    /** Stderr without the JVM's warning that -XX:-UseCompressedClassPointers is deprecated (expected in that mode). */
    private static String withoutDeprecationWarning(String stderr) {
        return stderr.lines().filter(line -> !line.contains("Option UseCompressedClassPointers was deprecated"))
                .map(line -> line + System.lineSeparator()).collect(java.util.stream.Collectors.joining());
    }

    /** AtomicInteger's value is a non-final (volatile) int: trivially copyable, with fields declared by a JDK class. */
    @SuppressWarnings("serial")
    static final class JdkPrimitiveChild extends java.util.concurrent.atomic.AtomicInteger {
        long z;
    }
}
