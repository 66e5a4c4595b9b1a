package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.fail;

import io.blit.core.internal.BlockCodec;
import io.blit.core.internal.GeneratedCodecs;
import io.blit.core.internal.WordLoopCodec;
import io.blit.layout.BlockLayout;
import io.blit.layout.LayoutVerifier;
import io.blit.layout.shapes.Shapes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
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
 * for bit both ways. Runs under every header mode.
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

    @Test
    void classesOnTheClassPathGetTheDirectFormAndAnExplicitEngineIsHonoured() {
        assertSame(CopyEngine.GENERATED, BlockCopier.of(Shapes.MarketDataShape.class).engine());
        assertSame(CopyEngine.WORD_LOOP, BlockCopier.of(Shapes.MarketDataShape.class, CopyEngine.WORD_LOOP).engine());
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
