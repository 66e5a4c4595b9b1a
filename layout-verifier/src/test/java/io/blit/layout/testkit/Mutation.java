package io.blit.layout.testkit;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * One edit of a valid encoding, for the fuzz properties of every module (docs/fuzzing.md): random bytes rarely get past a magic number
 * or a CRC, so the properties also start from valid bytes and flip a byte, cut them short, extend them, or write an
 * extreme integer over a field. A record, so that jqwik reports (and shrinks) the edits readably.
 *
 * @param kind  what the edit does
 * @param at    where (a byte offset; for {@link Kind#TRUNCATE} the new length)
 * @param value the byte mask, fill byte or integer written
 */
public record Mutation(Kind kind, int at, long value) {
    /** The kinds of edit. Integers are written in {@link #order}, as the formats store them. */
    public enum Kind { FLIP, TRUNCATE, EXTEND, INT16, INT32, INT64 }

    /** Integers that sit on the edges of length, offset and count checks. */
    public static final List<Long> EXTREMES = List.of(0L, 1L, -1L, 7L, 8L, 4095L, 4096L, 65_535L, 65_536L,
            (long) Integer.MAX_VALUE, (long) Integer.MIN_VALUE, 0x8000_0000L, 0xFFFF_FFF8L, 0xFFFF_FFFFL, 1L << 32,
            (1L << 32) + 4096, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 7);

    /** Edits of an encoding of about {@code length} bytes, aimed at {@code fields} (offsets of its integers) half the time. */
    public static Arbitrary<Mutation> of(int length, int... fields) {
        Arbitrary<Integer> anywhere = Arbitraries.integers().between(0, Math.max(0, length + 8));
        Arbitrary<Integer> at = fields.length == 0 ? anywhere
                : Arbitraries.oneOf(anywhere, Arbitraries.of(Arrays.stream(fields).boxed().toList()));
        Arbitrary<Long> value = Arbitraries.oneOf(Arbitraries.of(EXTREMES), Arbitraries.longs(),
                Arbitraries.longs().between(-16, 1 << 16));
        return Combinators.combine(Arbitraries.of(Kind.class), at, value).as(Mutation::new);
    }

    /** A copy of {@code bytes} with this edit ({@link ByteOrder#LITTLE_ENDIAN} integers); edits past the end extend it. */
    public byte[] apply(byte[] bytes) {
        return apply(bytes, ByteOrder.LITTLE_ENDIAN);
    }

    /** A copy of {@code bytes} with this edit, integers in {@code order}. */
    public byte[] apply(byte[] bytes, ByteOrder order) {
        return switch (kind) {
            case FLIP -> {
                byte[] out = Arrays.copyOf(bytes, Math.max(bytes.length, at + 1));
                out[at] ^= (byte) (value == 0 ? 1 : value);
                yield out;
            }
            case TRUNCATE -> Arrays.copyOf(bytes, Math.min(bytes.length, at));
            case EXTEND -> {
                byte[] out = Arrays.copyOf(bytes, bytes.length + 1 + (at & 0xFFF));
                Arrays.fill(out, bytes.length, out.length, (byte) value);
                yield out;
            }
            case INT16 -> put(bytes, order, 2);
            case INT32 -> put(bytes, order, 4);
            case INT64 -> put(bytes, order, 8);
        };
    }

    private byte[] put(byte[] bytes, ByteOrder order, int size) {
        byte[] out = Arrays.copyOf(bytes, Math.max(bytes.length, at + size));
        ByteBuffer buffer = ByteBuffer.wrap(out).order(order);
        switch (size) {
            case 2 -> buffer.putShort(at, (short) value);
            case 4 -> buffer.putInt(at, (int) value);
            default -> buffer.putLong(at, value);
        }
        return out;
    }

    /** Applies every edit in turn. */
    public static byte[] applyAll(List<Mutation> edits, byte[] bytes, ByteOrder order) {
        byte[] out = bytes;
        for (Mutation edit : edits) {
            out = edit.apply(out, order);
        }
        return out;
    }

    /** Bytes allocated on the heap by this thread so far (for "no allocation from a length field" assertions). */
    public static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
