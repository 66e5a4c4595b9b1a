package io.blit.queue.internal.record;

import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.MappedFaults;
import io.blit.queue.internal.segment.MappedSegment;
import java.lang.foreign.MemorySegment;

/**
 * Where an appender or a tailer stands in the queue: the segment file it has mapped, the position of a record
 * header word in it, and the ordinal (0-based, within the file) of the record there; with the file's first index,
 * the record's index. Every position and ordinal is derivable by walking the headers from
 * {@link SegmentFormat#RECORDS_START}, so this is a cache of that walk, never a second source of truth.
 *
 * <p>A cursor also knows the claim it holds (from {@link RecordProtocol#claim} or
 * {@link RecordProtocol#tryClaimInPlace} until {@link RecordProtocol#commit} moves it past the record), so that
 * {@link #failure} can give it up: every failure inside an appender's or a tailer's operation is turned into what
 * the caller throws here, in one place.
 *
 * <p>A cursor may exist before its file is mapped ({@link #isMapped()} false): a tailer is created in one thread
 * and maps its file in the thread that first reads, since a mapping is confined to the thread that made it.
 *
 * <p>Mutable and not thread-safe: one per appender, tailer or stress-test actor.
 */
public final class RecordCursor implements AutoCloseable {
    /** Whether a fault of the mapping is reported as one while writing (an appender) or reading (a tailer). */
    private final boolean writing;
    private MappedSegment file;
    /** {@code file.segment()}, or null: one load less on every access of the hot paths. */
    private MemorySegment segment;
    private long firstIndex;
    /** Bytes from a record's header word to its payload: 16 in a file whose records carry a time (format 2), else 8. */
    private long payloadOffset = RecordHeader.LENGTH + RecordHeader.TIME_LENGTH;
    private long position;
    private long ordinal;
    /** The CRC of the file's records, if they carry one (format 5), else null; created at the first such file. */
    private RecordChecksum checksum;
    private boolean checksums;
    /**
     * The position and CLAIMED word of the last claim this cursor won; it holds that claim while it is still at
     * that position (committing or abandoning moves it past the record, entering a file resets it). Kept so, the
     * append's fast path costs two plain stores for it, and nothing at the commit.
     */
    private long claimedAt = -1;
    private long claimedWord;

    private RecordCursor(boolean writing, MappedSegment file, long firstIndex, long position, long ordinal) {
        this.writing = writing;
        this.file = file;
        this.segment = file == null ? null : file.segment();
        if (file != null) {
            this.payloadOffset = file.payloadOffset();
            useChecksums(file);
        }
        this.firstIndex = firstIndex;
        this.position = position;
        this.ordinal = ordinal;
    }

    /** An appender's cursor, in no file yet: {@link #enter} gives it the file to append to, mapped. */
    public static RecordCursor forAppender() {
        return new RecordCursor(true, null, 0, SegmentFormat.RECORDS_START, 0);
    }

    /**
     * A tailer's cursor at the record of {@code ordinal} at {@code position} in the file of {@code firstIndex}, not
     * mapped yet: {@link #attach} gives it that file, mapped in the reading thread.
     */
    public static RecordCursor forTailer(long firstIndex, long position, long ordinal) {
        return new RecordCursor(false, null, firstIndex, position, ordinal);
    }

    /** A claimer's cursor at the record of {@code ordinal} at {@code position} in {@code file} (protocol tests). */
    public static RecordCursor in(MappedSegment file, long position, long ordinal) {
        return new RecordCursor(true, file, file.firstIndex(), position, ordinal);
    }

    /** Whether a file is mapped; false before the first {@link #enter}/{@link #attach} and after {@link #close()}. */
    public boolean isMapped() {
        return file != null;
    }

    /** The mapped file, or null (see {@link #isMapped()}). */
    public MappedSegment file() {
        return file;
    }

    /** The mapped file's memory ({@code file().segment()}), or null (see {@link #isMapped()}). */
    public MemorySegment segment() {
        return segment;
    }

