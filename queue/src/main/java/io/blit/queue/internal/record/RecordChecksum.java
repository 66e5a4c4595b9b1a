package io.blit.queue.internal.record;

import io.blit.queue.internal.format.RecordHeader;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The CRC32C of a COMMITTED message record of a file with record checksums (format 5; docs/format.md, "Records"),
 * computed, stored and loaded. The CRC's input is, in this order: the record's header word as committed (its 8 bytes
 * in the file's native order, state COMMITTED whatever the word in the file holds now), its time (the 8 bytes at +8),
 * then the bytes from +20 to the end of its body (the reserved u32 and the payload): every byte of the record but the
 * CRC's own four at +16. The CRC is {@link CRC32C}'s (Castagnoli polynomial 0x1EDC6F41, reflected, initial value and
 * final XOR 0xFFFFFFFF) and is stored as a u32 LE at {@link RecordHeader#CHECKSUM_OFFSET}.
 *
 * <p><b>How the bytes reach the CRC.</b> They are copied with {@link MemorySegment#copy} into a reused heap array, in
 * chunks of {@value #CHUNK} bytes, and the CRC runs over the array. Not over a {@link java.nio.ByteBuffer} view of the
 * mapped file: a view is limited to 2 GiB (files reach 4 GiB) and allocates, and a file truncated under the mapping
 * would fault inside the CRC intrinsic, where no test shows the fault delivered as the {@link InternalError} that
 * {@code MappedFaults} turns into a {@link io.blit.queue.QueueCorruptedException}; a segment's copy is the access whose
 * fault is known to be delivered so (docs/queue-performance.md, "Record checksums").
 *
 * <p>Allocates nothing after construction. Mutable and not thread-safe: one per cursor, verifier or replica writer.
 */
public final class RecordChecksum {
    /** The stored CRC: a u32 LE, 4-byte aligned (at +16 of an 8-byte aligned record). */
    private static final ValueLayout.OfInt STORED = ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** The stored CRC in bytes given apart (a replica's input), which need not be aligned. */
    private static final ValueLayout.OfInt STORED_UNALIGNED = STORED.withByteAlignment(1);
    private static final ValueLayout.OfLong NATIVE_WORD = ValueLayout.JAVA_LONG_UNALIGNED;
    /** Bytes copied and fed to the CRC at once: a record of a few KiB costs one copy and one CRC call. */
    static final int CHUNK = 4096;
    /** Bytes of the body before the CRC that the CRC covers: the time. */
    private static final int TIME = RecordHeader.TIME_LENGTH;
    /** From the body's start to the first byte after the CRC: the time and the CRC. */
    private static final int AFTER_CRC = RecordHeader.RESERVED_OFFSET - RecordHeader.LENGTH;

    private final CRC32C crc = new CRC32C();
    private final byte[] scratch = new byte[RecordHeader.LENGTH + TIME + CHUNK];
    private final MemorySegment scratchSegment = MemorySegment.ofArray(scratch);

    /**
     * {@return the CRC32C of the record at {@code position} of {@code file}, whose word as committed is
     * {@code committedWord}} Its body (its length field's bytes after the word, at least
     * {@value RecordHeader#CHECKSUMMED_PAYLOAD_OFFSET} − 8) must lie in {@code file}: the walk's checks.
     */
    public int compute(MemorySegment file, long position, long committedWord) {
        return compute(committedWord, file, position + RecordHeader.LENGTH, RecordHeader.unsignedLength(committedWord));
    }

    /**
     * {@return the CRC32C of a record whose word as committed is {@code committedWord} and whose body is the
     * {@code bodyLength} bytes of {@code source} from {@code bodyOffset}} (a record a replica receives, word and body
     * apart). The body must be at least 16 bytes (time, CRC, reserved word) and lie in {@code source}.
     */
    public int compute(long committedWord, MemorySegment source, long bodyOffset, long bodyLength) {
        scratchSegment.set(NATIVE_WORD, 0, committedWord);
        MemorySegment.copy(source, bodyOffset, scratchSegment, RecordHeader.LENGTH, TIME);
        crc.reset();
        int head = RecordHeader.LENGTH + TIME;
        long from = bodyOffset + AFTER_CRC;
        long end = bodyOffset + bodyLength;
        while (true) {
            int n = (int) Math.min(CHUNK, end - from);
            MemorySegment.copy(source, from, scratchSegment, head, n);
            crc.update(scratch, 0, head + n);
            from += n;
            if (from >= end) {
                return (int) crc.getValue();
            }
            head = 0;
        }
    }

    /** {@return the CRC stored in the record at {@code position} of {@code file}} */
    public static int stored(MemorySegment file, long position) {
        return file.get(STORED, position + RecordHeader.CHECKSUM_OFFSET);
    }

    /** {@return the CRC stored in a record's body of {@code source} that starts (with its time) at {@code bodyOffset}} */
    public static int storedInBody(MemorySegment source, long bodyOffset) {
        return source.get(STORED_UNALIGNED, bodyOffset + RecordHeader.CHECKSUM_OFFSET - RecordHeader.LENGTH);
    }

    /** Stores {@code crc} in the record at {@code position} of {@code file} (a plain store, before the commit's release). */
    public static void store(MemorySegment file, long position, int crc) {
        file.set(STORED, position + RecordHeader.CHECKSUM_OFFSET, crc);
    }
}
