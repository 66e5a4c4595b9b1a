package io.blit.core;

import io.blit.layout.BlockLayout;
import io.blit.layout.NotTriviallyCopyableException;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.UndeclaredThrowableException;

/**
 * Base class of objects whose whole field block is copied to and from memory in one sweep.
 *
 * <pre>{@code
 * public final class MarketData extends TriviallyCopyable {
 *     long securityId, time;
 *     double bidPrice0, askPrice0;   // ... primitives only
 * }
 * md.writeTo(segment, offset);       // md.byteSize() bytes
 * copy.readFrom(segment, offset);
 * }</pre>
 *
 * <p>A subclass needs no code of its own. It must be trivially copyable (only non-final primitive
 * instance fields in the whole hierarchy, see {@link io.blit.layout.LayoutVerifier}); this is checked
 * once, on the first call of any method here for that class, and every call on a class that fails
 * throws {@link NotTriviallyCopyableException} with the verifier's message. The base class itself has
 * no fields, so it adds nothing to the block.
 *
 * <p>Bounds, liveness, confinement, read-only and thread-safety rules are those of
 * {@link BlockCopier}: a call that cannot complete throws before anything is copied. An instance is
 * not safe for concurrent use by several threads without the caller's own synchronisation, like any
 * mutable object.
 */
public abstract class TriviallyCopyable {
    /** The per-call class lookup, faster than ClassValue alone (see CopierCache). */
    private static final CopierCache COPIERS = new CopierCache();
    /** COPIERS as a constant call site the JIT inlines (and folds, for a class it knows exactly). */
    private static final MethodHandle PATH_OF = COPIERS.invoker();

    /** For subclasses. */
    protected TriviallyCopyable() {
    }

    /**
     * Bytes this object occupies in a segment: the length of its class's field block.
     *
     * @return the length of the field block in bytes
     * @throws NotTriviallyCopyableException if this class is not trivially copyable
     */
    public final long byteSize() {
        return path().length(); // a constant where the call site folds
    }

    /**
     * This class's block layout in the running JVM.
     *
     * @return the layout, measured once per class
     * @throws NotTriviallyCopyableException if this class is not trivially copyable
     */
    public final BlockLayout layout() {
        return path().copier().layout();
    }

    /**
     * Writes this object's field block to {@code segment} at {@code offset}.
     *
     * @param segment the segment to write to
     * @param offset  the byte offset in the segment where the block starts
     * @throws NullPointerException          if {@code segment} is null
     * @throws IndexOutOfBoundsException     if {@code [offset, offset + byteSize())} is not inside the segment
     * @throws IllegalStateException         if the segment's arena is closed
     * @throws WrongThreadException          if the segment is confined to another thread
     * @throws IllegalArgumentException      if the segment is read-only (the FFM API's exception for that)
     * @throws NotTriviallyCopyableException if this class is not trivially copyable
     */
    public final void writeTo(MemorySegment segment, long offset) {
        path().write(this, segment, offset);
    }

    /**
     * Overwrites every field of this object with the block at {@code offset} of {@code segment}.
     *
     * @param segment the segment to read from
     * @param offset  the byte offset in the segment where the block starts
     * @throws NullPointerException          if {@code segment} is null
     * @throws IndexOutOfBoundsException     if {@code [offset, offset + byteSize())} is not inside the segment
     * @throws IllegalStateException         if the segment's arena is closed
     * @throws WrongThreadException          if the segment is confined to another thread
     * @throws NotTriviallyCopyableException if this class is not trivially copyable
     */
    public final void readFrom(MemorySegment segment, long offset) {
        path().read(segment, offset, this);
    }

    private CopyPath path() {
        try {
            return (CopyPath) PATH_OF.invokeExact(getClass());
        } catch (RuntimeException | Error e) {
            throw e; // NotTriviallyCopyableException among them, unwrapped
        } catch (Throwable e) {
            throw new UndeclaredThrowableException(e); // no checked exception is thrown on this path
        }
    }
}