    /** The first index of the cursor's file. */
    public long firstIndex() {
        return firstIndex;
    }

    /** Position of the header word the cursor is at; a multiple of 8. */
    public long position() {
        return position;
    }

    /** Position of the payload of the record at the cursor: after its header word and, in format 2, its time. */
    public long payloadPosition() {
        return position + payloadOffset;
    }

    /**
     * Position of the body of the record at the cursor, right after its header word: what its length field counts (in
     * format 2 the record's time, then its payload).
     */
    public long bodyPosition() {
        return position + RecordHeader.LENGTH;
    }

    /**
     * The payload length of the record at the cursor, whose length field reads {@code lengthField}: the field minus
     * the record's time in format 2.
     *
     * @throws io.blit.queue.QueueCorruptedException if the field is shorter than the record's time
     */
    public int payloadLength(int lengthField) {
        int payload = lengthField - (int) (payloadOffset - RecordHeader.LENGTH);
        if (payload < 0) {
            throw QueueErrors.recordShorterThanBody(file.info().file(), position, lengthField,
                    payloadOffset - RecordHeader.LENGTH);
        }
        return payload;
    }

    /** The time (epoch ns) of the record at the cursor, which must be committed; 0 in a file of format 1. */
    public long recordTime() {
        return payloadOffset == RecordHeader.LENGTH ? 0L
                : segment.get(java.lang.foreign.ValueLayout.JAVA_LONG, position + RecordHeader.LENGTH);
    }

    /** Ordinal in the file of the record at {@link #position()}. */
    public long ordinal() {
        return ordinal;
    }

    /** Index in the queue of the record at {@link #position()}. */
    public long index() {
        return firstIndex + ordinal;
    }

    /** Whether the cursor holds a claim: it won the record at {@link #position()} and has not moved past it. */
    public boolean holdsClaim() {
        return claimedAt == position && file != null;
    }

    /** Moves past the record at the cursor, whose length field reads {@code lengthField}. */
    public void skip(long lengthField) {
        position += RecordHeader.recordLength(lengthField);
        ordinal++;
    }

    /** Moves past the record at the cursor, whose payload (without its time) is {@code payloadLength} bytes. */
    public void skipPayload(long payloadLength) {
        skip(payloadLength + payloadOffset - RecordHeader.LENGTH);
    }

    /** Moves to the record of {@code ordinal} at {@code position} in the same file. */
    public void moveTo(long position, long ordinal) {
        this.position = position;
        this.ordinal = ordinal;
        this.claimedAt = -1;
    }

    /** Unmaps the current file, if any, and takes {@code next}, at its first record. */
    public void enter(MappedSegment next) {
        close();
        file = next;
        segment = next.segment();
        payloadOffset = next.payloadOffset();
        useChecksums(next);
        firstIndex = next.firstIndex();
        position = SegmentFormat.RECORDS_START;
        ordinal = 0;
        claimedAt = -1;
    }

    /**
     * Takes {@code mapped}, the file this cursor stands in, mapped in the caller's thread; keeps the position.
     *
     * @throws IllegalArgumentException if {@code mapped} is another file than the cursor's
     */
    public void attach(MappedSegment mapped) {
        if (mapped.firstIndex() != firstIndex) {
            throw new IllegalArgumentException("the cursor is in the file of index " + firstIndex + ", not "
                    + mapped.firstIndex());
        }
        close();
        file = mapped;
        segment = mapped.segment();
        payloadOffset = mapped.payloadOffset();
        useChecksums(mapped);
        claimedAt = -1;
    }

    private void useChecksums(MappedSegment mapped) {
        checksums = mapped.checksums();
        if (checksums && checksum == null) {
            checksum = new RecordChecksum();
        }
    }

    /** Whether the records of the cursor's file carry a CRC32C (format 5): a commit stores it, a reader verifies it. */
    public boolean checksums() {
        return checksums;
    }

