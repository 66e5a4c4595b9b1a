package io.blit.core;

/**
 * How a {@link BlockCopier} moves a block. Every engine produces the same image for the same layout
 * (padding bytes as zeros), so a block written by one is read by any other. Measurements:
 * {@code docs/copy-engine.md}.
 *
 * <p>{@link #GENERATED} and {@link #WORD_LOOP} use {@code sun.misc.Unsafe} memory access; on a JVM
 * started with {@code --sun-misc-unsafe-memory-access=deny} asking for them throws
 * {@link UnsupportedOperationException}, and {@link BlockCopier#of(Class)} picks
 * {@link #GENERATED_FFM}, which uses none. The system property {@code io.blit.core.engine}
 * ({@code GENERATED} or {@code GENERATED_FFM}, read once) chooses the default engine of
 * {@link BlockCopier#of(Class)} and {@link TriviallyCopyable}; with {@code GENERATED_FFM} a JVM started
 * without {@code --sun-misc-unsafe-memory-access} copies without printing the JDK's Unsafe warning.
 */
public enum CopyEngine {
    /**
     * The default: per-class code generated with {@code java.lang.classfile} into a hidden class, one
     * straight-line access per field (zeros for padding): plain {@code getfield}/{@code putfield} when
     * Blit may define a nestmate of the class (both on the class path), constant method handles
     * otherwise. A segment confined to the calling thread is checked once and then addressed directly
     * (through {@code sun.misc.Unsafe}); any other segment through the checked {@code MemorySegment}
     * accessors. Needs private access to the class: its package must be open to {@code io.blit.core}
     * (always so on the class path; in a named module, {@code opens com.acme.messages to io.blit.core}).
     * Needs {@code sun.misc.Unsafe} memory access (not denied).
     */
    GENERATED,

    /**
     * Generated per-class field code like {@link #GENERATED}'s, with every segment access, on every kind of
     * segment, through the checked {@code MemorySegment} accessors: no {@code sun.misc.Unsafe} anywhere (the
     * verifier's offsets then come from its layout model unless the JVM runs with
     * {@code --sun-misc-unsafe-memory-access=allow}). Each copy first takes a slice of exactly the block
     * ({@code asSlice}) and accesses it at constant offsets, so that C2 folds the bounds checks and shares
     * the other checks between fields; interpreted or C1-compiled code allocates that slice (per 24 fields)
     * per copy. The default when Unsafe memory access is
     * denied, or with {@code -Dio.blit.core.engine=GENERATED_FFM}; selectable anywhere. Slower than
     * {@link #GENERATED} on segments confined to the calling thread (confined arenas, files mapped with
     * one), where that engine checks once and then stores by address (docs/copy-engine.md). Needs private
     * access to the class, as {@link #GENERATED}.
     */
    GENERATED_FFM,

    /**
     * A loop of 8-byte words (then 4, 2, 1) read from or written to the object with
     * {@code sun.misc.Unsafe} at the verified offsets. Works for every trivially copyable class, whatever
     * its module says. On segments confined to the calling thread it runs close to {@link #GENERATED};
     * on shared, global, automatic and heap segments, where every access is checked, about four times
     * slower. Used when {@link #GENERATED} cannot get access to the class. Needs {@code sun.misc.Unsafe}
     * memory access (not denied).
     */
    WORD_LOOP
}
