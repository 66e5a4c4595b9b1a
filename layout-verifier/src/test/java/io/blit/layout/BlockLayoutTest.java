package io.blit.layout;

import io.blit.layout.testkit.ForkedJvm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.shapes.Shapes;
import io.blit.layout.shapes.Shapes.LongDoubleIntByte;
import io.blit.layout.shapes.Shapes.MarketDataShape;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.openjdk.jol.datamodel.DataModel;
import org.openjdk.jol.info.FieldLayout;

class BlockLayoutTest {
    private static final JvmFacts FACTS = new JvmFacts(12, false, true, 8, "test-vm", "0");

    /** Hand-built: a@12 (1) gap [13,16) b@16 (8) c@24 (4) gap [28,32) d@32 (2). */
    private static List<FieldSlot> handBuilt() {
        return List.of(slot("a", FieldType.BYTE, 12), slot("b", FieldType.LONG, 16),
                slot("c", FieldType.INT, 24), slot("d", FieldType.SHORT, 32));
    }

    private static FieldSlot slot(String name, FieldType type, int offset) {
        return new FieldSlot(name, BlockLayoutTest.class, type, offset);
    }

    private static BlockLayout of(List<FieldSlot> fields) {
        return BlockLayout.of(BlockLayoutTest.class, fields, FACTS);
    }

