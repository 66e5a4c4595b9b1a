package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.BlockLayout;
import io.blit.layout.FieldType;
import io.blit.layout.shapes.Shapes;
import io.blit.layout.shapes.Wide216;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every shape round-trips bit for bit through every kind of segment, at aligned and unaligned
 * offsets, and the bytes written are the field block in native order. Runs under every header mode.
 */
@Tag("jvm-modes")
class RoundTripTest {
    /** Room around a block: enough for the offsets below, and bytes after it that must stay painted. */
    private static final int SLACK = 13;
    private static final int REPEATS = 4;
    private static final int BULK = 11;

    @TempDir
    Path directory;

    static Stream<Arguments> shapesAndSegments() {
        return Shapes.concrete().stream().flatMap(shape -> Stream.of(SegmentKind.values()).map(kind -> Arguments.of(shape, kind)));
    }

    static Stream<Arguments> copyablesAndSegments() {
        return TestCopyables.GOOD.stream().flatMap(type -> Stream.of(SegmentKind.values()).map(kind -> Arguments.of(type, kind)));
    }

    /** 0, 1, 3 and 7, and the offset where the block ends exactly at the end of the segment. */
    private static long[] offsets(long capacity, long size) {
        return new long[] {0, 1, 3, 7, capacity - size};
    }

    @Test
    void runsUnderTheHeaderModeThisExecutionExpects() {
        int expected = Integer.getInteger("blit.expected.header", 12);
        BlockLayout oneByte = BlockCopier.of(Shapes.OneByte.class).layout();
        assertEquals(expected, oneByte.jvm().objectHeaderSize(), oneByte.jvm().headerMode());
        assertEquals(expected, oneByte.start(), "a lone byte field sits right after the header");
    }

