package io.blit.queue.internal.format;

/**
 * The segment file's fixed facts: format versions, the offsets of the file header's fields, the areas of a file
 * (header, checkpoints, records), and the limits a valid header states. The bytes are specified in
 * {@code docs/format.md} ("Segment files", "File header", "Checkpoints"); the header's encoding and validation are
 * {@code io.blit.queue.internal.segment.SegmentHeader}. Constants only; the API's value types
 * ({@code QueueOptions}, {@code MessageTypes}) check their limits against these same values.
 */
public final class SegmentFormat {
    /**
     * The format version appenders write without record checksums; formats 1 to 3 and {@link #CHECKSUM_FORMAT} are
     * read too (see the class comment).
     */
    public static final int FORMAT_VERSION = 4;
    /**
     * The format version appenders write with record checksums ({@code QueueOptions.recordChecksums}): format 4's
     * header, and every COMMITTED message record's body holds a CRC32C of the whole record ({@link RecordHeader}).
     */
    public static final int CHECKSUM_FORMAT = 5;
    /** The newest format version this build reads (and writes, with record checksums). */
    public static final int NEWEST_FORMAT = CHECKSUM_FORMAT;
    /** The first format that records its byte order and feature masks. */
    public static final int FEATURES_FORMAT = 4;
    /** The largest type id a file records (u16, as SBE's template ids). */
    public static final int MAX_TYPE_ID = 0xFFFF;
    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 8;
    public static final int HEADER_LENGTH_OFFSET = 12;
    public static final int SEGMENT_SIZE_OFFSET = 16;
    public static final int FIRST_INDEX_OFFSET = 24;
    public static final int CREATED_OFFSET = 32;
    public static final int PID_OFFSET = 40;
    public static final int DESCRIPTOR_LENGTH_OFFSET = 48;
    /** Format 2: the number of types (at the place of format 1's descriptor length), then the table's length. */
    public static final int TYPE_COUNT_OFFSET = 48;
    public static final int TYPE_TABLE_LENGTH_OFFSET = 52;
    /** Formats 1 to 3: where the descriptor (format 1) or type table (formats 2, 3) starts. */
    public static final int DESCRIPTOR_OFFSET = 56;
    /** Format 4: the byte order code of the file's native-order words ({@link FileFeatures}), u32. */
    public static final int BYTE_ORDER_OFFSET = 56;
    /**
     * Format 4: the term the file was created in, u32, when compatible feature {@link FileFeatures#FILE_TERM} is set;
     * else reserved (0). A file without the bit reads as term 0 ({@code SegmentHeader.termOf}).
     */
    public static final int TERM_OFFSET = 60;
    /** The largest term a file header records (u32). */
    public static final long MAX_FILE_TERM = 0xFFFF_FFFFL;
    /** Format 4: compatible feature bits, u64 ({@link FileFeatures}). */
    public static final int COMPATIBLE_OFFSET = 64;
    /** Format 4: incompatible feature bits, u64 ({@link FileFeatures}). */
    public static final int INCOMPATIBLE_OFFSET = 72;
    /** Format 4: where the type table starts. */
    public static final int TABLE_OFFSET = 80;
    /** Bytes of the header area; the header and its CRC must fit in it. */
    public static final int HEADER_AREA = 4096;
    /** Offset of the first record in every segment file. */
    public static final long RECORDS_START = 8192;
    /** The smallest segment size accepted: the header areas plus one page of records. */
    public static final long MIN_SEGMENT_SIZE = RECORDS_START + 4096;
    /**
     * The largest segment size accepted, 4 GiB: every record position in such a file is below 2^32, so each fits the
     * u32 checkpoint slots (the checkpoint slots).
     */
    public static final long MAX_SEGMENT_SIZE = 1L << 32;
    /**
     * The largest first index a file may state: its records (at most one per 8 bytes of a file of
     * {@link #MAX_SEGMENT_SIZE}) then have indices that fit in a {@code long}.
     */
    public static final long MAX_FIRST_INDEX = Long.MAX_VALUE - MAX_SEGMENT_SIZE / RecordHeader.LENGTH;

    /** Where the checkpoint area starts: right after the header area. */
    public static final long CHECKPOINT_AREA_OFFSET = HEADER_AREA;
    /** A checkpoint every 2^12 = 4096 records of a file: slot {@code k} holds the position of ordinal {@code k << 12}. */
    public static final int CHECKPOINT_INTERVAL_SHIFT = 12;
    /** Records between two checkpoints. */
    public static final long CHECKPOINT_INTERVAL = 1L << CHECKPOINT_INTERVAL_SHIFT;
    /** The u32 checkpoint slots of a file: 1024. */
    public static final int CHECKPOINT_SLOTS = (int) ((RECORDS_START - CHECKPOINT_AREA_OFFSET) / Integer.BYTES);

    private SegmentFormat() {
    }

    /** Whether {@code segmentSize} is a valid segment size: a multiple of 4096 in [12 KiB, 4 GiB]. */
    public static boolean isValidSegmentSize(long segmentSize) {
        return segmentSize >= MIN_SEGMENT_SIZE && segmentSize <= MAX_SEGMENT_SIZE && segmentSize % 4096 == 0;
    }
}
