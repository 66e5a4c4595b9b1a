package io.blit.core;

import io.blit.core.internal.BlockCodec;
import io.blit.core.internal.CopyErrors;
import io.blit.core.internal.GeneratedCodecs;
import io.blit.core.internal.WordLoopCodec;
import io.blit.layout.BlockLayout;
import io.blit.layout.LayoutVerifier;
import io.blit.layout.internal.UnsafeAccess;

/**
 * Which {@link BlockCopier} copies a class with which engine: one cache per engine, plus the default copier of each
 * class, each computed once per class (verification, code generation) and kept for the life of the class
 * ({@link ClassValue}). Copiers of one class share their layout and, where they can, their generated codec.
 * Stateless apart from the caches; thread-safe.
 */
final class EngineCopiers {
    /**
     * The default copier of each class: generated code where access allows, else the word loop; with
     * Unsafe memory access denied, generated code without Unsafe (or an exception, if access fails).
     */
    static final ClassValue<BlockCopier<?>> DEFAULT = new ClassValue<>() {
        @Override
        protected BlockCopier<?> computeValue(Class<?> type) {
            BlockLayout layout = LayoutVerifier.verify(type);
            if (!UnsafeAccess.memoryAccessAllowed()) {
                try {
                    return new BlockCopier<>(type, layout, CopyEngine.GENERATED_FFM, GeneratedCodecs.generate(layout));
                } catch (IllegalAccessException noAccess) {
                    throw CopyErrors.noPrivateAccessUnsafeDenied(type, noAccess);
                }
            }
            try {
                return new BlockCopier<>(type, layout, CopyEngine.GENERATED, GeneratedCodecs.generate(layout));
            } catch (IllegalAccessException noAccess) {
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

    /** Shares the generated class of {@link #GENERATED} where there is one: only its checked methods are called. */
    private static final ClassValue<BlockCopier<?>> GENERATED_FFM = new ClassValue<>() {
        @Override
        protected BlockCopier<?> computeValue(Class<?> type) {
            BlockCopier<?> preferred = DEFAULT.get(type);
            if (preferred.engine() == CopyEngine.GENERATED_FFM) {
                return preferred;
            }
            if (preferred.engine() == CopyEngine.GENERATED) {
                return new BlockCopier<>(type, preferred.layout(), CopyEngine.GENERATED_FFM, preferred.codec());
            }
            try {
                return new BlockCopier<>(type, preferred.layout(), CopyEngine.GENERATED_FFM, GeneratedCodecs.generate(preferred.layout()));
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

    private static BlockCodec wordLoop(BlockLayout layout) {
        return new WordLoopCodec(layout.start(), layout.length());
    }
}
