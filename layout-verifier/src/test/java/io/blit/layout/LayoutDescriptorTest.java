package io.blit.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.shapes.Shapes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class LayoutDescriptorTest {
    static final JvmFacts FACTS = new JvmFacts(12, false, true, 8, "test-vm", "0");
    static final String HOST = LayoutDescriptorTest.class.getName();

    static FieldDescriptor field(String name, FieldType type, int offset) {
        return new FieldDescriptor(name, HOST, type, offset);
    }

    /** BlockLayoutTest's hand-built layout: a@12 (byte) b@16 (long) c@24 (int) d@32 (short). */
    static LayoutDescriptor handBuilt() {
        return LayoutDescriptor.of(HOST, List.of(field("a", FieldType.BYTE, 12), field("b", FieldType.LONG, 16),
                field("c", FieldType.INT, 24), field("d", FieldType.SHORT, 32)), FACTS);
    }

    static Stream<Class<?>> shapes() {
        return Shapes.ALL.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void descriptorOfLayoutHasTheLayoutsFieldsBlockJvmAndFingerprint(Class<?> shape) {
        BlockLayout layout = LayoutVerifier.verify(shape);
        LayoutDescriptor descriptor = layout.descriptor();
        assertEquals(shape.getName(), descriptor.className());
        assertEquals(layout.start(), descriptor.start());
        assertEquals(layout.length(), descriptor.length());
        assertEquals(layout.jvm(), descriptor.jvm());
        assertEquals(layout.fingerprint(), descriptor.fingerprint());
        assertEquals(layout.fields().size(), descriptor.fields().size());
        for (int i = 0; i < layout.fields().size(); i++) {
            FieldSlot slot = layout.fields().get(i);
            FieldDescriptor field = descriptor.fields().get(i);
            assertEquals(slot.name(), field.name());
            assertEquals(slot.declaringClass().getName(), field.declaringClassName());
            assertEquals(slot.type(), field.type());
            assertEquals(slot.offset(), field.offset());
            assertEquals(slot.toString(), field.toString(), "same Host.name @offset (type, size) form");
        }
        assertEquals(layout.describe(), descriptor.describe());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void encodeThenDecodeGivesAnEqualDescriptorWithTheSameFingerprint(Class<?> shape) {
        LayoutDescriptor descriptor = LayoutVerifier.verify(shape).descriptor();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(descriptor.encodedSize() + 20);
            descriptor.encodeTo(segment, 7);
            assertEquals(descriptor.encodedSize(), LayoutDescriptor.encodedSizeAt(segment, 7));
            LayoutDescriptor decoded = LayoutDescriptor.decode(segment, 7);
            assertEquals(descriptor, decoded);
            assertEquals(LayoutVerifier.verify(shape).fingerprint(), decoded.fingerprint());
        }
    }

    @Test
    void fingerprintIsUnchangedByTheSharedHelper() {
        // sha256("blit-layout-v1\na:byte:0\nb:long:4\nc:int:12\nd:short:20\nlength:22"), computed outside Java.
        assertEquals("7a4063bb412da9ca", handBuilt().fingerprint());
        List<FieldSlot> slots = new ArrayList<>();
        for (FieldDescriptor f : handBuilt().fields()) {
            slots.add(new FieldSlot(f.name(), LayoutDescriptorTest.class, f.type(), f.offset()));
        }
        assertEquals("7a4063bb412da9ca", BlockLayout.of(LayoutDescriptorTest.class, slots, FACTS).fingerprint());
    }

    @Test
    void constructorRejectsOverlappingUnsortedOrMisplacedFieldsNamingThem() {
        LayoutDescriptor valid = handBuilt();
        List<FieldDescriptor> overlapping = List.of(field("a", FieldType.LONG, 12), field("b", FieldType.INT, 16));
        assertMessage(() -> new LayoutDescriptor(HOST, 12, 8, overlapping, FACTS, valid.fingerprint()), "b @16", "a @12", "overlaps");
        List<FieldDescriptor> unsorted = List.of(field("a", FieldType.INT, 16), field("b", FieldType.INT, 12));
        assertMessage(() -> new LayoutDescriptor(HOST, 16, 4, unsorted, FACTS, valid.fingerprint()), "b @12", "a @16", "sorted");
        assertMessage(() -> new LayoutDescriptor(HOST, 13, valid.length(), valid.fields(), FACTS, valid.fingerprint()), "a @12", "d @32");
        assertMessage(() -> new LayoutDescriptor(HOST, 12, 21, valid.fields(), FACTS, valid.fingerprint()), "a @12", "d @32");
        assertMessage(() -> new LayoutDescriptor(HOST, 12, 0, List.of(), FACTS, valid.fingerprint()), "at least one field");
    }

    @Test
    void constructorRejectsAFingerprintThatDoesNotFollowFromTheFields() {
        LayoutDescriptor valid = handBuilt();
        String wrong = valid.fingerprint().startsWith("0") ? "1" + valid.fingerprint().substring(1) : "0" + valid.fingerprint().substring(1);
        assertMessage(() -> new LayoutDescriptor(HOST, valid.start(), valid.length(), valid.fields(), FACTS, wrong), wrong, valid.fingerprint());
    }

    @Test
    void fieldDescriptorRejectsEmptyNamesAndOffsetsWhoseEndOverflows() {
        assertThrows(IllegalArgumentException.class, () -> field("", FieldType.INT, 12));
        assertThrows(IllegalArgumentException.class, () -> new FieldDescriptor("a", "", FieldType.INT, 12));
        assertThrows(IllegalArgumentException.class, () -> field("a", FieldType.INT, -1));
        assertMessage(() -> field("a", FieldType.LONG, Integer.MAX_VALUE - 7), "a", String.valueOf(Integer.MAX_VALUE - 7));
        assertEquals(Integer.MAX_VALUE, field("a", FieldType.LONG, Integer.MAX_VALUE - 8).end());
    }

    @Test
    void fieldsAreAnImmutableCopy() {
        List<FieldDescriptor> fields = new ArrayList<>(handBuilt().fields());
        LayoutDescriptor descriptor = new LayoutDescriptor(HOST, 12, 22, fields, FACTS, handBuilt().fingerprint());
        fields.clear();
        assertEquals(4, descriptor.fields().size());
        assertThrows(UnsupportedOperationException.class, () -> descriptor.fields().clear());
    }

    @Test
    void describeListsEveryFieldAndGap() {
        String text = handBuilt().describe();
        for (String expected : List.of("block [12, 34)", "length=22", "padding=7", "LayoutDescriptorTest.a @12 (byte, 1)",
                "padding @13 (3)", "padding @28 (4)", "LayoutDescriptorTest.d @32 (short, 2)", handBuilt().fingerprint())) {
            assertTrue(text.contains(expected), expected + " in\n" + text);
        }
        assertEquals(5 + 2, text.lines().count(), text);
    }

    @Test
    void fieldByNameAndDeclaringSimpleName() {
        assertEquals(16, handBuilt().field("b").offset());
        assertEquals("LayoutDescriptorTest", handBuilt().field("b").declaringSimpleName());
        assertMessage(() -> handBuilt().field("zz"), "zz", HOST);
    }

    static void assertMessage(org.junit.jupiter.api.function.Executable action, String... mentioned) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, action);
        for (String m : mentioned) {
            assertTrue(e.getMessage().contains(m), "'" + m + "' in: " + e.getMessage());
        }
    }
}
