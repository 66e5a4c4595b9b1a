package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.blit.core.internal.BlockCodec;
import io.blit.core.internal.BlockTranslator;
import io.blit.core.internal.GeneratedCodecs;
import io.blit.core.internal.GeneratedTranslators;
import io.blit.core.internal.Translation;
import io.blit.layout.BlockLayout;
import io.blit.layout.FieldSlot;
import io.blit.layout.LayoutVerifier;
import io.blit.layout.shapes.Shapes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Field;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Generated translation reads exactly what the scratch translation ({@link Translation}, the reference)
 * reads: for every shape, four writer layouts (every field moved, an extra leading field with the first
 * field missing, the writer's byte order swapped, both), random values with edge values (NaNs with
 * payloads, signalling NaNs, -0.0, MIN/MAX) and random junk in the writer's other bytes, into targets
 * filled with other random values. Every generated path is compared bit for bit: direct field access
 * and method handles, each through the segment accessors (heap and shared native segments) and by
 * address. Runs under every header mode; by-address paths need {@code sun.misc.Unsafe} memory access.
 */
@Tag("jvm-modes")
class GeneratedTranslatorTest {
    private static final int ROUNDS = 6;

    /** A writer layout relative to the reader's: where each reader field is in the writer block. */
    enum WriterShape {
        /** Fields packed in the reverse of the reader's order: every field moves. */
        REVERSED,
        /** An 8-byte field first, then the reader's layout shifted by 8, without the reader's first field. */
        PREFIXED_FIRST_MISSING,
        /** The reader's offsets, the other byte order. */
        SWAPPED,
        /** Reversed and the other byte order. */
        REVERSED_SWAPPED;

        boolean swap() {
            return this == SWAPPED || this == REVERSED_SWAPPED;
        }
    }

    /** For each reader field the writer-block offset (-1: missing), the writer block's length, the byte order. */
    private record Plan(int[] offsets, int writerLength, boolean swap) {
    }

