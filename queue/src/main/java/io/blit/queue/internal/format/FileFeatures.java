package io.blit.queue.internal.format;

import io.blit.queue.internal.format.SegmentFormat;
import java.nio.ByteOrder;

/**
 * The byte order and feature fields that every Blit file with a header carries beside its format version (segment
 * files from format 4, the positions file, {@code writers.blitw}; docs/format.md, "Byte order and features"): their
 * codes, the feature bits this build knows, and the checks a reader makes before it uses a file's native-order words.
 *
 * <p><b>Byte order</b> (u32): the order of the file's native-order words (record header words, checkpoint slots,
 * consumer slot words), which the atomic accesses of their writers store in the writing machine's order.
 * {@value #ORDER_NOT_RECORDED}: not recorded, in files of formats that predate the field, whose words are
 * little-endian by definition; {@value #ORDER_LITTLE_ENDIAN}: little-endian; {@value #ORDER_BIG_ENDIAN}: big-endian.
 * A reader refuses a file whose order is not its own: the words cannot be read atomically in another order.
 *
 * <p><b>Features</b> (two u64 bit masks): a writer sets a <em>compatible</em> feature bit for an addition that a
 * reader not knowing it can ignore (the file reads correctly without it), an <em>incompatible</em> feature bit for a
 * change that such a reader would misread. A reader ignores unknown compatible bits and refuses a file with an unknown
 * incompatible bit, naming it. One compatible bit is defined, {@link #FILE_TERM}; one incompatible bit, of the
 * positions file only (slot reuse, {@code ConsumerFile.SLOT_REUSE}).
 *
 * <p>Stateless; thread-safe. Headers are written once per file, so nothing here is on an append path.
 */
public final class FileFeatures {
    /** Byte order not recorded (formats older than the field): little-endian by definition. */
    public static final int ORDER_NOT_RECORDED = 0;
    public static final int ORDER_LITTLE_ENDIAN = 1;
    public static final int ORDER_BIG_ENDIAN = 2;
    /** The byte order code of this machine, which this build writes. */
    public static final int NATIVE_ORDER = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
            ? ORDER_LITTLE_ENDIAN : ORDER_BIG_ENDIAN;
    /**
     * Compatible feature bit 0 of a segment file (format 4): the header records the term the file was created in, a
     * u32 at {@link SegmentFormat#TERM_OFFSET} (reserved, 0, in a file without the bit: term 0).
     */
    public static final long FILE_TERM = 1L;
    /** The compatible feature bits every header this build writes sets: none ({@link #FILE_TERM} is per file). */
    public static final long COMPATIBLE_WRITTEN = 0;
    /** The incompatible feature bits this build writes: none is defined. */
    public static final long INCOMPATIBLE_WRITTEN = 0;
    /** The incompatible feature bits this build reads: none is defined, so any set bit is refused. */
    public static final long INCOMPATIBLE_KNOWN = 0;

    private FileFeatures() {
    }

    /**
     * {@return why a file whose byte order field holds {@code code} cannot be read on this machine, or null if it can}
     * A code of {@value #ORDER_NOT_RECORDED} stands for little-endian.
     */
    public static String byteOrderProblem(int code) {
        int order = code == ORDER_NOT_RECORDED ? ORDER_LITTLE_ENDIAN : code;
        if (order != ORDER_LITTLE_ENDIAN && order != ORDER_BIG_ENDIAN) {
            return "byte order " + Integer.toUnsignedString(code) + " is not a known code (0: not recorded,"
                    + " little-endian; 1: little-endian; 2: big-endian)";
        }
        if (order != NATIVE_ORDER) {
            return "byte order " + code + " (" + name(order) + "): the file's native-order words are " + name(order)
                    + ", this machine's are " + name(NATIVE_ORDER);
        }
        return null;
    }

    /** {@return why a file with incompatible feature bits {@code bits} cannot be read by this build, or null} */
    public static String incompatibleProblem(long bits) {
        return incompatibleProblem(bits, INCOMPATIBLE_KNOWN);
    }

    /**
     * {@return why a file with incompatible feature bits {@code bits} cannot be read by a reader that knows the bits
     * {@code known} of its kind of file, or null} Incompatible bits are defined per kind of file (the positions file
     * defines bit 0, slot reuse).
     */
    public static String incompatibleProblem(long bits, long known) {
        long unknown = bits & ~known;
        if (unknown == 0) {
            return null;
        }
        StringBuilder names = new StringBuilder();
        for (long rest = unknown; rest != 0; rest &= rest - 1) {
            names.append(names.isEmpty() ? "" : ", ").append(Long.numberOfTrailingZeros(rest));
        }
        return String.format("incompatible features 0x%016x: bit%s %s not known to this reader, which cannot read a"
                + " file that needs %s", bits, Long.bitCount(unknown) == 1 ? "" : "s", names,
                Long.bitCount(unknown) == 1 ? "it" : "them");
    }

    private static String name(int order) {
        return order == ORDER_LITTLE_ENDIAN ? "little-endian" : "big-endian";
    }
}
