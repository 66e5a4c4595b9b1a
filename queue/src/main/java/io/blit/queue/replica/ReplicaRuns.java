package io.blit.queue.replica;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.record.RecordChecksum;
import io.blit.queue.internal.segment.MappedSegment;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The checks a replica ({@link ReplicaWriter}) makes on the record words and runs it is given, every
 * byte of which may come from the network: each refusal is a {@link ReplicaInputException}, thrown before anything
 * is written, after a bounded amount of work (no length or count makes a check loop longer than the event's own bytes,
 * nor allocates).
 */
final class ReplicaRuns {
    /** A header word inside a run's bytes as given or as copied (the given bytes need not be 8-byte aligned). */
    public static final ValueLayout.OfLong WORD_IN_COPY = ValueLayout.JAVA_LONG_UNALIGNED;

    private ReplicaRuns() {
    }

    /**
     * Checks one record (see {@link io.blit.queue.replica.ReplicaWriter#write(long, MemorySegment, long, long)}): {@code word}
     * is a final record word, its length is {@code size}, and the {@code size} bytes from {@code offset} are all in
     * {@code source}; a COMMITTED message record is at least the time of {@code file}'s records (8 bytes from format 2 on).
     * Returns the payload's length (0 for padding).
     */
    public static long checkedRecord(long word, boolean padding, MemorySegment source, long offset, long size,
                                     MappedSegment file, RecordChecksum checksum, long index) {
        if (!isFinalWord(word)) {
            throw new ReplicaInputException("not a committed or abandoned record word of at most "
                    + RecordHeader.MAX_PAYLOAD + " bytes, nor a committed padding word of length 0: "
                    + RecordHeader.describe(word));
        }
        long length = padding ? 0 : RecordHeader.unsignedLength(word);
        checkBody(word, file);
        if (size != length) {
            throw new ReplicaInputException("record word " + RecordHeader.describe(word) + " with "
                    + size + " payload bytes");
        }
        if (offset < 0 || offset > source.byteSize() - size) {
            throw new ReplicaInputException("payload bytes [" + offset + ", " + offset + " + " + size
                    + ") outside the " + source.byteSize() + " bytes given");
        }
        if (!padding) {
            checkChecksum(word, source, offset, file, checksum, index);
        }
        return length;
    }

    /**
     * Checks a run's announced shape (see {@link io.blit.queue.replica.ReplicaWriter#writeRun}): at least one record, at least
     * one header word, at most {@code maxRunBytes} for two or more records, and its {@code length} bytes from
     * {@code offset} all in {@code source}.
     */
    public static void checkRunBounds(MemorySegment source, long offset, long length, int count, int maxRunBytes) {
        if (count < 1 || length < RecordHeader.LENGTH || (count > 1 && length > maxRunBytes)) {
            throw new ReplicaInputException("a run of " + count + " records in " + length + " bytes");
        }
        if (offset < 0 || offset > source.byteSize() - length) {
            throw new ReplicaInputException("run bytes [" + offset + ", " + offset + " + " + length
                    + ") outside the " + source.byteSize() + " bytes given");
        }
    }

    /**
     * Checks the header words of a run (see {@link io.blit.queue.replica.ReplicaWriter#writeRun}), whose {@code length} bytes
     * from {@code offset} are in {@code source}; returns its first. Reads at most {@code count + 1} words: every length
     * is checked (read unsigned, so that no word makes a record of 0 bytes or fewer) before it moves the walk; a
     * COMMITTED record must have a body of at least the time of {@code file}'s records (8 bytes from format 2 on).
     */
    public static long checkedRun(MemorySegment source, long offset, long length, int count, MappedSegment file,
                                  RecordChecksum checksum, long index) {
        long at = 0;
        int records = 0;
        while (at < length) {
            if (length - at < RecordHeader.LENGTH) {
                throw new ReplicaInputException("a run's last record ends " + (length - at) + " bytes into a header");
            }
            long word = source.get(WORD_IN_COPY, offset + at);
            if (RecordHeader.isPadding(word) || !isFinalWord(word)) {
                throw new ReplicaInputException("not a committed or abandoned record word of at most "
                        + RecordHeader.MAX_PAYLOAD + " bytes in a run: " + RecordHeader.describe(word));
            }
            checkBody(word, file);
            long recordLength = RecordHeader.recordLength(RecordHeader.unsignedLength(word));
            if (recordLength > length - at) {
                throw new ReplicaInputException("record " + RecordHeader.describe(word) + " ends past its run");
            }
            checkChecksum(word, source, offset + at + RecordHeader.LENGTH, file, checksum, index + records);
            at += recordLength;
            if (++records > count) {
                throw new ReplicaInputException("a run announced as " + count + " records holds more");
            }
        }
        if (records != count) {
            throw new ReplicaInputException("a run of " + records + " records announced as " + count);
        }
        return source.get(WORD_IN_COPY, offset);
    }

