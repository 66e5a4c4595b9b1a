package io.blit.queue.internal.segment;

import static io.blit.queue.internal.format.SegmentFormat.*;

import io.blit.layout.CorruptDescriptorException;
import io.blit.layout.LayoutDescriptor;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.format.FileFeatures;
import io.blit.queue.internal.format.SegmentFormat;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The header of a segment file: offsets of its fields, its encoding and its validation. The layout of every format, the
 * checks a reader makes and the committed samples are specified in {@code docs/format.md} ("Segment files").
 *
 * <p><b>Versions.</b> Appenders write format {@value #FORMAT_VERSION}, or {@value SegmentFormat#CHECKSUM_FORMAT} with record
 * checksums (the same header; its records differ); formats 1 to 3 are read too. Formats 4 and 5 record
 * its byte order and feature masks ({@link FileFeatures}) at {@link SegmentFormat#BYTE_ORDER_OFFSET} to {@link SegmentFormat#INCOMPATIBLE_OFFSET}
 * and its type table from {@link SegmentFormat#TABLE_OFFSET}; formats 2 and 3 hold the table from {@link SegmentFormat#DESCRIPTOR_OFFSET} and no
 * such fields (their words are little-endian by definition). The whole table must fit the 4096-byte header area
 * ({@link #fits}). All header integers are little-endian. Stateless; thread-safe.
 *
 * <p><b>Validation.</b> Header bytes come from files and, for a replica, from the network: {@link #decode} and
 * {@link #decodeCopy} check every field before it is used (bounds first, then magic, version, header length, CRC,
 * byte order, incompatible features, segment size, first index, descriptor), and any failure is a
 * {@link QueueCorruptedException}; no byte array or file they are given is indexed outside its bounds. A segment size
 * must be a multiple of 4096 in [{@link SegmentFormat#MIN_SEGMENT_SIZE}, {@link SegmentFormat#MAX_SEGMENT_SIZE}] (12 KiB to 4 GiB): the
 * checkpoint slots hold u32 positions, which address every record of a file of at most 4 GiB (its last record starts
 * at most at 2^32 - 8).
 */
public final class SegmentHeader {

    private static final byte[] MAGIC = "BLITQUE\0".getBytes(StandardCharsets.US_ASCII);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** Encoded type tables by table ({@link #tableBytes}); never modified after they are put. */
    private static final java.util.Map<List<FileType>, byte[]> TABLES = new java.util.concurrent.ConcurrentHashMap<>();

    private SegmentHeader() {
    }

    /**
     * The validated content of a segment file's header.
     *
     * @param version the format version, 1 to {@value SegmentFormat#NEWEST_FORMAT}
     * @param types   the file's type table, in ascending id order (empty: raw payloads; format 1: one type of id 0)
     */
    public record Info(Path file, long segmentSize, long firstIndex, long createdNanos, long creatorPid, int version,
                       List<FileType> types) {
        public Info {
            types = List.copyOf(types);
        }

        /** The header of a file of one message class (type id 0), or of raw payloads for a null descriptor. */
        public Info(Path file, long segmentSize, long firstIndex, long createdNanos, long creatorPid,
                    LayoutDescriptor descriptor) {
            this(file, segmentSize, firstIndex, createdNanos, creatorPid, 1, FileType.single(descriptor));
        }

        /** Whether the file holds raw byte payloads (no message class recorded). */
        public boolean raw() {
            return types.isEmpty();
        }

        /** The layout of the file's only type, or null if it is raw or has several types. */
        public LayoutDescriptor descriptor() {
            return types.size() == 1 ? types.getFirst().descriptor() : null;
        }
    }

    /**
     * The type table of {@code types} (per type: id, descriptor length, descriptor), the bytes a header of format 2 or
     * later holds from {@link #tableOffset}; a copy the caller may keep.
     */
    public static byte[] typeTable(List<FileType> types) {
        FileType.checkTable(types);
        return tableBytes(types, false).clone();
    }

    /** Whether a header recording {@code types} fits the header area (see {@link #encodeTypes}). */
    public static boolean fits(List<FileType> types) {
        return TABLE_OFFSET + tableBytes(types, false).length + 4 <= HEADER_AREA;
    }

    /** {@return where the descriptor or type table of a header of format {@code version} starts} */
    public static int tableOffset(int version) {
        return version >= FEATURES_FORMAT ? TABLE_OFFSET : DESCRIPTOR_OFFSET;
    }

    /**
     * The {@link SegmentFormat#HEADER_AREA} bytes of a format-1 header (records without times), as builds before format 2 wrote
     * them: for tests and tools that make such files. Appenders write {@link SegmentFormat#FORMAT_VERSION} ({@link #encodeTypes}).
     *
     * @param descriptor the message class's layout, or null for a queue of raw bytes
     * @throws IllegalArgumentException if the descriptor does not fit in the header area
     */
    public static byte[] encode(long segmentSize, long firstIndex, long createdNanos, long pid,
                                LayoutDescriptor descriptor) {
        return encode(1, segmentSize, firstIndex, createdNanos, pid, FileType.single(descriptor));
    }

    /**
     * The {@link SegmentFormat#HEADER_AREA} bytes of a new file's header recording {@code types} (in ascending id order), in the
     * format appenders write, {@link SegmentFormat#FORMAT_VERSION}.
     *
     * @throws IllegalArgumentException if the table does not fit in the header area, or is not in ascending id order
     */
    public static byte[] encodeTypes(long segmentSize, long firstIndex, long createdNanos, long pid,
                                     List<FileType> types) {
        return encode(FORMAT_VERSION, segmentSize, firstIndex, createdNanos, pid, types);
    }

    /**
     * As {@link #encodeTypes(long, long, long, long, List)}, for a file created in term {@code term}: the header
     * records it at {@link SegmentFormat#TERM_OFFSET} and sets the compatible feature {@link FileFeatures#FILE_TERM}.
     *
     * @throws IllegalArgumentException also if {@code term} is outside [0, {@link SegmentFormat#MAX_FILE_TERM}]
     */
    public static byte[] encodeTypes(long segmentSize, long firstIndex, long createdNanos, long pid,
                                     List<FileType> types, long term) {
        return encodeTypes(FORMAT_VERSION, segmentSize, firstIndex, createdNanos, pid, types, term);
    }

    /**
     * As {@link #encodeTypes(long, long, long, long, List, long)}, in format {@code version}: {@link
     * SegmentFormat#FORMAT_VERSION}, or {@link SegmentFormat#CHECKSUM_FORMAT} for a file whose records carry checksums.
     *
     * @throws IllegalArgumentException also if {@code version} is neither
     */
    public static byte[] encodeTypes(int version, long segmentSize, long firstIndex, long createdNanos, long pid,
                                     List<FileType> types, long term) {
        if (version != FORMAT_VERSION && version != CHECKSUM_FORMAT) {
            throw new IllegalArgumentException("appenders write format " + FORMAT_VERSION + " or " + CHECKSUM_FORMAT
                    + ", not " + version);
        }
        if (term < 0 || term > MAX_FILE_TERM) {
            throw new IllegalArgumentException("a file header records terms 0 to " + MAX_FILE_TERM + ", not " + term);
        }
        byte[] bytes = encode(version, segmentSize, firstIndex, createdNanos, pid, types);
        MemorySegment s = MemorySegment.ofArray(bytes);
        s.set(INT, TERM_OFFSET, (int) term);
        s.set(LONG, COMPATIBLE_OFFSET, s.get(LONG, COMPATIBLE_OFFSET) | FileFeatures.FILE_TERM);
        int headerLength = s.get(INT, HEADER_LENGTH_OFFSET);
        s.set(INT, headerLength, crc(bytes, headerLength));
        return bytes;
    }

    /**
     * {@return the term a header records: its u32 at {@link SegmentFormat#TERM_OFFSET} if it is of format 4 or later and sets
     * {@link FileFeatures#FILE_TERM}, else 0} The header must have been validated ({@link #decode}).
     *
     * @param header a validated header (a file's first bytes, or a copy from {@link #copyOf})
     */
    public static long termOf(byte[] header) {
        MemorySegment s = MemorySegment.ofArray(header);
        if (s.get(INT, VERSION_OFFSET) < FEATURES_FORMAT
                || (s.get(LONG, COMPATIBLE_OFFSET) & FileFeatures.FILE_TERM) == 0) {
            return 0;
        }
        return Integer.toUnsignedLong(s.get(INT, TERM_OFFSET));
    }

    /**
     * The {@link SegmentFormat#HEADER_AREA} bytes of a header of format {@code version} (1 to {@link SegmentFormat#NEWEST_FORMAT}) recording
     * {@code types}.
     *
     * @throws IllegalArgumentException if the table does not fit in the header area, is not in ascending id order, or
     *                                  format 1 cannot express it (it holds raw payloads or one type of id 0)
     */
    public static byte[] encode(int version, long segmentSize, long firstIndex, long createdNanos, long pid,
                                List<FileType> types) {
        if (version < 1 || version > NEWEST_FORMAT) {
            throw new IllegalArgumentException("format version " + version + " outside [1, " + NEWEST_FORMAT + "]");
        }
        FileType.checkTable(types);
        boolean formatOne = version == 1;
        if (formatOne && !FileType.formatOneCanHold(types)) {
            throw new IllegalArgumentException("format 1 records raw payloads or one type of id 0, not " + types.size()
                    + " types");
        }
        byte[] table = tableBytes(types, formatOne);
        int tableOffset = tableOffset(version);
        int headerLength = tableOffset + table.length;
        if (headerLength + 4 > HEADER_AREA) {
            throw QueueErrors.typeTableTooLarge(types.size(), table.length, HEADER_AREA - 4 - tableOffset);
        }
        byte[] bytes = new byte[HEADER_AREA];
        MemorySegment s = MemorySegment.ofArray(bytes);
        MemorySegment.copy(MemorySegment.ofArray(MAGIC), 0, s, MAGIC_OFFSET, MAGIC.length);
        s.set(INT, VERSION_OFFSET, version);
        s.set(INT, HEADER_LENGTH_OFFSET, headerLength);
        s.set(LONG, SEGMENT_SIZE_OFFSET, segmentSize);
        s.set(LONG, FIRST_INDEX_OFFSET, firstIndex);
        s.set(LONG, CREATED_OFFSET, createdNanos);
        s.set(LONG, PID_OFFSET, pid);
        if (formatOne) {
            s.set(INT, DESCRIPTOR_LENGTH_OFFSET, table.length);
        } else {
            s.set(INT, TYPE_COUNT_OFFSET, types.size());
            s.set(INT, TYPE_TABLE_LENGTH_OFFSET, table.length);
        }
        if (version >= FEATURES_FORMAT) {
            s.set(INT, BYTE_ORDER_OFFSET, FileFeatures.NATIVE_ORDER);
            s.set(LONG, COMPATIBLE_OFFSET, FileFeatures.COMPATIBLE_WRITTEN);
            s.set(LONG, INCOMPATIBLE_OFFSET, FileFeatures.INCOMPATIBLE_WRITTEN);
        }
        System.arraycopy(table, 0, bytes, tableOffset, table.length);
        s.set(INT, headerLength, crc(bytes, headerLength));
        return bytes;
    }

    /**
     * The bytes of a type table from {@link #tableOffset} on: format 1, the one descriptor (or none); format 2 on, per
     * type its id, descriptor length and descriptor. Encoded once per table and kept (at most 64 tables, then all
     * are forgotten): encoding a descriptor converts every name to UTF-8, which cost a roll of a queue of two types
     * ~300 KB of garbage when it was done for every new file.
     */
    static byte[] tableBytes(List<FileType> types, boolean formatOne) {
        boolean natural = !formatOne; // the format appenders write headers in
        byte[] known = natural ? TABLES.get(types) : null;
        if (known != null) {
            return known;
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (FileType type : types) {
            byte[] descriptor = new byte[type.descriptor().encodedSize()];
            type.descriptor().encodeTo(MemorySegment.ofArray(descriptor), 0);
            if (!formatOne) {
                byte[] entry = new byte[8];
                MemorySegment.ofArray(entry).set(INT, 0, type.typeId());
                MemorySegment.ofArray(entry).set(INT, 4, descriptor.length);
                out.writeBytes(entry);
            }
            out.writeBytes(descriptor);
        }
        byte[] table = out.toByteArray();
        if (natural) { // the cache holds each table in the format its headers use, and nothing else
            if (TABLES.size() >= 64) {
                TABLES.clear();
            }
            TABLES.put(List.copyOf(types), table);
        }
        return table;
    }

    /**
     * The header of the file mapped as {@code file} as stored: its bytes up to and including the CRC (what a replica
     * writes into its own file of the same first index), not validated here.
     *
     * @throws QueueCorruptedException if the stored header length is out of range, or the segment ends before it
     */
    public static byte[] copyOf(MemorySegment file, Path path) {
        if (file.byteSize() < HEADER_LENGTH_OFFSET + Integer.BYTES) {
            throw QueueErrors.headerCut(path, file.byteSize(), HEADER_LENGTH_OFFSET + Integer.BYTES);
        }
        int headerLength = file.get(INT, HEADER_LENGTH_OFFSET);
        if (headerLength < DESCRIPTOR_OFFSET || headerLength > HEADER_AREA - 4) {
            throw QueueErrors.badHeaderLength(path, headerLength, DESCRIPTOR_OFFSET);
        }
        if (file.byteSize() < headerLength + 4L) {
            throw QueueErrors.headerCut(path, file.byteSize(), headerLength + 4L);
        }
        return file.asSlice(0, headerLength + 4).toArray(ValueLayout.JAVA_BYTE);
    }

    /** The first message index a header copy states (not validated: {@link #decode} does that). */
    public static long firstIndexOf(byte[] header) {
        return header.length < FIRST_INDEX_OFFSET + 8 ? -1 : MemorySegment.ofArray(header).get(LONG, FIRST_INDEX_OFFSET);
    }

    /** The segment size a header copy states (not validated: {@link #decode} does that). */
    public static long segmentSizeOf(byte[] header) {
        return header.length < SEGMENT_SIZE_OFFSET + 8 ? -1 : MemorySegment.ofArray(header).get(LONG, SEGMENT_SIZE_OFFSET);
    }

    /**
     * Validates and decodes the header of {@code file}.
     *
     * @param header        the file's first bytes: at least its header and CRC (the first {@link SegmentFormat#HEADER_AREA} bytes
     *                      of the file, as {@link SegmentFiles} reads them, hold them); bytes after the CRC are ignored
     * @param fileSize      the file's size in bytes
     * @param expectedFirst the first index the file's name states
     * @throws QueueCorruptedException naming the file and offset of the first problem found: the file is shorter than
     *                                 its header areas; {@code header} ends before the field or CRC it needs; wrong
     *                                 magic, version, header length or CRC; a segment size outside
     *                                 [{@link SegmentFormat#MIN_SEGMENT_SIZE}, {@link SegmentFormat#MAX_SEGMENT_SIZE}] or not a multiple of
     *                                 4096, or not the file's size; a first index outside [0, {@link SegmentFormat#MAX_FIRST_INDEX}]
     *                                 or not the name's; a descriptor that is not valid
     */
    public static Info decode(Path file, byte[] header, long fileSize, long expectedFirst) {
        if (fileSize < RECORDS_START) {
            throw QueueErrors.truncatedHeader(file, fileSize);
        }
        MemorySegment s = MemorySegment.ofArray(header);
        if (!Arrays.equals(header, 0, Math.min(header.length, MAGIC.length), MAGIC, 0, MAGIC.length)) {
            throw QueueErrors.badMagic(file);
        }
        if (header.length < DESCRIPTOR_OFFSET) {
            throw QueueErrors.headerCut(file, header.length, DESCRIPTOR_OFFSET);
        }
        int version = s.get(INT, VERSION_OFFSET);
        if (version < 1 || version > NEWEST_FORMAT) {
            throw QueueErrors.badVersion(file, version);
        }
        int headerLength = s.get(INT, HEADER_LENGTH_OFFSET);
        int tableOffset = tableOffset(version);
        if (headerLength < tableOffset || headerLength > HEADER_AREA - 4) {
            throw QueueErrors.badHeaderLength(file, headerLength, tableOffset);
        }
        if (header.length < headerLength + 4) {
            throw QueueErrors.headerCut(file, header.length, headerLength + 4);
        }
        int stored = s.get(INT, headerLength);
        int computed = crc(header, headerLength);
        if (stored != computed) {
            throw QueueErrors.badChecksum(file, headerLength, computed, stored);
        }
        checkFeatures(file, s, version);
        long segmentSize = s.get(LONG, SEGMENT_SIZE_OFFSET);
        if (!isValidSegmentSize(segmentSize)) {
            throw QueueErrors.badSegmentSize(file, segmentSize);
        }
        if (segmentSize != fileSize) {
            throw QueueErrors.sizeMismatch(file, fileSize, segmentSize);
        }
        long firstIndex = s.get(LONG, FIRST_INDEX_OFFSET);
        if (firstIndex < 0 || firstIndex > MAX_FIRST_INDEX) {
            throw QueueErrors.badFirstIndex(file, firstIndex);
        }
        if (firstIndex != expectedFirst) {
            throw QueueErrors.firstIndexMismatch(file, firstIndex, expectedFirst);
        }
        List<FileType> types = version == 1 ? decodeFormatOneType(file, s, headerLength)
                : TypeTableDecoder.decode(file, s.asSlice(0, headerLength), tableOffset, s.get(INT, TYPE_COUNT_OFFSET),
                        s.get(INT, TYPE_TABLE_LENGTH_OFFSET));
        return new Info(file, segmentSize, firstIndex, s.get(LONG, CREATED_OFFSET), s.get(LONG, PID_OFFSET), version,
                types);
    }

    /**
     * Refuses a file this machine cannot read: its byte order (not recorded before format 4: little-endian) is not the
     * native one, or it needs an incompatible feature this build does not know. Compatible features are ignored.
     */
    private static void checkFeatures(Path file, MemorySegment s, int version) {
        boolean recorded = version >= FEATURES_FORMAT;
        String order = FileFeatures.byteOrderProblem(recorded ? s.get(INT, BYTE_ORDER_OFFSET)
                : FileFeatures.ORDER_NOT_RECORDED);
        if (order != null) {
            throw QueueErrors.unreadableFile(file, recorded ? BYTE_ORDER_OFFSET : VERSION_OFFSET,
                    recorded ? order : "format " + version + " files are little-endian by definition; " + order);
        }
        String features = recorded ? FileFeatures.incompatibleProblem(s.get(LONG, INCOMPATIBLE_OFFSET)) : null;
        if (features != null) {
            throw QueueErrors.unreadableFile(file, INCOMPATIBLE_OFFSET, features);
        }
    }

    private static List<FileType> decodeFormatOneType(Path file, MemorySegment s, int headerLength) {
        int descriptorLength = s.get(INT, DESCRIPTOR_LENGTH_OFFSET);
        if (descriptorLength != headerLength - DESCRIPTOR_OFFSET) {
            throw QueueErrors.descriptorLengthMismatch(file, descriptorLength, headerLength);
        }
        if (descriptorLength == 0) {
            return List.of();
        }
        try {
            return FileType.single(LayoutDescriptor.decode(s.asSlice(0, headerLength), DESCRIPTOR_OFFSET));
        } catch (CorruptDescriptorException e) {
            throw QueueErrors.corruptDescriptor(file, e);
        }
    }

    /**
     * Validates and decodes a header as {@link #copyOf} gives it, received for the file of its stated first index in
     * {@code dir} (what a replica creates from its source's header): it must be exactly its stated header length plus
     * the 4 CRC bytes, and valid as {@link #decode} checks a file of its stated segment size and first index. Checks
     * only the bytes; creates nothing.
     *
     * @throws QueueCorruptedException naming the file of the stated first index (or {@code dir} if the copy is too
     *                                 short to state one) and the offset of the first problem found
     */
    public static Info decodeCopy(Path dir, byte[] copy) {
        long first = firstIndexOf(copy);
        Path file = first >= 0 ? SegmentFiles.path(dir, first) : dir;
        if (copy.length < DESCRIPTOR_OFFSET + 4 || copy.length > HEADER_AREA) {
            throw QueueErrors.badHeaderCopy(file, copy.length, -1);
        }
        int headerLength = MemorySegment.ofArray(copy).get(INT, HEADER_LENGTH_OFFSET);
        if (copy.length != headerLength + 4L) {
            throw QueueErrors.badHeaderCopy(file, copy.length, headerLength);
        }
        long segmentSize = segmentSizeOf(copy);
        if (!isValidSegmentSize(segmentSize)) { // before decode, which would call it a file of that size
            throw QueueErrors.badSegmentSize(file, segmentSize);
        }
        return decode(file, copy, segmentSize, first);
    }

    private static int crc(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }
}
