package io.blit.core.internal;

import java.lang.foreign.MemorySegment;

/**
 * Reads a block written under another layout straight into the fields of an object of the reader's
 * class, each field from its writer offset. Like {@link BlockCodec}, implementations check nothing
 * about their arguments: callers pass a non-null object of the exact class and a slot of the
 * <em>writer's</em> block length already checked to lie inside the segment.
 */
public interface BlockTranslator {
    /**
     * Overwrites the fields of {@code object} from the writer's block at {@code offset} of
     * {@code source}, through the {@link MemorySegment} accessors (whose read, liveness and
     * confinement checks apply to every access; the first throws before any field is written).
     */
    void read(MemorySegment source, long offset, Object object);

    /**
     * Overwrites the fields of {@code object} from the writer's block in native memory at
     * {@code address}. The caller has checked that the block lies in a live segment that no other
     * thread can close during the call.
     */
    void readRaw(long address, Object object);
}
