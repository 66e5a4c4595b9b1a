package io.blit.replication;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;

/**
 * The bytes of an Agrona {@link DirectBuffer} (an Aeron fragment or an assembled message) as a {@link MemorySegment}
 * to copy from, without copying them first: a view of the byte array or {@link ByteBuffer} the buffer wraps (cached
 * while the buffer wraps the same one). A buffer that wraps raw memory is copied into a scratch array instead. Not
 * thread-safe; a view is valid until the next call.
 */
final class BufferView {
    private Object backing;
    private MemorySegment backingSegment;
    private byte[] scratch = new byte[4096];
    private MemorySegment scratchSegment = MemorySegment.ofArray(scratch);
    private long offset;

    /** A segment holding the {@code length} bytes of {@code buffer} at {@code index} from {@link #offset()} on. */
    MemorySegment view(DirectBuffer buffer, int index, int length) {
        byte[] array = buffer.byteArray();
        ByteBuffer bytes = buffer.byteBuffer();
        if (array != null) {
            if (array != backing) {
                backing = array;
                backingSegment = MemorySegment.ofArray(array);
            }
            offset = buffer.wrapAdjustment() + (long) index;
            return backingSegment;
        }
        if (bytes != null) {
            if (bytes != backing) {
                backing = bytes;
                backingSegment = MemorySegment.ofBuffer(bytes); // from the buffer's position
            }
            offset = buffer.wrapAdjustment() + (long) index - bytes.position();
            return backingSegment;
        }
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
            scratchSegment = MemorySegment.ofArray(scratch);
        }
        buffer.getBytes(index, scratch, 0, length);
        offset = 0;
        return scratchSegment;
    }

    /** Where the bytes asked for start in the segment {@link #view} returned last. */
    long offset() {
        return offset;
    }
}
