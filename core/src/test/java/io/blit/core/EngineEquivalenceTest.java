package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import io.blit.core.internal.BlockCodec;
import io.blit.core.internal.GeneratedCodecs;
import io.blit.core.internal.WordLoopCodec;
import io.blit.layout.BlockLayout;
import io.blit.layout.LayoutVerifier;
import io.blit.layout.internal.UnsafeAccess;
import io.blit.layout.shapes.Shapes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engines are interchangeable: generated code with direct field access, generated code with
 * method handles, and the Unsafe word loop write byte-identical images (padding included) for every
 * shape, through the segment API and by address alike, and each reads every other's image back bit
 * for bit both ways; so do the public engines ({@code GENERATED}, {@code GENERATED_FFM},
 * {@code WORD_LOOP}) on every kind of segment. Runs under every header mode; under
 * {@code --sun-misc-unsafe-memory-access=deny} the tests tagged {@code needs-unsafe} give way to their
 * {@code unsafe-denied} twins.
 */
@Tag("jvm-modes")
class EngineEquivalenceTest {
    private static final int ROUNDS = 8;

    static Stream<Class<?>> shapes() {
        return Shapes.concrete().stream();
    }

    private static Map<String, BlockCodec> codecs(BlockLayout layout) throws IllegalAccessException {
        Map<String, BlockCodec> codecs = new LinkedHashMap<>();
        codecs.put("generated-direct", GeneratedCodecs.generate(layout, true));
        codecs.put("generated-handles", GeneratedCodecs.generate(layout, false));
        codecs.put("word-loop", new WordLoopCodec(layout.start(), layout.length()));
        return codecs;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    @Tag("needs-unsafe")
    void everyEngineWritesTheSameBytesAndReadsEveryOthersImage(Class<?> shape) throws Exception {
        BlockLayout layout = LayoutVerifier.verify(shape);
        Map<String, BlockCodec> codecs = codecs(layout);
        RandomFields random = new RandomFields(shape.getName().hashCode());
        int size = layout.length();
        try (Arena arena = Arena.ofConfined()) {
            for (int round = 0; round < ROUNDS; round++) {
                Object source = random.newFilled(shape);
                MemorySegment reference = null;
                for (Map.Entry<String, BlockCodec> writer : codecs.entrySet()) {
                    MemorySegment image = arena.allocate(size + 3).asSlice(3); // unaligned on purpose
                    image.fill((byte) 0x5A); // padding must be overwritten with the object's (zero) bytes
                    writer.getValue().write(source, image, 0);
                    MemorySegment rawImage = arena.allocate(size + 5).asSlice(5);
                    rawImage.fill((byte) 0x5A);
                    writer.getValue().writeRaw(source, rawImage.address());
                    if (rawImage.mismatch(image) != -1) {
                        fail(writer.getKey() + " wrote another image by address than through the segment API for "
                                + shape.getSimpleName() + " at block byte " + rawImage.mismatch(image) + "\n" + layout.describe());
                    }
                    if (reference == null) {
                        reference = image;
                    } else {
                        long mismatch = reference.mismatch(image);
                        if (mismatch != -1) {
                            fail(writer.getKey() + " wrote a different image than " + codecs.keySet().iterator().next()
                                    + " for " + shape.getSimpleName() + " at block byte " + mismatch + "\n" + layout.describe());
                        }
                    }
                    for (Map.Entry<String, BlockCodec> reader : codecs.entrySet()) {
                        Object target = random.newFilled(shape);
                        reader.getValue().read(image, 0, target);
                        RandomFields.assertSameBits(source, target, writer.getKey() + " -> " + reader.getKey() + ": ");
                        Object rawTarget = random.newFilled(shape);
                        reader.getValue().readRaw(image.address(), rawTarget);
                        RandomFields.assertSameBits(source, rawTarget, writer.getKey() + " -> " + reader.getKey() + " by address: ");
                    }
                }
            }
        }
    }

    /** The deny twin of the test above: both generated forms through the segment API, the only path there is. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    @Tag("unsafe-denied")
    void underDenyBothGeneratedFormsWriteTheSameBytesAndReadEachOthersImage(Class<?> shape) throws Exception {
        BlockLayout layout = LayoutVerifier.verify(shape);
        Map<String, BlockCodec> codecs = new LinkedHashMap<>();
        codecs.put("generated-direct", GeneratedCodecs.generate(layout, true));
        codecs.put("generated-handles", GeneratedCodecs.generate(layout, false));
        RandomFields random = new RandomFields(shape.getName().hashCode());
        try (Arena arena = Arena.ofConfined()) {
            for (int round = 0; round < ROUNDS; round++) {
                Object source = random.newFilled(shape);
                MemorySegment reference = null;
                for (Map.Entry<String, BlockCodec> writer : codecs.entrySet()) {
                    MemorySegment image = arena.allocate(layout.length() + 3).asSlice(3);
                    image.fill((byte) 0x5A);
                    writer.getValue().write(source, image, 0);
                    Images.assertImage(image, 0, layout, source);
                    assertPaddingIsZero(image, layout, writer.getKey());
                    if (reference == null) {
                        reference = image;
                    } else {
                        assertEquals(-1, reference.mismatch(image), writer.getKey() + " differs for " + shape.getSimpleName());
                    }
                    for (Map.Entry<String, BlockCodec> reader : codecs.entrySet()) {
                        Object target = random.newFilled(shape);
                        reader.getValue().read(image, 0, target);
                        RandomFields.assertSameBits(source, target, writer.getKey() + " -> " + reader.getKey() + ": ");
                    }
                }
            }
        }
    }

    /**
     * Through the public API, in both unsafe modes: every engine available in this JVM writes the same
     * bytes into every kind of segment, padding as zeros (all three under allow, so GENERATED_FFM's
     * images equal the Unsafe engines'; under deny GENERATED_FFM alone, checked against the fields and
     * the zero padding, and against the Unsafe engines' files in {@link CrossEngineFileTest}).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void everyAvailableEngineWritesTheSameImageToEveryKindOfSegment(Class<?> shape) throws Exception {
        List<CopyEngine> engines = UnsafeAccess.memoryAccessAllowed() ? List.of(CopyEngine.values()) : List.of(CopyEngine.GENERATED_FFM);
        BlockLayout layout = LayoutVerifier.verify(shape);
        RandomFields random = new RandomFields(~shape.getName().hashCode());
        Object source = random.newFilled(shape);
        MemorySegment reference = null;
        for (CopyEngine engine : engines) {
            @SuppressWarnings("unchecked")
            BlockCopier<Object> copier = (BlockCopier<Object>) BlockCopier.of(shape, engine);
            assertSame(engine, copier.engine());
            for (SegmentKind kind : List.of(SegmentKind.CONFINED_ARENA, SegmentKind.SHARED_ARENA, SegmentKind.HEAP_LONG_ARRAY)) {
                try (SegmentKind.Opened opened = kind.open(layout.length() + 8, null)) {
                    MemorySegment image = opened.segment().asSlice(1, layout.length());
                    image.fill((byte) 0x5A);
                    copier.writeTo(source, image, 0);
                    Images.assertImage(image, 0, layout, source);
                    assertPaddingIsZero(image, layout, engine + " on " + kind);
                    MemorySegment copy = Arena.ofAuto().allocate(layout.length()).copyFrom(image);
                    if (reference == null) {
                        reference = copy;
                    } else {
                        assertEquals(-1, reference.mismatch(copy), engine + " on " + kind + " wrote another image of " + shape.getSimpleName());
                    }
                    Object target = random.newFilled(shape);
                    copier.readFrom(image, 0, target);
                    RandomFields.assertSameBits(source, target, engine + " on " + kind + ": ");
                }
            }
        }
    }

    private static void assertPaddingIsZero(MemorySegment image, BlockLayout layout, String writer) {
        for (var gap : layout.padding()) {
            for (int at = gap.offset(); at < gap.offset() + gap.length(); at++) {
                assertEquals(0, image.get(java.lang.foreign.ValueLayout.JAVA_BYTE, at - layout.start()),
                        writer + ": padding byte at object offset " + at + " of " + layout.type().getSimpleName());
            }
        }
    }

    @Test
    @Tag("unsafe-denied")
    void underDenyTheDefaultIsGeneratedFfmAndTheUnsafeEnginesRefuseClearly() {
        assertSame(CopyEngine.GENERATED_FFM, BlockCopier.of(Shapes.MarketDataShape.class).engine());
        assertSame(BlockCopier.of(Shapes.MarketDataShape.class), BlockCopier.of(Shapes.MarketDataShape.class, CopyEngine.GENERATED_FFM));
        for (CopyEngine unsafe : List.of(CopyEngine.GENERATED, CopyEngine.WORD_LOOP)) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> BlockCopier.of(Shapes.MarketDataShape.class, unsafe));
            assertEquals("the " + unsafe + " engine needs sun.misc.Unsafe memory access, which this JVM denies"
                    + " (--sun-misc-unsafe-memory-access=deny): use CopyEngine.GENERATED_FFM, or BlockCopier.of(type),"
                    + " which picks it by itself, or export the JDK's own Unsafe to Blit"
                    + " (--add-exports java.base/jdk.internal.misc=ALL-UNNAMED), which works in every mode", e.getMessage());
        }
    }

    @Test
    @Tag("needs-unsafe")
    void classesOnTheClassPathGetTheDirectFormAndAnExplicitEngineIsHonoured() {
        assertSame(CopyEngine.GENERATED, BlockCopier.of(Shapes.MarketDataShape.class).engine());
        assertSame(CopyEngine.WORD_LOOP, BlockCopier.of(Shapes.MarketDataShape.class, CopyEngine.WORD_LOOP).engine());
        assertSame(CopyEngine.GENERATED_FFM, BlockCopier.of(Shapes.MarketDataShape.class, CopyEngine.GENERATED_FFM).engine());
        assertSame(BlockCopier.of(Shapes.MarketDataShape.class), BlockCopier.of(Shapes.MarketDataShape.class, CopyEngine.GENERATED));
        assertEquals("io.blit.layout.shapes", codecPackage(Shapes.MarketDataShape.class, true),
                "the direct form is a hidden nestmate, defined in the copied class's package");
        assertEquals("io.blit.core.internal", codecPackage(Shapes.MarketDataShape.class, false),
                "the method-handle form lives in Blit's own package");
    }

    private static String codecPackage(Class<?> type, boolean allowDirect) {
        try {
            return GeneratedCodecs.generate(LayoutVerifier.verify(type), allowDirect).getClass().getPackageName();
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }
}
