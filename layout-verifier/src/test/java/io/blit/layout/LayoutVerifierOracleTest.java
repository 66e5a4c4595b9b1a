package io.blit.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.shapes.Shapes;
import io.blit.layout.shapes.Shapes.FillsSuperclassHoles;
import io.blit.layout.shapes.Shapes.LongDoubleIntByte;
import io.blit.layout.shapes.Shapes.MarketDataShape;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.openjdk.jol.datamodel.DataModel;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

/**
 * The verifier's offsets (measured by the running JVM) against JOL's simulation of HotSpot's field
 * layout for the same header mode. Runs in every JVM mode of the build (default, compact object
 * headers, uncompressed class pointers); {@link #theRequestedJvmModeTookEffect()} proves which.
 */
@Tag("jvm-modes")
class LayoutVerifierOracleTest {
    private static final String EXPECTED_HEADER_PROPERTY = "blit.expected.header";

    static Stream<Class<?>> shapes() {
        return Shapes.ALL.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void jolAgreesOnStartLengthAndEveryFieldOffset(Class<?> shape) {
        BlockLayout layout = LayoutVerifier.verify(shape);
        DataModel model = JolOracle.modelFor(layout.jvm());
        ClassLayout jol = JolOracle.layout(shape, model);
        Map<String, FieldLayout> jolFields = JolOracle.fieldsByName(jol);
        String context = shape.getName() + " in mode " + layout.jvm().headerMode() + "\nverifier:\n"
                + layout.describe() + "JOL (" + model + "):\n" + jol.fields();

        assertEquals(layout.jvm().objectHeaderSize(), jol.headerSize(), "header size of the JOL model; " + context);
        assertEquals(jolFields.keySet(), layout.fields().stream().map(FieldSlot::name).collect(java.util.stream.Collectors.toSet()),
                "field names; " + context);
        long jolStart = Long.MAX_VALUE;
        long jolEnd = Long.MIN_VALUE;
        for (FieldLayout field : jolFields.values()) {
            jolStart = Math.min(jolStart, field.offset());
            jolEnd = Math.max(jolEnd, field.offset() + field.size());
        }
        assertEquals(jolStart, layout.start(), "block start; " + context);
        assertEquals(jolEnd - jolStart, layout.length(), "block length; " + context);
        for (FieldSlot slot : layout.fields()) {
            FieldLayout field = jolFields.get(slot.name());
            assertEquals(field.offset(), slot.offset(), "offset of " + slot.name() + "; " + context);
            assertEquals(field.size(), slot.size(), "size of " + slot.name() + "; " + context);
            assertEquals(field.typeClass(), slot.type().keyword(), "type of " + slot.name() + "; " + context);
            assertEquals(field.hostClass(), JolOracle.hostName(slot.declaringClass()), "declaring class of " + slot.name() + "; " + context);
        }
    }

    @Test
    void everyShapeIsCoveredAndTriviallyCopyable() {
        assertTrue(Shapes.ALL.size() >= 30, "at least 30 shapes, got " + Shapes.ALL.size());
        assertEquals(Shapes.ALL.size(), Shapes.ALL.stream().distinct().count(), "no shape listed twice");
        for (Class<?> shape : Shapes.ALL) {
            assertTrue(LayoutVerifier.isTriviallyCopyable(shape), shape.getName());
        }
    }

    @Test
    void theRequestedJvmModeTookEffect() {
        JvmFacts jvm = JvmFacts.current();
        String expected = System.getProperty(EXPECTED_HEADER_PROPERTY);
        List<String> arguments = ManagementFactory.getRuntimeMXBean().getInputArguments();
        if (expected != null) {
            assertEquals(Integer.parseInt(expected), jvm.objectHeaderSize(), "header size; JVM arguments " + arguments);
        }
        switch (jvm.objectHeaderSize()) {
            case 8 -> {
                assertTrue(jvm.compactObjectHeaders(), jvm.toString());
                assertTrue(arguments.contains("-XX:+UseCompactObjectHeaders"), arguments.toString());
                assertEquals("compact-headers", jvm.headerMode());
            }
            case 12 -> {
                assertFalse(jvm.compactObjectHeaders(), jvm.toString());
                assertTrue(jvm.compressedClassPointers(), jvm.toString());
                assertFalse(arguments.contains("-XX:+UseCompactObjectHeaders"), arguments.toString());
                assertFalse(arguments.contains("-XX:-UseCompressedClassPointers"), arguments.toString());
                assertEquals("compressed-class-pointers", jvm.headerMode());
            }
            case 16 -> {
                assertFalse(jvm.compactObjectHeaders(), jvm.toString());
                assertFalse(jvm.compressedClassPointers(), jvm.toString());
                assertTrue(arguments.contains("-XX:-UseCompressedClassPointers"), arguments.toString());
                assertEquals("uncompressed-class-pointers", jvm.headerMode());
            }
            default -> throw new AssertionError("unexpected header size " + jvm);
        }
    }

    /** The offsets HotSpot on JDK 25 is known to give (docs/layout-verifier.md), in the mode this JVM runs in. */
    @Test
    void documentedOffsetsHoldInThisMode() {
        JvmFacts jvm = JvmFacts.current();
        switch (jvm.headerMode()) {
            case "compressed-class-pointers" -> {
                assertOffsets(FillsSuperclassHoles.class, Map.of("x", 12, "z", 13, "w", 14, "y", 16, "v", 24));
                assertOffsets(LongDoubleIntByte.class, Map.of("c", 12, "a", 16, "b", 24, "d", 32));
                assertBlock(MarketDataShape.class, 16, 160);
            }
            case "compact-headers" -> {
                assertOffsets(LongDoubleIntByte.class, Map.of("a", 8, "b", 16, "c", 24, "d", 28));
                assertBlock(MarketDataShape.class, 8, 152);
            }
            case "uncompressed-class-pointers" -> {
                // HotSpot: a class of only 8-byte fields keeps its declaration order in every mode;
                // with a 16-byte header the first field is at 16, as with the default 12-byte header.
                assertBlock(MarketDataShape.class, 16, 160);
            }
            default -> throw new AssertionError("unknown header mode " + jvm.headerMode());
        }
    }

    @Test
    void marketDataKeepsDeclarationOrderInEveryMode() {
        BlockLayout layout = LayoutVerifier.verify(MarketDataShape.class);
        List<String> declared = Stream.of(MarketDataShape.class.getDeclaredFields()).map(java.lang.reflect.Field::getName).toList();
        assertEquals(declared, layout.fields().stream().map(FieldSlot::name).toList(), layout.describe());
        assertEquals(0, layout.paddingBytes(), layout.describe());
        assertEquals(144, layout.length(), layout.describe());
    }

    private static void assertOffsets(Class<?> type, Map<String, Integer> expected) {
        BlockLayout layout = LayoutVerifier.verify(type);
        assertEquals(expected.size(), layout.fields().size(), layout.describe());
        expected.forEach((name, offset) -> {
            FieldSlot field = layout.field(name);
            assertNotNull(field);
            assertEquals(offset, field.offset(), name + " in\n" + layout.describe());
        });
    }

    private static void assertBlock(Class<?> type, int start, int end) {
        BlockLayout layout = LayoutVerifier.verify(type);
        assertEquals(start, layout.start(), layout.describe());
        assertEquals(end, layout.end(), layout.describe());
    }
}
