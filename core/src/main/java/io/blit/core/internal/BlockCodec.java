package io.blit.core.internal;

import java.lang.foreign.MemorySegment;

/**
 * Moves the field block of objects of one class between the object and a segment. Implementations
 * check nothing about their arguments: callers pass a non-null object of the exact class and a slot
 * {@code [offset, offset + length)} already checked to lie inside the segment. Segment accesses go
 * through the {@link MemorySegment} API, whose read-only, liveness and confinement checks therefore
 * apply to every access (the first access throws before anything is written).
 */
public interface BlockCodec {
    /** Writes the block of {@code object} to {@code target} at {@code offset}. */
    void write(Object object, MemorySegment target, long offset);

    /** Overwrites the fields of {@code object} with the block at {@code offset} of {@code source}. */
    void read(MemorySegment source, long offset, Object object);

    /**
     * Writes the block of {@code object} to native memory at {@code address}. The caller has checked
     * that {@code [address, address + length)} lies in a live segment that no other thread can close
     * during the call.
     */
    void writeRaw(Object object, long address);

    /** Overwrites the fields of {@code object} from native memory at {@code address}, checked as for {@link #writeRaw}. */
    void readRaw(long address, Object object);
}
