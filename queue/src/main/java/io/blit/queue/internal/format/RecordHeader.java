package io.blit.queue.internal.format;

import io.blit.queue.internal.writer.WriterLiveness;
import io.blit.queue.internal.writer.WriterRegistry;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The 64-bit header word that starts every record of a segment file, and the atomic accesses to it. The diagram below
 * is this class's descriptor; the specification of the word, with the file around it, is {@code docs/format.md}
 * ("Records").
 *
 * <pre>
 *  63 62 61 60      54 53             32 31                              0
 * +-----+--+----------+-----------------+---------------------------------+
 * |state|P | type (7) | claimer (22)     |     payload length (32)         |
 * +-----+--+----------+-----------------+---------------------------------+
 * state: 00 empty (the whole word is 0)  01 CLAIMED  10 COMMITTED  11 ABANDONED
 * P:     padding — the rest of the file is unused; continue in the next file
 * type:  the record's slot in its file's type table (formats 2 and 3); 0 in a file of one type
 * claimer: format 3: the claimer's writer id ({@link WriterRegistry}); formats 1 and 2: its pid mod 2^22
 * length: the bytes of the record's body after the word; in format 2 the body is
 *         the record's time (u64 epoch ns, native order), then the payload
 * next record at: position + align8(8 + length)
 * </pre>
 *
 * <p><b>Time.</b> In formats 2 and 3 every message record's body starts with the time its appender read from the queue's
 * clock before the claim ({@link #TIME_LENGTH} bytes, written before the commit like the payload); the length field
 * counts it, so a walk over the records is the same in both formats. Padding words and records abandoned at a file's
 * end have no body.
 *
 * <p><b>Type and claimer.</b> Format 1 had a 29-bit pid and no type; format 2 gives the top 7 of those bits to the
 * type slot and keeps the pid modulo 2^22. Format 3 stores the claimer's <em>writer id</em> there instead: the id it
 * holds in the queue directory's {@link WriterRegistry}, alive exactly while its process lives, whatever its pid
 * namespace and however pids are reused. Which meaning a word has is its file's format version
 * ({@link WriterLiveness}). A reader of a format-1 file (one type) ignores the type bits.
 *
 * <p><b>Checksum.</b> In format 5 a message record's body is its time, a CRC32C ({@link #CHECKSUM_OFFSET}), a reserved
 * u32 and the payload ({@link #CHECKSUMMED_PAYLOAD_OFFSET}); the length field counts all four. The CRC covers the word
 * as committed, the time, the reserved u32 and the payload: every bit of the record but the CRC itself
 * ({@code io.blit.queue.internal.record.RecordChecksum}).
 *
 * <p>A payload is at most {@link #MAX_PAYLOAD} (2^31 - 1) bytes: {@link #length} is an {@code int}, and readers refuse a
 * word whose length field reads negative as corrupt. Only the empty word has state 00.
 *
 * <p>The word is in native byte order (compare-and-set on a segment needs it) and must be 8-byte
 * aligned in absolute address: segment files are mapped from offset 0 (page-aligned) and every record
 * position is a multiple of 8, so this holds. Memory ordering: {@link #compareAndExchange} claims
 * (volatile), {@link #storeRelease} publishes a payload written with plain stores before it, and
 * {@link #loadAcquire} pairs with that release so a reader seeing COMMITTED sees the whole payload.
 *
 * <p>Static helpers only; stateless and thread-safe.
 */
public final class RecordHeader {
    /** Bytes of the header word; the body (format 2: time, then payload; format 1: payload) starts right after it. */
    public static final int LENGTH = 8;
    /** Bytes of a record's time in format 2, the first of its body. */
    public static final int TIME_LENGTH = 8;
    /**
     * Format 5 (record checksums): offset from the header word of a COMMITTED message record's CRC32C, a u32 LE, right
     * after its time; a reserved u32 (0) follows it, then the payload at {@link #CHECKSUMMED_PAYLOAD_OFFSET}.
     */
    public static final int CHECKSUM_OFFSET = LENGTH + TIME_LENGTH;
    /** Format 5: offset from the header word of the reserved u32 after the checksum (written 0, covered by the CRC). */
    public static final int RESERVED_OFFSET = CHECKSUM_OFFSET + 4;
    /** Format 5: offset from the header word of the payload; a multiple of 8, so payloads stay 8-byte aligned. */
    public static final int CHECKSUMMED_PAYLOAD_OFFSET = RESERVED_OFFSET + 4;
    public static final int STATE_SHIFT = 62;
    public static final long STATE_EMPTY = 0L;
    public static final long STATE_CLAIMED = 1L;
    public static final long STATE_COMMITTED = 2L;
    public static final long STATE_ABANDONED = 3L;
    public static final long PADDING_BIT = 1L << 61;
    public static final int WRITER_SHIFT = 32;
    /** The claimer field's 22 bits: a writer id (format 3) or a pid modulo 2^22 (formats 1 and 2). */
    public static final long WRITER_MASK = (1L << 22) - 1;
    /** The claimer field of a format-1 word: bits 32-60, the claimer's pid modulo 2^29 (no type field). */
    public static final long FORMAT1_PID_MASK = (1L << 29) - 1;
    public static final int TYPE_SHIFT = 54;
    public static final long TYPE_MASK = (1L << 7) - 1;
    /** How many types one file's type table holds: the type field's 7 bits. */
    public static final int MAX_TYPES = (int) TYPE_MASK + 1;
    public static final long LENGTH_MASK = 0xFFFF_FFFFL;
    /** The longest payload a record holds, {@code Integer.MAX_VALUE} bytes (see the class comment). */
    public static final long MAX_PAYLOAD = Integer.MAX_VALUE;

    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private RecordHeader() {
    }

    /** The CLAIMED word of a record of {@code length} payload bytes claimed by writer {@code writer}. */
    public static long claimed(long writer, int length) {
        return claimed(writer, 0, length);
    }

    /**
     * The CLAIMED word of a record of type slot {@code slot} (0 to 127) and {@code length} payload bytes claimed by
     * writer {@code writer}.
     */
    public static long claimed(long writer, int slot, int length) {
        return (STATE_CLAIMED << STATE_SHIFT) | ((slot & TYPE_MASK) << TYPE_SHIFT) | claimerBits(writer)
                | (length & LENGTH_MASK);
    }

    /** The claimer field of a word for writer {@code writer}, in place: OR it into a word whose field is 0. */
    public static long claimerBits(long writer) {
        return (writer & WRITER_MASK) << WRITER_SHIFT;
    }

    /** The record's slot in its file's type table (0 to 127). */
    public static int typeSlot(long word) {
        return (int) ((word >>> TYPE_SHIFT) & TYPE_MASK);
    }

    /** The COMMITTED form of a CLAIMED word (same claimer and length). */
    public static long committed(long claimedWord) {
        return (claimedWord & ~(3L << STATE_SHIFT)) | (STATE_COMMITTED << STATE_SHIFT);
    }

    /** The ABANDONED form of a CLAIMED word (same claimer and length). */
    public static long abandoned(long claimedWord) {
        return claimedWord | (STATE_ABANDONED << STATE_SHIFT);
    }

    /** A committed padding word: the rest of the file holds no record. */
    public static long padding(long writer) {
        return (STATE_COMMITTED << STATE_SHIFT) | PADDING_BIT | claimerBits(writer);
    }

    public static long state(long word) {
        return word >>> STATE_SHIFT;
    }

    /**
     * Whether the record of {@code word} is final: COMMITTED or ABANDONED (no claimer will change it again). A padding
     * word is COMMITTED, so final too; callers that treat padding apart test {@link #isPadding} first.
     */
    public static boolean isFinal(long word) {
        long state = state(word);
        return state == STATE_COMMITTED || state == STATE_ABANDONED;
    }

    public static boolean isPadding(long word) {
        return (word & PADDING_BIT) != 0;
    }

    /** The claimer field of a word of format 2 or later: a writer id from format 3 on, a pid mod 2^22 in format 2. */
    public static long claimer(long word) {
        return (word >>> WRITER_SHIFT) & WRITER_MASK;
    }

    /**
     * The claimer field of {@code word} in a file of format {@code version}: bits 32-53 from format 2 on (see
     * {@link #claimer(long)}); in format 1, which had no type field, bits 32-60, the claimer's pid modulo 2^29 (what
     * the format-1 writer stored).
     */
    public static long claimer(long word, int version) {
        return version == 1 ? (word >>> WRITER_SHIFT) & FORMAT1_PID_MASK : claimer(word);
    }

    /** The payload length field as an {@code int}: negative if it exceeds {@link #MAX_PAYLOAD} (a corrupt word). */
    public static int length(long word) {
        return (int) (word & LENGTH_MASK);
    }

    /** The payload length field read unsigned, 0 to 2^32 - 1: for checks of words that may be corrupt. */
    public static long unsignedLength(long word) {
        return word & LENGTH_MASK;
    }

    /** Bytes a record of {@code payloadLength} occupies: header plus payload, rounded up to 8. */
    public static long recordLength(long payloadLength) {
        return (LENGTH + payloadLength + 7) & ~7L;
    }

    /** Bytes a message record of {@code payloadLength} occupies in a format-2 file: header, time and payload, rounded up. */
    public static long messageRecordLength(long payloadLength) {
        return recordLength(TIME_LENGTH + payloadLength);
    }

    /** Acquire load of the word at {@code position}; pairs with {@link #storeRelease}. */
    public static long loadAcquire(MemorySegment segment, long position) {
        return (long) WORD.getAcquire(segment, position);
    }

    /** Release store: every plain write before it (the payload) is visible to an acquiring reader. */
    public static void storeRelease(MemorySegment segment, long position, long word) {
        WORD.setRelease(segment, position, word);
    }

    /**
     * Volatile compare-and-exchange; returns the witness (equal to {@code expected} on success).
     *
     * <p>A plain load of the word, whose value is not used, comes first. Why: when the file has been truncated under
     * the mapping, HotSpot turns the fault of a load into an {@link InternalError}, but an interpreted VarHandle CAS
     * faults inside the VM and crashes it (hs_err in {@code Unsafe_CompareAndExchangeLong}, measured on JDK 25:
     * docs/queue-design.md). The interpreter executes the load, so a truncation that happened before it is reported
     * and the CAS never runs; only a truncation between the load and the CAS, in a caller still interpreted, is left.
     * C2 drops the unused load, and its compiled CAS is safe by itself (a fault in compiled code is deferred like a
     * load's). The load's value is deliberately unused: an acquire load whose value decides whether to CAS costs
     * a claim measurably more in the throughput harness, a plain unused load nothing (docs/queue-performance.md).
     */
    public static long compareAndExchange(MemorySegment segment, long position, long expected, long word) {
        segment.get(ValueLayout.JAVA_LONG, position); // for the interpreter only: see above
        return (long) WORD.compareAndExchange(segment, position, expected, word);
    }

    /** A one-line rendering for messages: {@code COMMITTED type=0 claimer=123 length=144}. */
    public static String describe(long word) {
        String[] states = {"EMPTY", "CLAIMED", "COMMITTED", "ABANDONED"};
        return states[(int) state(word)] + (isPadding(word) ? " PADDING" : "") + " type=" + typeSlot(word)
                + " claimer=" + claimer(word)
                + " length=" + length(word);
    }
}
