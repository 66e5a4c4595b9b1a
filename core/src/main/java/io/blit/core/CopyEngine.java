package io.blit.core;

import io.blit.layout.internal.UnsafeAccess;

/**
 * How a {@link BlockCopier} moves a block. Every engine produces the same image for the same layout
 * (padding bytes as zeros), so a block written by one is read by any other. Measurements:
 * {@code docs/copy-engine.md}.
 *
 * <p>{@link #GENERATED} and {@link #WORD_LOOP} use Unsafe memory access: the JDK's {@code jdk.internal.misc.Unsafe}
 * where {@code java.base} exports that package to Blit ({@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED},
 * or {@code Add-Exports} in the manifest of a jar started with {@code -jar}): quiet and available in every mode;
 * otherwise {@code sun.misc.Unsafe}, which prints the JDK's one-time warning unless
 * {@code --sun-misc-unsafe-memory-access=allow}. On a JVM started with {@code --sun-misc-unsafe-memory-access=deny}
 * and without the export asking for them throws {@link UnsupportedOperationException}, and
 * {@link BlockCopier#of(Class)} picks {@link #GENERATED_FFM}, which uses none.
 */
public enum CopyEngine {
    /**
     * The default: per-class code generated with {@code java.lang.classfile} into a hidden class, one
     * straight-line access per field (zeros for padding): plain {@code getfield}/{@code putfield} when
     * Blit may define a nestmate of the class (both on the class path), constant method handles
     * otherwise. A segment confined to the calling thread is checked once and then addressed directly
     * (through Unsafe, see above); any other segment through the checked {@code MemorySegment}
     * accessors. Needs private access to the class: its package must be open to {@code io.blit.core}
     * (always so on the class path; in a named module, {@code opens com.acme.messages to io.blit.core}).
     * Needs Unsafe memory access (the internal class exported, or {@code sun.misc.Unsafe} not denied).
     */
    GENERATED,

    /**
     * The same generated per-class field code as {@link #GENERATED}, with every segment access, on every
     * kind of segment, through the checked {@code MemorySegment} accessors: no Unsafe
     * anywhere (also the verifier's offsets come from its layout model then, when Unsafe memory access is
     * unavailable). The default when Unsafe memory access is denied and the internal class not exported; selectable anywhere, e.g. to keep Unsafe out of a process. Slower than
     * {@link #GENERATED} only on segments confined to the calling thread, where that engine checks once
     * instead of per access. Needs private access to the class, as {@link #GENERATED}.
     */
    GENERATED_FFM,

    /**
     * A loop of 8-byte words (then 4, 2, 1) read from or written to the object with
     * {@code sun.misc.Unsafe} at the verified offsets. Works for every trivially copyable class, whatever
     * its module says. On segments confined to the calling thread it runs close to {@link #GENERATED};
     * on shared, global, automatic and heap segments, where every access is checked, about four times
     * slower. Used when {@link #GENERATED} cannot get access to the class. Needs Unsafe memory access, as
     * {@link #GENERATED}.
     */
    WORD_LOOP;

    /**
     * {@return which {@code Unsafe} the Unsafe engines use in this JVM: {@code "jdk.internal.misc.Unsafe"} (the
     * package exported to Blit: quiet in every mode), {@code "sun.misc.Unsafe"}, or {@code "none"} (that one denied
     * and the internal one not exported: only {@link #GENERATED_FFM} is available)} Decided once per JVM; for
     * diagnostics and benchmarks.
     */
    public static String unsafeAccess() {
        return UnsafeAccess.backend();
    }
}
