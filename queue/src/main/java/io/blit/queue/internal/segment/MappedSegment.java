package io.blit.queue.internal.segment;

import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.record.RecordCursor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One segment file mapped in a confined arena of the thread that created this object: the file a
 * {@link RecordCursor} of an appender or a tailer stands in. Confinement lets Blit copy with its fast path and makes every access from
 * another thread fail with {@link WrongThreadException}. Not thread-safe; {@link #close()} unmaps.
 *
 * <p>{@link #view} wraps a file image mapped by the caller instead (the jcstress tests share one mapping
 * between threads); such a view's {@link #close()} leaves the mapping alone.
 */
public final class MappedSegment implements AutoCloseable {
    private final SegmentHeader.Info info;
    /** The arena this object owns and closes, or null for a {@link #view}. */
    private final Arena arena;
    private final MemorySegment segment;
    /** {@code info.segmentSize()}, kept here: the claim's bounds check reads it on every append. */
    private final long size;
    /** The lowest type slot a record word of this file may not hold: 128 (no limit) in format 1 (no type field). */
    private final int typeLimit;
    /** The bits a padding word may hold besides its COMMITTED state and P bit: its claimer field. */
    private final long paddingClaimerBits;

    public MappedSegment(SegmentHeader.Info info) {
        this(info, false);
    }

    /** Maps the file of {@code info} in a new arena of the caller's thread; read-only if {@code readOnly}. */
    public MappedSegment(SegmentHeader.Info info, boolean readOnly) {
        this.info = info;
        this.size = info.segmentSize();
        this.typeLimit = typeLimit(info);
        this.paddingClaimerBits = paddingClaimerBits(info);
        this.arena = Arena.ofConfined();
        try {
            this.segment = SegmentFiles.map(info, arena, readOnly);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    private MappedSegment(SegmentHeader.Info info, MemorySegment segment) {
        this.info = info;
        this.size = info.segmentSize();
        this.typeLimit = typeLimit(info);
        this.paddingClaimerBits = paddingClaimerBits(info);
        this.arena = null;
        this.segment = segment;
    }

    /**
     * A view of {@code segment}, a whole file image of {@code info.segmentSize()} bytes mapped and owned
     * by the caller, in any arena; its thread-safety is the segment's.
     *
     * @throws IllegalArgumentException if the segment's size is not the file's
     */
    public static MappedSegment view(SegmentHeader.Info info, MemorySegment segment) {
        if (segment.byteSize() != info.segmentSize()) {
            throw new IllegalArgumentException("a view of " + info.file() + " needs " + info.segmentSize()
                    + " bytes, the segment has " + segment.byteSize());
        }
        return new MappedSegment(info, segment);
    }

    private static int typeLimit(SegmentHeader.Info info) {
        return info.version() == 1 ? RecordHeader.MAX_TYPES : Math.max(1, info.types().size());
    }

    private static long paddingClaimerBits(SegmentHeader.Info info) {
        long claimer = info.version() == 1 ? RecordHeader.FORMAT1_PID_MASK : RecordHeader.WRITER_MASK;
        return claimer << RecordHeader.WRITER_SHIFT;
    }

    /**
     * Whether {@code word}, which has the P bit, is a padding word as this file's format defines it: COMMITTED, length
     * 0, type 0 (format 1: any bits in its pid field), any claimer. Any other word with the P bit is corrupt.
     */
    public boolean isPaddingWord(long word) {
        return (word & ~paddingClaimerBits)
                == (RecordHeader.PADDING_BIT | (RecordHeader.STATE_COMMITTED << RecordHeader.STATE_SHIFT));
    }

    /** Whether the type slot of the non-padding {@code word} is one of this file's types (format 1: always). */
    public boolean typeSlotDeclared(long word) {
        return RecordHeader.typeSlot(word) < typeLimit;
    }

    public SegmentHeader.Info info() {
        return info;
    }

    public MemorySegment segment() {
        return segment;
    }

    public long size() {
        return size;
    }

    public long firstIndex() {
        return info.firstIndex();
    }

    /**
     * Bytes from a record's header word to its payload: 24 where records carry a time and a checksum (format 5), 16
     * where they carry a time (formats 2 to 4), 8 in format 1.
     */
    public long payloadOffset() {
        return payloadOffset(info.version());
    }

    /** {@return bytes from a record's header word to its payload in a file of format {@code version}} */
    public static long payloadOffset(int version) {
        if (version >= SegmentFormat.CHECKSUM_FORMAT) {
            return RecordHeader.CHECKSUMMED_PAYLOAD_OFFSET;
        }
        return version >= 2 ? RecordHeader.LENGTH + RecordHeader.TIME_LENGTH : RecordHeader.LENGTH;
    }

    /** Whether every COMMITTED message record of this file carries a CRC32C (format 5: docs/format.md, "Records"). */
    public boolean checksums() {
        return info.version() >= SegmentFormat.CHECKSUM_FORMAT;
    }

    /**
     * The payload length of the non-empty header {@code word} at {@code position}, checked to lie in the file.
     *
     * @throws io.blit.queue.QueueCorruptedException if the record would extend past the end of the file
     */
    public int checkedLength(long word, long position) {
        int length = RecordHeader.length(word);
        if (length < 0 || position + RecordHeader.recordLength(length & RecordHeader.LENGTH_MASK) > size) {
            throw QueueErrors.recordPastEnd(info.file(), position, word, size);
        }
        return length;
    }

    /**
     * Throws the {@link InternalError} of an access to this mapping that faulted and whose delivery HotSpot
     * deferred (JIT-compiled code), here and now: {@link MappedFaults#surfacePending}.
     */
    public void surfacePendingFault() {
        MappedFaults.surfacePending();
    }

    @Override
    public void close() {
        if (arena != null && arena.scope().isAlive()) {
            arena.close();
        }
    }
}