    /**
     * Stores the CRC32C of the record at the cursor, claimed with {@code claimedWord} and whose body is written, in a
     * file with record checksums; does nothing in another. A plain store: the commit's release store publishes it.
     *
     * @throws InternalError the fault of the CRC's read of the mapping, if any (then nothing is stored)
     */
    public void storeChecksum(long claimedWord) {
        if (checksums) {
            int crc = checksum.compute(segment, position, RecordHeader.committed(claimedWord));
            MappedFaults.surfacePending(); // a CRC over bytes whose read faulted is never stored
            RecordChecksum.store(segment, position, crc);
        }
    }

    /**
     * Verifies the CRC32C of the COMMITTED record at the cursor, whose checked word is {@code word}, in a file with
     * record checksums; does nothing in another.
     *
     * @throws io.blit.queue.QueueCorruptedException naming the file, the record's position and index, if the CRC
     *                                               stored is not that of the record's bytes
     */
    public void verifyChecksum(long word) {
        if (checksums) {
            if (RecordHeader.unsignedLength(word) < RecordHeader.CHECKSUMMED_PAYLOAD_OFFSET - RecordHeader.LENGTH) {
                throw QueueErrors.recordShorterThanBody(file.info().file(), position, RecordHeader.length(word),
                        payloadOffset - RecordHeader.LENGTH);
            }
            int computed = checksum.compute(segment, position, word);
            int stored = RecordChecksum.stored(segment, position);
            if (computed != stored) {
                throw QueueErrors.recordChecksum(file.info().file(), position, index(), stored, computed);
            }
        }
    }

    /** Records that the cursor won the record at its position with {@code claimedWord}. */
    void holdClaim(long claimedWord) {
        this.claimedAt = position;
        this.claimedWord = claimedWord;
    }

    /** The CLAIMED word of the claim {@link #holdsClaim()} says the cursor holds. */
    long claimedWord() {
        return claimedWord;
    }

    /**
     * What the caller of an appender's or a tailer's operation throws for {@code failure}, raised anywhere in it; the
     * one place such failures are handled. First gives up the claim this cursor holds, if any, with
     * {@link RecordProtocol#abandon} (tailers then skip its index instead of waiting for it). Then, for an
     * {@link InternalError} of a fault of the mapping (the file was truncated under it: {@link MappedFaults}), gives
     * a {@link io.blit.queue.QueueCorruptedException} naming the file and the record's position as it was when the
     * failure arrived; any other failure is given back (or thrown, for an {@link Error}) as it is. A fault of the
     * mapping while abandoning (the file was truncated there too) is added to it as suppressed.
     *
     * <p>Catch {@code RuntimeException | Error} around the whole operation, not only around its accesses: HotSpot
     * raises the fault asynchronously, at the next safepoint poll, which may be after the access.
     *
     * @throws Error {@code failure} itself if it is an Error other than a fault of the mapping
     */
    public RuntimeException failure(Throwable failure) {
        MappedSegment in = file;
        long at = position;
        InternalError abandonFault = null;
        if (holdsClaim()) {
            if (in.segment().scope().isAlive()) {
                try {
                    RecordProtocol.abandon(this);
                } catch (InternalError again) { // delivered here when this path runs interpreted
                    abandonFault = again;
                }
            } else {
                claimedAt = -1; // unmapped meanwhile (closed from the filler): nothing left to mark
            }
        }
        RuntimeException result;
        if (failure instanceof InternalError fault) {
            result = MappedFaults.translate(fault, in, at, writing);
        } else if (failure instanceof Error error) {
            throw error;
        } else {
            result = (RuntimeException) failure;
        }
        if (abandonFault != null) {
            result.addSuppressed(abandonFault);
        }
        return result;
    }

    /** Unmaps the current file (a {@link MappedSegment#view} is left alone); the position is kept. Idempotent. */
    @Override
    public void close() {
        if (file != null) {
            file.close();
            file = null;
            segment = null;
        }
    }
}
