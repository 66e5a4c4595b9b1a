package io.blit.core.internal;

import java.lang.foreign.MemorySegment;

/** The {@link BlockEngine} word loop as a {@link BlockCodec} for one block. */
public record WordLoopCodec(long start, int length) implements BlockCodec {
    @Override
    public void write(Object object, MemorySegment target, long offset) {
        BlockEngine.objectToSegment(object, start, length, target, offset);
    }

    @Override
    public void read(MemorySegment source, long offset, Object object) {
        BlockEngine.segmentToObject(source, offset, object, start, length);
    }

    @Override
    public void writeRaw(Object object, long address) {
        BlockEngine.objectToAddress(object, start, length, address);
    }

    @Override
    public void readRaw(long address, Object object) {
        BlockEngine.addressToObject(address, object, start, length);
    }
}
