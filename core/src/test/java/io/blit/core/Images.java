package io.blit.core;

import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_CHAR_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;
import static org.junit.jupiter.api.Assertions.fail;

import io.blit.layout.BlockLayout;
import io.blit.layout.FieldSlot;
import io.blit.layout.FieldType;
import java.lang.foreign.MemorySegment;

/**
 * Checks the bytes of a segment without going through the copier: a block image field by field with
 * the matching (native-order, unaligned) value layouts, and a paint pattern around it.
 */
final class Images {
    private Images() {
    }

    /** The raw bits of a value of {@code type} stored at {@code at}, as {@link RandomFields#rawBits} gives them. */
    static long bitsAt(MemorySegment segment, long at, FieldType type) {
        return switch (type) {
            case BOOLEAN -> segment.get(JAVA_BOOLEAN, at) ? 1 : 0;
            case BYTE -> segment.get(JAVA_BYTE, at) & 0xFFL;
            case CHAR -> segment.get(JAVA_CHAR_UNALIGNED, at);
            case SHORT -> segment.get(JAVA_SHORT_UNALIGNED, at) & 0xFFFFL;
            case INT -> segment.get(JAVA_INT_UNALIGNED, at) & 0xFFFF_FFFFL;
            case FLOAT -> Float.floatToRawIntBits(segment.get(JAVA_FLOAT_UNALIGNED, at)) & 0xFFFF_FFFFL;
            case LONG -> segment.get(JAVA_LONG_UNALIGNED, at);
            case DOUBLE -> Double.doubleToRawLongBits(segment.get(JAVA_DOUBLE_UNALIGNED, at));
        };
    }

    /** Fails unless every field of {@code object} is at {@code offset + (field.offset() - layout.start())} of the segment. */
    static void assertImage(MemorySegment segment, long offset, BlockLayout layout, Object object) {
        for (FieldSlot slot : layout.fields()) {
            long at = offset + (slot.offset() - layout.start());
            long want = RandomFields.rawBits(RandomFields.field(object.getClass(), slot.name()), object);
            long got = bitsAt(segment, at, slot.type());
            if (want != got) {
                fail("image of " + slot + " at segment offset " + at + " (block at " + offset + "): expected bits 0x"
                        + Long.toHexString(want) + " but the segment holds 0x" + Long.toHexString(got));
            }
        }
    }

    /** The paint byte of position {@code i}: varies with the position and is never zero. */
    static byte paintAt(long i) {
        return (byte) (((i * 37) + 0x5B) | 0x01);
    }

    /** Fills the segment with the paint pattern. */
    static void paint(MemorySegment segment) {
        for (long i = 0; i < segment.byteSize(); i++) {
            segment.set(JAVA_BYTE, i, paintAt(i));
        }
    }

    /** Fails unless {@code [from, to)} still holds the paint pattern. */
    static void assertPainted(MemorySegment segment, long from, long to, String what) {
        for (long i = from; i < to; i++) {
            byte got = segment.get(JAVA_BYTE, i);
            if (got != paintAt(i)) {
                fail(what + ": byte " + i + " was overwritten (0x" + Integer.toHexString(got & 0xFF) + ")");
            }
        }
    }

    /** Fails unless the whole segment still holds the paint pattern. */
    static void assertPainted(MemorySegment segment, String what) {
        assertPainted(segment, 0, segment.byteSize(), what);
    }
}