    /**
     * Checks the header word of a record that comes in parts (see
     * {@link io.blit.queue.replica.ReplicaWriter#writePart}): a committed or abandoned record word, not padding, whose
     * record is {@code recordLength} bytes as stored, with a body at least as long as the time of {@code file}'s records if committed.
     */
    public static void checkPartWord(long word, long recordLength, MappedSegment file) {
        if (RecordHeader.isPadding(word) || !isFinalWord(word)) {
            throw new ReplicaInputException("not a committed or abandoned record word of at most "
                    + RecordHeader.MAX_PAYLOAD + " bytes at the start of a record in parts: "
                    + RecordHeader.describe(word));
        }
        checkBody(word, file);
        if (RecordHeader.recordLength(RecordHeader.unsignedLength(word)) != recordLength) {
            throw new ReplicaInputException("record " + RecordHeader.describe(word) + " announced as "
                    + recordLength + " bytes");
        }
    }

    /**
     * Refuses a COMMITTED message record of a file with record checksums (format 5) whose CRC32C, stored in its body
     * (the {@code RecordHeader.unsignedLength(word)} bytes of {@code source} from {@code bodyOffset}, time first), is not
     * that of its word and bytes: a record damaged on the source or on the way, which readers of the replica would
     * refuse. Does nothing for other records and files. {@code word} passed {@link #checkBody}.
     *
     * @param index the record's index, for the message
     */
    public static void checkChecksum(long word, MemorySegment source, long bodyOffset, MappedSegment file,
                                     RecordChecksum checksum, long index) {
        if (!file.checksums() || RecordHeader.state(word) != RecordHeader.STATE_COMMITTED
                || RecordHeader.isPadding(word)) {
            return;
        }
        int computed = checksum.compute(word, source, bodyOffset, RecordHeader.unsignedLength(word));
        int stored = RecordChecksum.storedInBody(source, bodyOffset);
        if (computed != stored) {
            throw new ReplicaInputException(String.format("record checksum mismatch at index %d (%s): the record"
                    + " stores CRC32C 0x%08x, its bytes give 0x%08x; nothing was written", index,
                    RecordHeader.describe(word), stored, computed));
        }
    }

    /**
     * Refused, as readers of the target {@code file} would report them corrupt: a COMMITTED message record shorter than
     * its file's time, a word with the P bit that is not exactly a padding word, a type slot the file's table lacks.
     */
    private static void checkBody(long word, MappedSegment file) {
        long minBody = file.payloadOffset() - RecordHeader.LENGTH;
        if (RecordHeader.isPadding(word)) {
            if (!file.isPaddingWord(word)) {
                throw new ReplicaInputException("record word " + RecordHeader.describe(word)
                        + " has the padding bit but is not a padding word (COMMITTED, length 0, type 0)");
            }
            return;
        }
        if (!file.typeSlotDeclared(word)) {
            throw new ReplicaInputException("record word " + RecordHeader.describe(word) + " names type slot "
                    + RecordHeader.typeSlot(word) + ", not in its file's table of " + file.info().types().size()
                    + " type(s)");
        }
        if (RecordHeader.state(word) == RecordHeader.STATE_COMMITTED && RecordHeader.unsignedLength(word) < minBody) {
            throw new ReplicaInputException("committed record " + RecordHeader.describe(word) + " shorter than the "
                    + minBody + "-byte time every record of its file starts with");
        }
    }

    /**
     * Whether {@code word} is what a record's header word is once final: COMMITTED or ABANDONED with a payload of at
     * most {@link RecordHeader#MAX_PAYLOAD} bytes, or the COMMITTED padding word of length 0.
     */
    private static boolean isFinalWord(long word) {
        if (RecordHeader.isPadding(word)) {
            return RecordHeader.state(word) == RecordHeader.STATE_COMMITTED && RecordHeader.unsignedLength(word) == 0;
        }
        return RecordHeader.isFinal(word) && RecordHeader.unsignedLength(word) <= RecordHeader.MAX_PAYLOAD;
    }
}
