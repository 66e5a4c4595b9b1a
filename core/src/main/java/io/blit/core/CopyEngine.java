package io.blit.core;

/**
 * How a {@link BlockCopier} moves a block. Both engines produce the same image for the same layout
 * and keep every segment access inside the {@code MemorySegment} API (bounds, liveness and thread
 * checks included). Measurements: {@code docs/copy-engine.md}.
 */
public enum CopyEngine {
    /**
     * The default: per-class code generated with {@code java.lang.classfile} into a hidden class, one
     * straight-line access per field (zeros for padding): plain {@code getfield}/{@code putfield} when
     * Blit may define a nestmate of the class (both on the class path), constant method handles
     * otherwise. A segment confined to the calling thread is checked once and then addressed directly;
     * any other segment through the checked {@code MemorySegment} accessors. Needs private access to
     * the class: its package must be open to {@code io.blit.core} (always so on the class path; in a
     * named module, {@code opens com.acme.messages to io.blit.core}).
     */
    GENERATED,

    /**
     * A loop of 8-byte words (then 4, 2, 1) read from or written to the object with
     * {@code sun.misc.Unsafe} at the verified offsets. Works for every trivially copyable class, whatever
     * its module says. On segments confined to the calling thread it runs close to {@link #GENERATED};
     * on shared, global, automatic and heap segments, where every access is checked, about four times
     * slower. Used when {@link #GENERATED} cannot get access to the class.
     */
    WORD_LOOP
}