    static Stream<Class<?>> shapes() {
        return Shapes.ALL.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void fieldsAreEveryInstanceFieldSortedByOffsetWithPaddingBetween(Class<?> shape) {
        BlockLayout layout = LayoutVerifier.verify(shape);
        List<String> declared = new ArrayList<>();
        for (Class<?> c = shape; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    declared.add(f.getName());
                }
            }
        }
        assertEquals(declared.stream().sorted().toList(), layout.fields().stream().map(FieldSlot::name).sorted().toList());
        List<PaddingGap> expectedGaps = new ArrayList<>();
        int sizes = 0;
        for (int i = 0; i < layout.fields().size(); i++) {
            FieldSlot field = layout.fields().get(i);
            sizes += field.size();
            if (i > 0) {
                FieldSlot previous = layout.fields().get(i - 1);
                assertTrue(previous.end() <= field.offset(), "sorted, no overlap: " + previous + " then " + field);
                if (previous.end() < field.offset()) {
                    expectedGaps.add(new PaddingGap(previous.end(), field.offset() - previous.end()));
                }
            }
        }
        assertEquals(expectedGaps, layout.padding(), layout.describe());
        assertEquals(layout.length() - sizes, layout.paddingBytes(), layout.describe());
        assertEquals(layout.fields().getFirst().offset(), layout.start());
        assertEquals(layout.fields().getLast().end(), layout.end());
    }

    @Test
    void someShapesHavePaddingSoTheGapCheckAboveIsNotVacuous() {
        assertTrue(Shapes.ALL.stream().anyMatch(c -> !LayoutVerifier.verify(c).padding().isEmpty()), "no shape has padding");
    }

    @Test
    void handBuiltLayoutHasKnownStartLengthAndPadding() {
        BlockLayout layout = of(List.of(handBuilt().get(2), handBuilt().get(0), handBuilt().get(3), handBuilt().get(1)));
        assertEquals(handBuilt(), layout.fields(), "sorted by offset");
        assertEquals(12, layout.start());
        assertEquals(22, layout.length());
        assertEquals(34, layout.end());
        assertEquals(List.of(new PaddingGap(13, 3), new PaddingGap(28, 4)), layout.padding());
        assertEquals(7, layout.paddingBytes());
        assertTrue(layout.fingerprint().matches("[0-9a-f]{16}"), layout.fingerprint());
        assertEquals(handBuilt().get(2), layout.field("c"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> layout.field("nope"));
        assertTrue(e.getMessage().contains("'nope'"), e.getMessage());
    }

    @Test
    void constructorRejectsOverlappingFields() {
        List<FieldSlot> fields = List.of(slot("a", FieldType.LONG, 16), slot("b", FieldType.INT, 20));
        assertRejected(fields, 16, 8, List.of(), "0000000000000000", "a @16", "b @20");
    }

    @Test
    void constructorRejectsUnsortedFields() {
        List<FieldSlot> fields = List.of(slot("b", FieldType.INT, 24), slot("a", FieldType.LONG, 16));
        assertRejected(fields, 16, 12, List.of(), "0000000000000000", "a @16", "b @24", "sorted");
    }

    @Test
    void constructorRejectsEmptyFields() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new BlockLayout(BlockLayoutTest.class, 12, 0, List.of(), List.of(), FACTS, "0000000000000000"));
        assertTrue(e.getMessage().contains(BlockLayoutTest.class.getName()) && e.getMessage().contains("at least one field"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> of(List.of()));
    }

    @Test
    void constructorRejectsWrongStartOrLength() {
        BlockLayout valid = of(handBuilt());
        assertRejected(valid.fields(), valid.start() - 1, valid.length() + 1, valid.padding(), valid.fingerprint(), "a @12", "d @32");
        assertRejected(valid.fields(), valid.start(), valid.length() + 2, valid.padding(), valid.fingerprint(), "a @12", "d @32");
        assertRejected(valid.fields(), valid.start() + 4, valid.length() - 4, valid.padding(), valid.fingerprint(), "a @12", "d @32");
    }

    @Test
    void constructorRejectsWrongPadding() {
        BlockLayout valid = of(handBuilt());
        // Which fields border the gap that is missing or invented.
        assertRejected(valid.fields(), valid.start(), valid.length(), valid.padding().subList(0, 1), valid.fingerprint(), "c @24", "d @32");
        assertRejected(valid.fields(), valid.start(), valid.length(), List.of(new PaddingGap(13, 3), new PaddingGap(28, 2)),
                valid.fingerprint(), "c @24", "d @32");
        assertRejected(valid.fields(), valid.start(), valid.length(), List.of(), valid.fingerprint(), "a @12", "b @16");
        assertRejected(valid.fields(), valid.start(), valid.length(), valid.padding().reversed(), valid.fingerprint(), "a @12", "b @16");
        assertRejected(valid.fields(), valid.start(), valid.length(), List.of(new PaddingGap(13, 3), new PaddingGap(13, 3), new PaddingGap(28, 4)),
                valid.fingerprint(), "a @12", "b @16");
    }

    @Test
    void constructorRejectsWrongFingerprint() {
        BlockLayout valid = of(handBuilt());
        String wrong = valid.fingerprint().startsWith("0") ? "1" + valid.fingerprint().substring(1) : "0" + valid.fingerprint().substring(1);
        assertRejected(valid.fields(), valid.start(), valid.length(), valid.padding(), wrong, "a @12", "b @16", "c @24", "d @32", wrong);
    }

    @Test
    void constructorAcceptsWhatOfDerives() {
        BlockLayout valid = of(handBuilt());
        assertEquals(valid, new BlockLayout(valid.type(), valid.start(), valid.length(), valid.fields(), valid.padding(), valid.jvm(), valid.fingerprint()));
    }

    @Test
    void fieldsAndPaddingAreImmutableCopies() {
        List<FieldSlot> input = new ArrayList<>(handBuilt());
        BlockLayout layout = of(input);
        input.clear();
        assertEquals(4, layout.fields().size(), "not a view of the input list");
        assertThrows(UnsupportedOperationException.class, () -> layout.fields().add(slot("e", FieldType.BYTE, 40)));
        assertThrows(UnsupportedOperationException.class, () -> layout.fields().remove(0));
        assertThrows(UnsupportedOperationException.class, () -> layout.padding().clear());
        BlockLayout verified = LayoutVerifier.verify(MarketDataShape.class);
        assertThrows(UnsupportedOperationException.class, () -> verified.fields().set(0, verified.fields().get(1)));
    }

    @Test
    void fingerprintIsEqualForEqualLayouts() {
        BlockLayout a = of(handBuilt());
        BlockLayout b = of(handBuilt().reversed());
        assertEquals(a, b);
        assertEquals(a.fingerprint(), b.fingerprint());
        BlockLayout otherHostAndJvm = BlockLayout.of(String.class, handBuilt(), JvmFacts.current());
        assertEquals(a.fingerprint(), otherHostAndJvm.fingerprint(), "only names, types and relative offsets count");
        List<FieldSlot> shifted = handBuilt().stream().map(f -> slot(f.name(), f.type(), f.offset() + 8)).toList();
        assertEquals(a.fingerprint(), of(shifted).fingerprint(), "offsets count relative to the start");
    }

    static Stream<Arguments> singleChanges() {
        return Stream.of(
                Arguments.of("field order (b and c swap places)", (Consumer<List<FieldSlot>>) f -> {
                    f.set(1, slot("c", FieldType.LONG, 16));
                    f.set(2, slot("b", FieldType.INT, 24));
                }),
                Arguments.of("offset of an inner field", (Consumer<List<FieldSlot>>) f -> f.set(2, slot("c", FieldType.INT, 26))),
                Arguments.of("type, same size", (Consumer<List<FieldSlot>>) f -> f.set(2, slot("c", FieldType.FLOAT, 24))),
                Arguments.of("type, byte to boolean", (Consumer<List<FieldSlot>>) f -> f.set(0, slot("a", FieldType.BOOLEAN, 12))),
                Arguments.of("name", (Consumer<List<FieldSlot>>) f -> f.set(1, slot("bb", FieldType.LONG, 16))),
                Arguments.of("block length (last field moves out)", (Consumer<List<FieldSlot>>) f -> f.set(3, slot("d", FieldType.SHORT, 40))),
                Arguments.of("block length (last field grows)", (Consumer<List<FieldSlot>>) f -> f.set(3, slot("d", FieldType.INT, 32))),
                Arguments.of("one more field", (Consumer<List<FieldSlot>>) f -> f.add(slot("e", FieldType.BYTE, 13))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("singleChanges")
    void fingerprintChangesWithEverySingleChange(String change, Consumer<List<FieldSlot>> mutation) {
        List<FieldSlot> changed = new ArrayList<>(handBuilt());
        mutation.accept(changed);
        BlockLayout original = of(handBuilt());
        BlockLayout modified = of(changed);
        assertNotEquals(original.fingerprint(), modified.fingerprint(), change + ":\n" + original.describe() + modified.describe());
    }

    @Test
    void fingerprintMatchesAcrossHeaderModesOnlyWhenRelativeLayoutMatches() {
        assertEquals(jolLayout(MarketDataShape.class, JolOracle.defaultModel()).fingerprint(),
                jolLayout(MarketDataShape.class, JolOracle.compactModel()).fingerprint(), "same order, only the start moves");
        assertNotEquals(jolLayout(LongDoubleIntByte.class, JolOracle.defaultModel()).fingerprint(),
                jolLayout(LongDoubleIntByte.class, JolOracle.compactModel()).fingerprint(), "compact headers reorder the fields");
    }

    @Test
    void fingerprintIsStableAcrossJvmRuns() throws Exception {
        List<String> options = new ArrayList<>(ForkedJvm.currentXxFlags());
        options.add("--sun-misc-unsafe-memory-access=allow");
        ForkedJvm.Result result = ForkedJvm.run(options, PrintFingerprint.class);
        assertEquals(0, result.exitCode(), result.describe());
        assertEquals(LayoutVerifier.verify(MarketDataShape.class).fingerprint(), result.stdout().strip(), result.describe());
    }

    @Test
    void describeMentionsEveryFieldAndGap() {
        for (BlockLayout layout : List.of(of(handBuilt()), LayoutVerifier.verify(Shapes.HoleyThree.class), LayoutVerifier.verify(io.blit.layout.shapes.Wide216.class))) {
            String text = layout.describe();
            assertTrue(text.startsWith(layout.type().getName() + ": block [" + layout.start() + ", " + layout.end() + ")"), text);
            assertTrue(text.contains(layout.fingerprint()), text);
            for (FieldSlot field : layout.fields()) {
                assertTrue(text.contains("  " + field + "\n"), field + " in\n" + text);
            }
            for (PaddingGap gap : layout.padding()) {
                assertTrue(text.contains("  " + gap + "\n"), gap + " in\n" + text);
            }
            assertEquals(1 + layout.fields().size() + layout.padding().size(), text.lines().count(), text);
        }
        String hand = of(handBuilt()).describe();
        assertTrue(hand.indexOf("a @12") < hand.indexOf("padding @13 (3)") && hand.indexOf("padding @13 (3)") < hand.indexOf("b @16"), hand);
    }

    private static BlockLayout jolLayout(Class<?> type, DataModel model) {
        List<FieldSlot> fields = new ArrayList<>();
        for (FieldLayout f : JolOracle.layout(type, model).fields()) {
            fields.add(new FieldSlot(f.name(), type, FieldType.valueOf(f.typeClass().toUpperCase(java.util.Locale.ROOT)), Math.toIntExact(f.offset())));
        }
        return BlockLayout.of(type, fields, FACTS);
    }

    private static void assertRejected(List<FieldSlot> fields, int start, int length, List<PaddingGap> padding,
                                       String fingerprint, String... mentioned) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new BlockLayout(BlockLayoutTest.class, start, length, fields, padding, FACTS, fingerprint));
        assertTrue(e.getMessage().startsWith(BlockLayoutTest.class.getName() + ": "), e.getMessage());
        for (String part : mentioned) {
            assertTrue(e.getMessage().contains(part), "expected '" + part + "' in: " + e.getMessage());
        }
    }
}
