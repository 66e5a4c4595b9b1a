package io.blit.core.internal;

import java.lang.foreign.MemorySegment;

/**
 * A codec that takes its checked (segment API) path from one codec and its by-address path from
 * another: for wide classes, generated code keeps field-exact accesses through the segment API while
 * the by-address copy uses the word loop, which the JIT compiles quickly and well however many fields
 * there are (straight-line code for hundreds of fields defeats C1 and warms up slowly).
 */
public record SplitCodec(BlockCodec checked, BlockCodec byAddress) implements BlockCodec {
    @Override
    public void write(Object object, MemorySegment target, long offset) {
        checked.write(object, target, offset);
    }

    @Override
    public void read(MemorySegment source, long offset, Object object) {
        checked.read(source, offset, object);
    }

    @Override
    public void writeRaw(Object object, long address) {
        byAddress.writeRaw(object, address);
    }

    @Override
    public void readRaw(long address, Object object) {
        byAddress.readRaw(address, object);
    }
}
