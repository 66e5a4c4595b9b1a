package io.blit.replication.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * BATCH, source to replica: the stream's next events, as entries of at most the source's batch size, each 8-aligned.
 * The records of a RUN are exactly as the source's file stores them (header words, payloads, alignment), so the
 * replica writes them with one copy; the queue's {@code ReplicaWriter} checks every header word of a run before it
 * writes a byte. A record too long for the room left in a batch goes as PARTs, in order, each the next slice of the
 * record as stored, one per batch after the first: every part is sealed (and encrypted) as its batch is, and the
 * replica writes each straight into its file behind the record's still-empty header word, which it stores when the
 * last part arrives. So a record of any length the queue allows crosses in messages of at most a batch.
 *
 * <pre>
 * 0    | type u32 = 6 | entry count u32 (N, at least 1)     |
 * 8    | sequence u64                                      |
 * 16   | N entries:                                        |
 *        FILE   | kind u32 = 1 | header length u32 (H, 1..4096) | a segment file's header (H) | zeros to 8 |
 *        RECORD | kind u32 = 2 | zero u32 | index u64 | header word u64 |   (the padding word that ends a file)
 *        RUN    | kind u32 = 3 | record count u32 (at least 1) | first index u64 | file position u64 |
 *               | length u64 (L: a multiple of 8, at least 8) | the records as stored (L) |
 *        PART   | kind u32 = 4 | zero u32 | index u64 | file position u64 | record length u64 (L: a multiple of 8,
 *               | at least 16) | part offset u64 (O: a multiple of 8) | part length u64 (P: a multiple of 8, at
 *               | least 8, O + P at most L) | bytes [O, O + P) of the record as stored (P) |
 * L-16 | tag (16); when the session is encrypted, bytes [16, L-16) are AES-GCM ciphertext |
 * </pre>
 *
 * {@link #check} validates every entry's kind, lengths, counts and bounds against the message's length before the
 * replica reads any entry.
 */
public final class Batch {
    public static final int ENTRY_FILE = 1;
    public static final int ENTRY_RECORD = 2;
    public static final int ENTRY_RUN = 3;
    public static final int ENTRY_PART = 4;
    public static final int FILE_BYTES = 8;
    public static final int RECORD_LENGTH = 24;
    public static final int RUN_BYTES = 32;
    public static final int PART_BYTES = 48;
    public static final int MAX_FILE_HEADER = 4096;
    static final int INDEX_AT = 8;
    static final int WORD_AT = 16;
    static final int POSITION_AT = 16;
    static final int RUN_LENGTH_AT = 24;
    static final int PART_OFFSET_AT = 32;
    static final int PART_LENGTH_AT = 40;

    private Batch() {
    }

    /** Starts a batch of sequence {@code sequence}; entries follow from {@link Session#BODY_AT}. */
    public static void start(MutableDirectBuffer buffer, long sequence) {
        Session.head(buffer, Wire.BATCH, 0, sequence);
    }

    /** Sets the entry count of a batch being written. */
    public static void count(MutableDirectBuffer buffer, int count) {
        buffer.putInt(Session.AUX_AT, count, Wire.ORDER);
    }

    /** Bytes a FILE entry of a header of {@code length} bytes takes. */
    public static int fileEntryLength(int length) {
        return FILE_BYTES + Wire.align8(length);
    }

    public static void putFile(MutableDirectBuffer buffer, int at, byte[] header) {
        buffer.putInt(at, ENTRY_FILE, Wire.ORDER);
        buffer.putInt(at + 4, header.length, Wire.ORDER);
        buffer.putBytes(at + FILE_BYTES, header);
        buffer.setMemory(at + FILE_BYTES + header.length, Wire.align8(header.length) - header.length, (byte) 0);
    }

    public static void putRecord(MutableDirectBuffer buffer, int at, long index, long word) {
        buffer.putInt(at, ENTRY_RECORD, Wire.ORDER);
        buffer.putInt(at + 4, 0, Wire.ORDER);
        buffer.putLong(at + INDEX_AT, index, Wire.ORDER);
        buffer.putLong(at + WORD_AT, word, Wire.ORDER);
    }

    /** Writes a RUN entry's head; its {@code length} record bytes follow at {@code at + RUN_BYTES}. */
    public static void putRunHead(MutableDirectBuffer buffer, int at, int count, long index, long position, long length) {
        buffer.putInt(at, ENTRY_RUN, Wire.ORDER);
        buffer.putInt(at + 4, count, Wire.ORDER);
        buffer.putLong(at + INDEX_AT, index, Wire.ORDER);
        buffer.putLong(at + POSITION_AT, position, Wire.ORDER);
        buffer.putLong(at + RUN_LENGTH_AT, length, Wire.ORDER);
    }

    /**
     * Writes a PART entry's head; its {@code partLength} bytes (the record's bytes as stored from {@code partOffset})
     * follow at {@code at + PART_BYTES}.
     */
    public static void putPartHead(MutableDirectBuffer buffer, int at, long index, long position, long recordLength,
                                   long partOffset, int partLength) {
        buffer.putInt(at, ENTRY_PART, Wire.ORDER);
        buffer.putInt(at + 4, 0, Wire.ORDER);
        buffer.putLong(at + INDEX_AT, index, Wire.ORDER);
        buffer.putLong(at + POSITION_AT, position, Wire.ORDER);
        buffer.putLong(at + RUN_LENGTH_AT, recordLength, Wire.ORDER);
        buffer.putLong(at + PART_OFFSET_AT, partOffset, Wire.ORDER);
        buffer.putLong(at + PART_LENGTH_AT, partLength, Wire.ORDER);
    }

    /**
     * Null if the (opened) batch of {@code length} bytes at offset 0 is well formed — its entry count matches
     * entries that end exactly at its tag, each of a known kind with lengths and indices in range — else why not.
     * Allocates nothing.
     */
    public static String check(DirectBuffer buffer, int length) {
        if (length < Session.MIN_LENGTH + FILE_BYTES || length > Wire.MAX_MESSAGE) {
            return "a batch of a wrong length";
        }
        int count = Session.aux(buffer);
        int end = length - Sealer.TAG;
        int at = Session.BODY_AT;
        for (int i = 0; i < count; i++) {
            long entryEnd = entryEnd(buffer, at, end);
            if (entryEnd < 0) {
                return "a batch entry that is malformed or ends past the batch";
            }
            at = (int) entryEnd;
        }
        return count < 1 || at != end ? "a batch whose entry count does not match its entries" : null;
    }

    /** The end of the entry at {@code at}, or -1 if it is malformed or does not end by {@code end}. */
    private static long entryEnd(DirectBuffer buffer, int at, int end) {
        if (at + FILE_BYTES > end) {
            return -1;
        }
        int kind = buffer.getInt(at, Wire.ORDER);
        int size = buffer.getInt(at + 4, Wire.ORDER);
        long entryEnd;
        switch (kind) {
            case ENTRY_FILE -> {
                if (size < 1 || size > MAX_FILE_HEADER) {
                    return -1;
                }
                entryEnd = (long) at + fileEntryLength(size);
            }
            case ENTRY_RECORD -> {
                if (size != 0 || at + RECORD_LENGTH > end || buffer.getLong(at + INDEX_AT, Wire.ORDER) < 0) {
                    return -1;
                }
                entryEnd = at + RECORD_LENGTH;
            }
            case ENTRY_RUN -> {
                if (size < 1 || at + RUN_BYTES > end) {
                    return -1;
                }
                long runLength = buffer.getLong(at + RUN_LENGTH_AT, Wire.ORDER);
                if (runLength < 8 || (runLength & 7) != 0 || runLength > end - at - RUN_BYTES
                        || buffer.getLong(at + INDEX_AT, Wire.ORDER) < 0 || buffer.getLong(at + POSITION_AT, Wire.ORDER) < 0) {
                    return -1;
                }
                entryEnd = at + RUN_BYTES + runLength;
            }
            case ENTRY_PART -> {
                if (size != 0 || at + PART_BYTES > end) {
                    return -1;
                }
                long recordLength = buffer.getLong(at + RUN_LENGTH_AT, Wire.ORDER);
                long partOffset = buffer.getLong(at + PART_OFFSET_AT, Wire.ORDER);
                long partLength = buffer.getLong(at + PART_LENGTH_AT, Wire.ORDER);
                if (recordLength < 16 || partOffset < 0 || partLength < 8
                        || ((recordLength | partOffset | partLength) & 7) != 0
                        || partLength > end - at - PART_BYTES || partOffset > recordLength - partLength
                        || buffer.getLong(at + INDEX_AT, Wire.ORDER) < 0 || buffer.getLong(at + POSITION_AT, Wire.ORDER) < 0) {
                    return -1;
                }
                entryEnd = at + PART_BYTES + partLength;
            }
            default -> {
                return -1;
            }
        }
        return entryEnd > end ? -1 : entryEnd;
    }

    /** The end of an entry of a {@link #check checked} batch. */
    public static int next(DirectBuffer buffer, int at) {
        return switch (kind(buffer, at)) {
            case ENTRY_FILE -> at + fileEntryLength(buffer.getInt(at + 4, Wire.ORDER));
            case ENTRY_RECORD -> at + RECORD_LENGTH;
            case ENTRY_PART -> (int) (at + PART_BYTES + partLength(buffer, at));
            default -> (int) (at + RUN_BYTES + runLength(buffer, at));
        };
    }

    public static int kind(DirectBuffer buffer, int at) {
        return buffer.getInt(at, Wire.ORDER);
    }

    /** A FILE entry's header bytes. */
    public static byte[] fileHeader(DirectBuffer buffer, int at) {
        byte[] header = new byte[buffer.getInt(at + 4, Wire.ORDER)];
        buffer.getBytes(at + FILE_BYTES, header);
        return header;
    }

    /** A RECORD, RUN or PART entry's (first) index. */
    public static long index(DirectBuffer buffer, int at) {
        return buffer.getLong(at + INDEX_AT, Wire.ORDER);
    }

    public static long recordWord(DirectBuffer buffer, int at) {
        return buffer.getLong(at + WORD_AT, Wire.ORDER);
    }

    public static int runCount(DirectBuffer buffer, int at) {
        return buffer.getInt(at + 4, Wire.ORDER);
    }

    /** A RUN's or PART's file position (of the first header word). */
    public static long runPosition(DirectBuffer buffer, int at) {
        return buffer.getLong(at + POSITION_AT, Wire.ORDER);
    }

    public static long runLength(DirectBuffer buffer, int at) {
        return buffer.getLong(at + RUN_LENGTH_AT, Wire.ORDER);
    }

    /** A PART's record length: the whole record's bytes as stored, header word and alignment included. */
    public static long partRecordLength(DirectBuffer buffer, int at) {
        return buffer.getLong(at + RUN_LENGTH_AT, Wire.ORDER);
    }

    public static long partOffset(DirectBuffer buffer, int at) {
        return buffer.getLong(at + PART_OFFSET_AT, Wire.ORDER);
    }

    public static long partLength(DirectBuffer buffer, int at) {
        return buffer.getLong(at + PART_LENGTH_AT, Wire.ORDER);
    }
}
