package io.blit.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Runs in every JVM mode of the build: the facts must describe the JVM they were read in. */
@Tag("jvm-modes")
class JvmFactsTest {
    static final class OneByte { byte b; }

    private static final List<String> ARGUMENTS = ManagementFactory.getRuntimeMXBean().getInputArguments();

    @Test
    void valuesArePlausible() {
        JvmFacts facts = JvmFacts.current();
        assertTrue(Set.of(8, 12, 16).contains(facts.objectHeaderSize()), facts.toString());
        if (ARGUMENTS.stream().noneMatch(a -> a.startsWith("-XX:ObjectAlignmentInBytes="))) {
            assertEquals(8, facts.objectAlignment(), facts.toString());
        }
        assertFalse(facts.vmName().isBlank(), facts.toString());
        assertFalse(facts.vmVersion().isBlank(), facts.toString());
        assertEquals(System.getProperty("java.vm.name"), facts.vmName());
        assertEquals(System.getProperty("java.vm.version"), facts.vmVersion());
        assertSame(facts, JvmFacts.current(), "read once");
    }

    @Test
    void headerSizeFollowsFromTheFlags() {
        JvmFacts facts = JvmFacts.current();
        int expected = facts.compactObjectHeaders() ? 8 : facts.compressedClassPointers() ? 12 : 16;
        assertEquals(expected, facts.objectHeaderSize(), facts.toString());
        if (facts.compactObjectHeaders()) {
            assertTrue(facts.compressedClassPointers(), "compact headers need compressed class pointers: " + facts);
        }
    }

    @Test
    void headerModeMatchesTheFlags() {
        JvmFacts facts = JvmFacts.current();
        String expected = facts.compactObjectHeaders() ? "compact-headers"
                : facts.compressedClassPointers() ? "compressed-class-pointers" : "uncompressed-class-pointers";
        assertEquals(expected, facts.headerMode());
        assertEquals("compact-headers", new JvmFacts(8, true, true, 8, "vm", "1").headerMode());
        assertEquals("compressed-class-pointers", new JvmFacts(12, false, true, 8, "vm", "1").headerMode());
        assertEquals("uncompressed-class-pointers", new JvmFacts(16, false, false, 8, "vm", "1").headerMode());
    }

    @Test
    void flagsMatchTheCommandLine() {
        JvmFacts facts = JvmFacts.current();
        assertEquals(ARGUMENTS.contains("-XX:+UseCompactObjectHeaders"), facts.compactObjectHeaders(), ARGUMENTS + " " + facts);
        assertEquals(!ARGUMENTS.contains("-XX:-UseCompressedClassPointers"), facts.compressedClassPointers(), ARGUMENTS + " " + facts);
    }

    @Test
    void headerSizeIsWhereTheFirstFieldGoes() {
        assertEquals(JvmFacts.current().objectHeaderSize(), LayoutVerifier.verify(OneByte.class).start());
    }

    @Test
    void constructorRejectsInvalidValues() {
        assertThrows(IllegalArgumentException.class, () -> new JvmFacts(0, false, true, 8, "vm", "1"));
        assertThrows(IllegalArgumentException.class, () -> new JvmFacts(12, false, true, 0, "vm", "1"));
        assertThrows(IllegalArgumentException.class, () -> new JvmFacts(-12, false, true, 8, "vm", "1"));
        assertThrows(NullPointerException.class, () -> new JvmFacts(12, false, true, 8, null, "1"));
        assertThrows(NullPointerException.class, () -> new JvmFacts(12, false, true, 8, "vm", null));
        assertThrows(NullPointerException.class, () -> new JvmFacts(12, false, true, 8, "vm", "1", null));
    }

    @Test
    void byteOrderIsTheNativeOne() {
        assertEquals(ByteOrder.nativeOrder(), JvmFacts.current().byteOrder());
        assertEquals(ByteOrder.nativeOrder(), new JvmFacts(12, false, true, 8, "vm", "1").byteOrder());
    }
}