    @ParameterizedTest(name = "{0} through {1}")
    @MethodSource("shapesAndSegments")
    void everyFieldRoundTripsBitwiseAndTheImageIsTheFieldBlockAtEveryOffset(Class<?> shape, SegmentKind kind) throws Exception {
        BlockCopier<Object> copier = copier(shape);
        long size = copier.byteSize();
        assertEquals(copier.layout().length(), size);
        RandomFields random = new RandomFields(shape.getName().hashCode() * 31L + kind.ordinal());
        try (SegmentKind.Opened opened = kind.open(size + SLACK, directory)) {
            MemorySegment segment = opened.segment();
            for (long offset : offsets(segment.byteSize(), size)) {
                for (int repeat = 0; repeat < REPEATS; repeat++) {
                    String where = shape.getSimpleName() + " at offset " + offset + " of " + kind + ", repeat " + repeat + ": ";
                    Images.paint(segment);
                    Object source = random.newFilled(shape);
                    copier.writeTo(source, segment, offset);
                    Images.assertImage(segment, offset, copier.layout(), source);
                    Images.assertPainted(segment, 0, offset, where + "before the block");
                    Images.assertPainted(segment, offset + size, segment.byteSize(), where + "after the block");

                    // A fresh target first; later ones already hold other values, which must all be replaced.
                    Object target = repeat == 0 ? RandomFields.newInstance(shape) : random.newFilled(shape);
                    copier.readFrom(segment, offset, target);
                    RandomFields.assertSameBits(source, target, where);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void everyEdgeValueOfEveryTypeRoundTrips(Class<?> shape) {
        BlockCopier<Object> copier = copier(shape);
        List<Field> fields = RandomFields.fieldsOf(shape);
        int rounds = 0;
        for (FieldType type : FieldType.values()) {
            rounds = Math.max(rounds, RandomFields.edgeBits(type).length);
        }
        MemorySegment segment = MemorySegment.ofArray(new long[Math.toIntExact(copier.byteSize() / 8 + 2)]);
        for (int round = 0; round < rounds; round++) {
            Object source = RandomFields.newInstance(shape);
            for (int i = 0; i < fields.size(); i++) {
                long[] edges = RandomFields.edgeBits(RandomFields.typeOf(fields.get(i)));
                RandomFields.setRawBits(fields.get(i), source, edges[(round + i) % edges.length]);
            }
            copier.writeTo(source, segment, 3);
            Images.assertImage(segment, 3, copier.layout(), source);
            Object target = RandomFields.newInstance(shape);
            copier.readFrom(segment, 3, target);
            RandomFields.assertSameBits(source, target, "edge round " + round + ": ");
        }
    }

    static Stream<Class<?>> shapes() {
        return Shapes.concrete().stream();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SegmentKind.class)
    void writeAllThenReadAllRoundTripsEveryElementOfEveryShape(SegmentKind kind) throws Exception {
        RandomFields random = new RandomFields(0xB0C4L + kind.ordinal());
        for (Class<?> shape : Shapes.concrete()) {
            BlockCopier<Object> copier = copier(shape);
            long size = copier.byteSize();
            long offset = 5;
            try (SegmentKind.Opened opened = kind.open(offset + BULK * size + SLACK, directory)) {
                MemorySegment segment = opened.segment();
                Images.paint(segment);
                Object[] sources = newArray(shape, BULK);
                for (int i = 0; i < BULK; i++) {
                    sources[i] = random.newFilled(shape);
                }
                copier.writeAll(sources, segment, offset);
                for (int i = 0; i < BULK; i++) {
                    Images.assertImage(segment, offset + i * size, copier.layout(), sources[i]);
                }
                Images.assertPainted(segment, 0, offset, shape.getSimpleName() + " before the slots");
                Images.assertPainted(segment, offset + BULK * size, segment.byteSize(), shape.getSimpleName() + " after the slots");

                Object[] targets = newArray(shape, BULK);
                for (int i = 0; i < BULK; i++) {
                    targets[i] = random.newFilled(shape);
                }
                copier.readAll(segment, offset, targets);
                for (int i = 0; i < BULK; i++) {
                    RandomFields.assertSameBits(sources[i], targets[i], shape.getSimpleName() + "[" + i + "] via " + kind + ": ");
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(SegmentKind.class)
    void writeAllAndReadAllOfARangeTouchOnlyThatRange(SegmentKind kind) throws Exception {
        RandomFields random = new RandomFields(0x5A11L + kind.ordinal());
        for (Class<?> shape : List.of(Shapes.OddTail.class, Shapes.FillsSuperclassHoles.class, Wide216.class, Shapes.OneBoolean.class)) {
            BlockCopier<Object> copier = copier(shape);
            long size = copier.byteSize();
            int from = 2;
            int count = 5;
            long offset = 7;
            try (SegmentKind.Opened opened = kind.open(offset + count * size + SLACK, directory)) {
                MemorySegment segment = opened.segment();
                Images.paint(segment);
                Object[] sources = newArray(shape, BULK);
                for (int i = 0; i < BULK; i++) {
                    sources[i] = random.newFilled(shape);
                }
                copier.writeAll(sources, from, count, segment, offset);
                for (int i = 0; i < count; i++) {
                    Images.assertImage(segment, offset + i * size, copier.layout(), sources[from + i]);
                }
                Images.assertPainted(segment, 0, offset, "before the slots");
                Images.assertPainted(segment, offset + count * size, segment.byteSize(), "after the slots");

                Object[] targets = newArray(shape, BULK);
                Object[] before = new Object[BULK];
                for (int i = 0; i < BULK; i++) {
                    targets[i] = random.newFilled(shape);
                    before[i] = RandomFields.snapshot(targets[i]);
                }
                int into = 4;
                copier.readAll(segment, offset, targets, into, count);
                for (int i = 0; i < BULK; i++) {
                    if (i >= into && i < into + count) {
                        RandomFields.assertSameBits(sources[from + i - into], targets[i], shape.getSimpleName() + " targets[" + i + "]: ");
                    } else {
                        assertEquals(before[i], RandomFields.snapshot(targets[i]), "targets[" + i + "] is outside the range and must not change");
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} through {1}")
    @MethodSource("copyablesAndSegments")
    void triviallyCopyableSubclassesRoundTripThroughTheirOwnMethods(Class<? extends TriviallyCopyable> type, SegmentKind kind) throws Exception {
        BlockCopier<? extends TriviallyCopyable> copier = BlockCopier.of(type);
        RandomFields random = new RandomFields(type.getName().hashCode());
        TriviallyCopyable probe = RandomFields.newInstance(type);
        assertEquals(copier.byteSize(), probe.byteSize());
        assertSame(copier.layout(), probe.layout(), "one layout per class, shared with BlockCopier.of");
        long size = probe.byteSize();
        try (SegmentKind.Opened opened = kind.open(size + SLACK, directory)) {
            MemorySegment segment = opened.segment();
            for (long offset : offsets(segment.byteSize(), size)) {
                Images.paint(segment);
                TriviallyCopyable source = random.newFilled(type);
                source.writeTo(segment, offset);
                Images.assertImage(segment, offset, source.layout(), source);
                Images.assertPainted(segment, 0, offset, "before the block");
                Images.assertPainted(segment, offset + size, segment.byteSize(), "after the block");
                TriviallyCopyable target = random.newFilled(type);
                target.readFrom(segment, offset);
                RandomFields.assertSameBits(source, target, type.getSimpleName() + " at " + offset + ": ");
            }
        }
    }

    @Test
    void aQuoteIs144BytesOfEightByteFieldsInEveryMode() {
        TestCopyables.Quote quote = new TestCopyables.Quote();
        assertEquals(144, quote.byteSize());
        assertEquals(0, quote.layout().paddingBytes());
        assertTrue(quote.layout().fields().stream().allMatch(f -> f.size() == 8));
    }

    @SuppressWarnings("unchecked")
    private static BlockCopier<Object> copier(Class<?> shape) {
        return (BlockCopier<Object>) BlockCopier.of(shape);
    }

    private static Object[] newArray(Class<?> shape, int length) {
        return (Object[]) Array.newInstance(shape, length);
    }
}
