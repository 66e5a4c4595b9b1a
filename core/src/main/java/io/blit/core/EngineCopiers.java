package io.blit.core;

import io.blit.core.internal.BlockCodec;
import io.blit.core.internal.CopyErrors;
import io.blit.core.internal.GeneratedCodecs;
import io.blit.core.internal.WordLoopCodec;
import io.blit.layout.BlockLayout;
import io.blit.layout.FieldSlot;
import io.blit.layout.LayoutVerifier;
import io.blit.layout.internal.UnsafeAccess;

/**
 * Which {@link BlockCopier} copies a class with which engine: one cache per engine, plus the default copier of each
 * class (engine chosen by {@link #CHOSEN}), each computed once per class (verification, code generation) and kept for the life of the class
 * ({@link ClassValue}). Copiers of one class share their layout; GENERATED_FFM has its own generated class (sliced form).
 * Stateless apart from the caches; thread-safe.
 */
final class EngineCopiers {
    /**
     * The system property that chooses the default engine: {@code GENERATED} or {@code GENERATED_FFM}
     * (read once, when this class initialises).
     */
    static final String ENGINE_PROPERTY = "io.blit.core.engine";

    /**
     * The default engine: the one {@link #ENGINE_PROPERTY} names, else {@code GENERATED} (the faster one;
     * docs/copy-engine.md). With {@code GENERATED_FFM} chosen, nothing in Blit calls Unsafe, so that a first
     * copy on a JVM started without {@code --sun-misc-unsafe-memory-access} prints nothing.
     */
    private static final CopyEngine CHOSEN = chosenEngine();

    /**
     * The default copier of each class: generated code with the {@link #CHOSEN} engine ({@code GENERATED}
     * only where Unsafe memory access is not denied); where Blit has no private access to the class, the
     * word loop if Unsafe memory access is not denied (under the default {@code warn} mode its first use
     * warns), else an exception.
     */
    static final ClassValue<BlockCopier<?>> DEFAULT = new ClassValue<>() {
        @Override
        protected BlockCopier<?> computeValue(Class<?> type) {
            BlockLayout layout = LayoutVerifier.verify(type);
            boolean ffm = CHOSEN == CopyEngine.GENERATED_FFM || !UnsafeAccess.memoryAccessAllowed();
            try {
                return new BlockCopier<>(type, layout, ffm ? CopyEngine.GENERATED_FFM : CopyEngine.GENERATED,
                        ffm ? GeneratedCodecs.generateSliced(layout) : GeneratedCodecs.generate(layout));
            } catch (IllegalAccessException noAccess) {
                if (!UnsafeAccess.memoryAccessAllowed()) {
                    throw CopyErrors.noPrivateAccessUnsafeDenied(type, noAccess);
                }
                return new BlockCopier<>(type, layout, CopyEngine.WORD_LOOP, wordLoop(layout));
            }
        }
    };

    private static final ClassValue<BlockCopier<?>> WORD_LOOP = new ClassValue<>() {
        @Override
        protected BlockCopier<?> computeValue(Class<?> type) {
            if (!UnsafeAccess.memoryAccessAllowed()) {
                throw CopyErrors.unsafeDenied("WORD_LOOP");
            }
            BlockLayout layout = LayoutVerifier.verify(type);
            return new BlockCopier<>(type, layout, CopyEngine.WORD_LOOP, wordLoop(layout));
        }
    };

    private static final ClassValue<BlockCopier<?>> GENERATED = new ClassValue<>() {
        @Override
        protected BlockCopier<?> computeValue(Class<?> type) {
            if (!UnsafeAccess.memoryAccessAllowed()) {
                throw CopyErrors.unsafeDenied("GENERATED");
            }
            BlockCopier<?> preferred = DEFAULT.get(type);
            if (preferred.engine() == CopyEngine.GENERATED) {
                return preferred;
            }
            BlockLayout layout = preferred.layout();

            try {
                return new BlockCopier<>(type, layout, CopyEngine.GENERATED, GeneratedCodecs.generate(layout));
            } catch (IllegalAccessException e) {
                throw CopyErrors.noPrivateAccess(type, e);
            }
        }
    };

    /** Its own generated class, whose checked methods use the sliced form (GeneratedCodecs.generateSliced). */
    private static final ClassValue<BlockCopier<?>> GENERATED_FFM = new ClassValue<>() {
        @Override
        protected BlockCopier<?> computeValue(Class<?> type) {
            if (CHOSEN == CopyEngine.GENERATED_FFM || UnsafeAccess.deniedByOption()) {
                return DEFAULT.get(type);
            }
            // Not through DEFAULT otherwise: with GENERATED chosen it probes Unsafe, which warns under `warn`.
            BlockLayout layout = LayoutVerifier.verify(type);
            try {
                return new BlockCopier<>(type, layout, CopyEngine.GENERATED_FFM, GeneratedCodecs.generateSliced(layout));
            } catch (IllegalAccessException e) {
                throw CopyErrors.noPrivateAccess(type, e);
            }
        }
    };

    private EngineCopiers() {
    }

    /** The copier of {@code type} with {@code engine} (see {@link BlockCopier#of(Class, CopyEngine)}). */
    static BlockCopier<?> of(Class<?> type, CopyEngine engine) {
        return switch (engine) {
            case GENERATED -> GENERATED.get(type);
            case GENERATED_FFM -> GENERATED_FFM.get(type);
            case WORD_LOOP -> WORD_LOOP.get(type);
        };
    }

    private static CopyEngine chosenEngine() {
        String name = System.getProperty(ENGINE_PROPERTY);
        if (name == null || name.isBlank()) {
            return CopyEngine.GENERATED;
        }
        CopyEngine engine = CopyEngine.valueOf(name.strip());
        if (engine == CopyEngine.WORD_LOOP) {
            throw new IllegalArgumentException(ENGINE_PROPERTY + "=" + name + ": the default engine is GENERATED or GENERATED_FFM;"
                    + " WORD_LOOP is chosen per copier (BlockCopier.of(type, CopyEngine.WORD_LOOP))");
        }
        return engine;
    }

    /**
     * The word loop reads and writes the object at the layout's offsets through Unsafe, so they must be the
     * JVM's own: where the layout came from the verifier's model (any mode but {@code allow}), each field's
     * offset is checked against {@code Unsafe.objectFieldOffset} first (Unsafe is in use anyway).
     */
    private static BlockCodec wordLoop(BlockLayout layout) {
        for (FieldSlot field : layout.fields()) {
            long real;
            try {
                real = UnsafeAccess.objectFieldOffset(field.declaringClass().getDeclaredField(field.name()));
            } catch (NoSuchFieldException e) {
                throw new IllegalStateException("verified field not found: " + field, e);
            }
            if (real != field.offset()) {
                throw new IllegalStateException("the layout of " + layout.type().getName() + " puts " + field
                        + " but this JVM has it at offset " + real + ": the word loop cannot copy it");
            }
        }
        return new WordLoopCodec(layout.start(), layout.length());
    }
}