    static Stream<Arguments> cases() {
        return Shapes.concrete().stream().flatMap(shape -> Stream.of(WriterShape.values()).map(w -> Arguments.of(shape, w)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void generatedCodeThroughTheSegmentAccessorsReadsWhatTheScratchTranslationReads(Class<?> shape, WriterShape writerShape)
            throws Exception {
        BlockLayout layout = LayoutVerifier.verify(shape);
        Plan plan = plan(layout, writerShape);
        BlockTranslator direct = GeneratedTranslators.generate(layout, plan.offsets(), plan.swap(), true);
        BlockTranslator handles = GeneratedTranslators.generate(layout, plan.offsets(), plan.swap(), false);
        RandomFields random = new RandomFields(shape.getName().hashCode() * 31L + writerShape.ordinal());
        try (Arena arena = Arena.ofShared()) {
            for (int round = 0; round < ROUNDS; round++) {
                Object source = random.newFilled(shape);
                MemorySegment nativeImage = arena.allocate(plan.writerLength() + 7).asSlice(7); // unaligned on purpose
                writeImage(layout, plan, source, nativeImage, round);
                MemorySegment heapImage = MemorySegment.ofArray(new byte[plan.writerLength() + 5]).asSlice(5);
                heapImage.copyFrom(nativeImage);
                Object expected = referenceRead(layout, plan, nativeImage, random.newFilled(shape));
                assertExpected(layout, plan, source, expected);
                for (MemorySegment image : List.of(nativeImage, heapImage)) {
                    String where = (image.isNative() ? "native" : "heap") + " segment, " + writerShape + ": ";
                    Object viaDirect = random.newFilled(shape);
                    direct.read(image, 0, viaDirect);
                    RandomFields.assertSameBits(expected, viaDirect, "direct, " + where);
                    Object viaHandles = random.newFilled(shape);
                    handles.read(image, 0, viaHandles);
                    RandomFields.assertSameBits(expected, viaHandles, "handles, " + where);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    @Tag("needs-unsafe")
    void generatedCodeByAddressReadsWhatTheScratchTranslationReads(Class<?> shape, WriterShape writerShape) throws Exception {
        BlockLayout layout = LayoutVerifier.verify(shape);
        Plan plan = plan(layout, writerShape);
        BlockTranslator direct = GeneratedTranslators.generate(layout, plan.offsets(), plan.swap(), true);
        BlockTranslator handles = GeneratedTranslators.generate(layout, plan.offsets(), plan.swap(), false);
        RandomFields random = new RandomFields(shape.getName().hashCode() * 17L + writerShape.ordinal());
        try (Arena arena = Arena.ofConfined()) {
            for (int round = 0; round < ROUNDS; round++) {
                Object source = random.newFilled(shape);
                MemorySegment image = arena.allocate(plan.writerLength() + 3).asSlice(3);
                writeImage(layout, plan, source, image, round);
                Object expected = referenceRead(layout, plan, image, random.newFilled(shape));
                assertExpected(layout, plan, source, expected);
                Object viaDirect = random.newFilled(shape);
                direct.readRaw(image.address(), viaDirect);
                RandomFields.assertSameBits(expected, viaDirect, "direct by address, " + writerShape + ": ");
                Object viaHandles = random.newFilled(shape);
                handles.readRaw(image.address(), viaHandles);
                RandomFields.assertSameBits(expected, viaHandles, "handles by address, " + writerShape + ": ");
            }
        }
    }

    @Test
    void aTranslatorIsGeneratedOncePerReaderClassAndPlan() throws Exception {
        BlockLayout layout = LayoutVerifier.verify(Shapes.concrete().getFirst());
        Plan reversed = plan(layout, WriterShape.REVERSED);
        BlockTranslator first = GeneratedTranslators.cached(layout, reversed.offsets(), false);
        assertSame(first, GeneratedTranslators.cached(layout, reversed.offsets().clone(), false));
        assertNotSame(first, GeneratedTranslators.cached(layout, reversed.offsets(), true), "another byte order is another plan");
        assertThrows(IllegalArgumentException.class, () -> GeneratedTranslators.generate(layout, new int[layout.fields().size() + 1], false, true));
    }

    private static Plan plan(BlockLayout layout, WriterShape writerShape) {
        List<FieldSlot> fields = layout.fields();
        int[] offsets = new int[fields.size()];
        int writerLength;
        switch (writerShape) {
            case REVERSED, REVERSED_SWAPPED -> {
                int at = 0;
                for (int i = fields.size() - 1; i >= 0; i--) {
                    offsets[i] = at;
                    at += fields.get(i).size();
                }
                writerLength = at;
            }
            case PREFIXED_FIRST_MISSING -> {
                for (int i = 0; i < fields.size(); i++) {
                    offsets[i] = i == 0 ? -1 : fields.get(i).offset() - layout.start() + 8;
                }
                writerLength = layout.length() + 8;
            }
            case SWAPPED -> {
                for (int i = 0; i < fields.size(); i++) {
                    offsets[i] = fields.get(i).offset() - layout.start();
                }
                writerLength = layout.length();
            }
            default -> throw new AssertionError(writerShape);
        }
        return new Plan(offsets, writerLength, writerShape.swap());
    }

    /** Junk everywhere, then each field of {@code source} the plan has at its writer offset, in the writer's byte order. */
    private static void writeImage(BlockLayout layout, Plan plan, Object source, MemorySegment image, int seed) {
        SplittableRandom junk = new SplittableRandom(seed);
        for (long i = 0; i < image.byteSize(); i++) {
            image.set(ValueLayout.JAVA_BYTE, i, (byte) junk.nextInt());
        }
        boolean bigEndian = (ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN) != plan.swap();
        List<FieldSlot> fields = layout.fields();
        for (int i = 0; i < fields.size(); i++) {
            if (plan.offsets()[i] < 0) {
                continue;
            }
            int size = fields.get(i).size();
            long bits = RandomFields.rawBits(reflected(fields.get(i)), source);
            for (int k = 0; k < size; k++) {
                byte b = (byte) (bits >>> (8 * k));
                image.set(ValueLayout.JAVA_BYTE, plan.offsets()[i] + (bigEndian ? size - 1 - k : k), b);
            }
        }
    }

    /** The scratch translation's read: the writer block re-arranged into a reader image, then the class's generated bulk read. */
    private static Object referenceRead(BlockLayout layout, Plan plan, MemorySegment image, Object target) throws Exception {
        List<Translation.Run> moves = new ArrayList<>();
        List<FieldSlot> fields = layout.fields();
        for (int i = 0; i < fields.size(); i++) {
            if (plan.offsets()[i] >= 0) {
                FieldSlot field = fields.get(i);
                moves.add(new Translation.Run(plan.offsets()[i], field.offset() - layout.start(), field.size(),
                        plan.swap() && field.size() > 1));
            }
        }
        MemorySegment readerImage = Translation.of(moves, plan.writerLength(), layout.length()).translate(image, 0);
        BlockCodec codec = GeneratedCodecs.generate(layout, false);
        codec.read(readerImage, 0, target);
        return target;
    }

    /** The reference itself is right: every field the writer has equals the source's, every other is zero. */
    private static void assertExpected(BlockLayout layout, Plan plan, Object source, Object expected) {
        Object want = RandomFields.newInstance(source.getClass());
        List<FieldSlot> fields = layout.fields();
        for (int i = 0; i < fields.size(); i++) {
            Field field = reflected(fields.get(i));
            RandomFields.setRawBits(field, want, plan.offsets()[i] < 0 ? 0 : RandomFields.rawBits(field, source));
        }
        RandomFields.assertSameBits(want, expected, "scratch translation: ");
    }

    private static Field reflected(FieldSlot slot) {
        try {
            Field field = slot.declaringClass().getDeclaredField(slot.name());
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException e) {
            throw new AssertionError(e);
        }
    }
}
