package io.blit.queue.internal.error;

import io.blit.core.IncompatibleLayoutException;
import io.blit.layout.CorruptDescriptorException;
import io.blit.queue.ConsumerHeldException;
import io.blit.queue.LayoutMismatchException;
import io.blit.queue.MessagesDeletedException;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.ReplicaAppendException;
import io.blit.queue.internal.format.ConsumerFormat;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import java.nio.file.Path;

/**
 * Every exception the queue throws, built in one place so that messages name the file, byte offset,
 * index or size involved in the same words everywhere. Stateless.
 */
public final class QueueErrors {
    /** What a segment size must be, for messages: "must be ...". */
    private static final String SEGMENT_SIZE_RANGE = "must be a multiple of 4096 from " + SegmentFormat.MIN_SEGMENT_SIZE
            + " (12 KiB) to " + SegmentFormat.MAX_SEGMENT_SIZE + " (4 GiB: checkpoints hold u32 record positions)";

    private QueueErrors() {
    }

    // ---- corrupt files

    public static QueueCorruptedException truncatedHeader(Path file, long fileSize) {
        return new QueueCorruptedException(file, fileSize, "truncated: the file is " + fileSize
                + " bytes, shorter than its " + SegmentFormat.RECORDS_START + "-byte header");
    }

    public static QueueCorruptedException badMagic(Path file) {
        return new QueueCorruptedException(file, SegmentFormat.MAGIC_OFFSET, "not a Blit queue file (magic is not \"BLITQUE\\0\")");
    }

    public static QueueCorruptedException badVersion(Path file, int version) {
        return new QueueCorruptedException(file, SegmentFormat.VERSION_OFFSET, "format version " + version
                + ", this reader understands 1 to " + SegmentFormat.NEWEST_FORMAT);
    }

    public static QueueCorruptedException badHeaderLength(Path file, int headerLength, int min) {
        return new QueueCorruptedException(file, SegmentFormat.HEADER_LENGTH_OFFSET, "header length " + headerLength
                + " outside [" + min + ", " + (SegmentFormat.HEADER_AREA - 4) + "]");
    }

    /** A valid file this build cannot read: another byte order, or an incompatible feature it does not know. */
    public static QueueCorruptedException unreadableFile(Path file, long offset, String problem) {
        return new QueueCorruptedException(file, offset, problem);
    }

    public static QueueCorruptedException headerCut(Path file, long available, long needed) {
        return new QueueCorruptedException(file, available, "the header's bytes end after " + available
                + " bytes; its fields and CRC need " + needed);
    }

    public static QueueCorruptedException badHeaderCopy(Path file, int length, int headerLength) {
        return new QueueCorruptedException(file, 0, "a header copy of " + length + " bytes: "
                + (headerLength < 0 ? "a header and its CRC take " + (SegmentFormat.DESCRIPTOR_OFFSET + 4) + " to "
                + SegmentFormat.HEADER_AREA : "its header length " + headerLength + " plus 4 CRC bytes") + " bytes");
    }

    public static QueueCorruptedException badSegmentSize(Path file, long segmentSize) {
        return new QueueCorruptedException(file, SegmentFormat.SEGMENT_SIZE_OFFSET, "segment size " + segmentSize
                + " " + SEGMENT_SIZE_RANGE);
    }

    public static QueueCorruptedException badFirstIndex(Path file, long firstIndex) {
        return new QueueCorruptedException(file, SegmentFormat.FIRST_INDEX_OFFSET, "first index " + firstIndex
                + " outside [0, " + SegmentFormat.MAX_FIRST_INDEX + "]");
    }

    public static QueueCorruptedException badRecordWord(Path file, long position, long word) {
        return new QueueCorruptedException(file, position, String.format("record header word %016x has no state but"
                + " other bits set (only the empty word, 0, has none)", word));
    }

    public static QueueCorruptedException endsBeforeNextFile(Path file, long position, long index, long nextFirst) {
        return new QueueCorruptedException(file, position, "the file's records end here at index " + index
                + " (a padding word or the file's end), but the next file starts at index " + nextFirst);
    }

    public static QueueCorruptedException badPaddingWord(Path file, long position, long word) {
        return new QueueCorruptedException(file, position, "record header " + RecordHeader.describe(word)
                + " has the padding bit but is not a padding word (COMMITTED, length 0, type 0)");
    }

    public static QueueCorruptedException paddingAtFirstRecord(Path file, long position) {
        return new QueueCorruptedException(file, position, "a padding word as the file's first record: the queue would"
                + " continue in the file of this file's own first index");
    }

    public static QueueCorruptedException badChecksum(Path file, int headerLength, int computed, int stored) {
        return new QueueCorruptedException(file, headerLength, String.format(
                "header checksum mismatch: CRC32C of bytes [0, %d) is %08x, stored %08x", headerLength, computed, stored));
    }

    public static QueueCorruptedException sizeMismatch(Path file, long fileSize, long segmentSize) {
        return new QueueCorruptedException(file, Math.min(segmentSize, fileSize), "truncated or extended: the file is "
                + fileSize + " bytes, its header (byte " + SegmentFormat.SEGMENT_SIZE_OFFSET + ") says " + segmentSize);
    }

    public static QueueCorruptedException firstIndexMismatch(Path file, long firstIndex, long fromName) {
        return new QueueCorruptedException(file, SegmentFormat.FIRST_INDEX_OFFSET, "first index " + firstIndex
                + " but the file name says " + fromName);
    }

    public static QueueCorruptedException descriptorLengthMismatch(Path file, int descriptorLength, int headerLength) {
        return new QueueCorruptedException(file, SegmentFormat.DESCRIPTOR_LENGTH_OFFSET, "descriptor length "
                + descriptorLength + " does not match header length " + headerLength);
    }

    public static QueueCorruptedException corruptDescriptor(Path file, CorruptDescriptorException cause) {
        QueueCorruptedException corrupt = new QueueCorruptedException(file, cause.offset(), cause.getMessage());
        corrupt.initCause(cause);
        return corrupt;
    }

    public static QueueCorruptedException recordPastEnd(Path file, long position, long word, long fileSize) {
        return new QueueCorruptedException(file, position, "record header " + RecordHeader.describe(word)
                + " extends past the end of the " + fileSize + "-byte file");
    }

    public static QueueCorruptedException recordShorterThanTime(Path file, long position, int lengthField) {
        return recordShorterThanBody(file, position, lengthField, RecordHeader.TIME_LENGTH);
    }

    /**
     * A COMMITTED record whose length field is below {@code prefix}: the time every record of format 2 to 4 starts
     * with (8 bytes), or the time, checksum and reserved word of format 5 (16).
     */
    public static QueueCorruptedException recordShorterThanBody(Path file, long position, int lengthField,
                                                                long prefix) {
        return new QueueCorruptedException(file, position, "committed record of length " + lengthField
                + ", shorter than the " + prefix + "-byte " + (prefix == RecordHeader.TIME_LENGTH ? "time"
                : "time, checksum and reserved word") + " every record of its file's format starts with");
    }

    /**
     * A COMMITTED record of a file with record checksums (format 5) whose stored CRC32C is not that of its bytes: a bit
     * of its word, time, reserved word or payload (or of the checksum itself) changed after its writer committed it.
     */
    public static QueueCorruptedException recordChecksum(Path file, long position, long index, int stored,
                                                         int computed) {
        return new QueueCorruptedException(file, position, String.format("record checksum mismatch at index %d: the"
                + " record stores CRC32C 0x%08x, its bytes give 0x%08x (a damaged word, time or payload)", index,
                stored, computed));
    }

    public static QueueCorruptedException wrongRecordLength(Path file, long position, int payload, long block, Class<?> type) {
        return new QueueCorruptedException(file, position, "record of " + payload + " bytes where the " + block
                + "-byte block of " + type.getName() + " was expected");
    }

    public static QueueCorruptedException wrongCheckpoint(Path file, long offset, int slot, long position, int from,
                                                          long ordinal, long reached) {
        return new QueueCorruptedException(file, offset, "checkpoint " + slot + " holds position " + position
                + " for the file's record of ordinal " + ((long) slot << SegmentFormat.CHECKPOINT_INTERVAL_SHIFT)
                + ", but the walk from " + (from == 0 ? "the file's first record" : "checkpoint " + from)
                + " is at position " + reached + " at ordinal " + ordinal + ": not a record boundary of that ordinal");
    }

    public static QueueCorruptedException badCheckpoint(Path file, long offset, int slot, long position) {
        return new QueueCorruptedException(file, offset, "checkpoint " + slot + " holds position " + position
                + ", outside the records or not 8-byte aligned");
    }

    public static QueueCorruptedException faultUnderMapping(Path file, long position, long fileSize, long segmentSize,
                                                            boolean writing, InternalError cause) {
        String now = fileSize < 0 ? "is gone" : "is now " + fileSize + " bytes";
        QueueCorruptedException corrupt = new QueueCorruptedException(file, position, "memory fault while "
                + (writing ? "writing" : "reading") + " the record at this offset of the mapped file, which "
                + now + " (its header says " + segmentSize + "): truncated, out of space or failing under a live mapping");
        corrupt.initCause(cause);
        return corrupt;
    }

    // ---- layouts

    /** Message type {@code typeId} of {@code file} is stored in a layout the queue's policy cannot read. */
    public static LayoutMismatchException typeLayoutMismatch(Path file, int typeId, IncompatibleLayoutException cause) {
        String report = cause.comparison().report();
        String message = "message type " + typeId + ": queue file " + file + ": " + cause.getMessage();
        if (!cause.getMessage().contains(report)) {
            message += "\nall differences: " + report;
        }
        LayoutMismatchException mismatch = new LayoutMismatchException(message);
        mismatch.initCause(cause);
        return mismatch;
    }

    /** An appender meets, at a roll, a file another appender started with other message layouts (a rolling deploy). */
    public static LayoutMismatchException queueContinuesInOtherLayouts(Path file, String stored, String mine) {
        return new LayoutMismatchException("the queue continues in " + file + " with message layouts other than this "
                + "appender's (file: " + stored + "; this appender: " + mine + "): a producer with other classes took "
                + "the queue over. Nothing was appended; upgrade this producer to the same message classes "
                + "(docs/queue.md, \"Upgrading\") and open a new appender");
    }

    /**
     * The queue continues in a file of the same types as this appender's but of the other record format (with or without
     * record checksums): a producer with the other {@code recordChecksums} option took the queue over.
     */
    public static LayoutMismatchException queueContinuesInOtherFormat(Path file, int stored, int mine) {
        return new LayoutMismatchException("the queue continues in " + file + " in format " + stored + ", this appender"
                + " writes format " + mine + " (5: records with checksums, QueueOptions.recordChecksums): a producer"
                + " with the other option took the queue over. Nothing was appended; give every producer of the queue"
                + " the same option and open a new appender");
    }

    public static IllegalArgumentException notAMessageType(Class<?> type, String types) {
        return new IllegalArgumentException(type.getName() + " is not one of this queue's message types " + types);
    }

    public static IllegalStateException readOnly(Path dir, String what) {
        return new IllegalStateException("queue " + dir + " is opened read-only: cannot " + what
                + " (open it without Options.readOnly to write)");
    }

    public static IllegalStateException noQueue(Path dir, String why) {
        return new IllegalStateException("no queue to open read-only in " + dir + ": " + why
                + " (a read-only queue creates nothing)");
    }

    public static IllegalArgumentException otherMessageType(long index, int typeId, Class<?> stored, Class<?> into) {
        return new IllegalArgumentException("message " + index + " is a " + stored.getName() + " (type " + typeId
                + "), not a " + into.getName() + "; read a queue of several types with read(MessageHandler)");
    }

    public static IllegalArgumentException unknownTypeId(int typeId, Path dir) {
        return new IllegalArgumentException("queue " + dir + " takes no message type " + typeId);
    }

    public static IllegalStateException rawAppendToTypedFile(Path file) {
        return new IllegalStateException("queue file " + file + " holds several message types: append objects, or "
                + "raw bytes with append(typeId, payload)");
    }

    public static QueueCorruptedException undeclaredTypeSlot(Path file, long position, int slot, int types) {
        return new QueueCorruptedException(file, position, "record of type slot " + slot + " in a file of " + types
                + " type(s)");
    }


    public static LayoutMismatchException rawFileOpenedTyped(Path file, String className) {
        return new LayoutMismatchException("queue file " + file + " holds raw bytes, not " + className + " messages");
    }

    // ---- arguments and state

    public static MessagesDeletedException messagesDeleted(Path dir, long firstMissing, long firstAvailable) {
        return new MessagesDeletedException(dir, firstMissing, firstAvailable);
    }

    public static IllegalArgumentException messageTooLarge(long length, long segmentSize, long maxPayload) {
        return new IllegalArgumentException("a " + length + "-byte message does not fit in a record of a "
                + segmentSize + "-byte segment file (at most " + maxPayload + " payload bytes)");
    }

    public static IllegalArgumentException typeTableTooLarge(int types, int length, int room) {
        return new IllegalArgumentException("the layouts of " + types + " message type(s) take " + length
                + " bytes; a segment file's header holds at most " + room + " (docs/format.md, \"Type table\")");
    }

    public static IllegalArgumentException wrongPayloadLength(long size, int fixed) {
        return new IllegalArgumentException("payload of " + size + " bytes; this queue's messages are " + fixed + " bytes");
    }

    public static IllegalArgumentException targetTooSmall(long index, int length, long capacity) {
        return new IllegalArgumentException("message " + index + " is " + length + " bytes; the target holds " + capacity);
    }

    public static IllegalArgumentException indexBeyondEnd(Path dir, long index, long next) {
        return new IllegalArgumentException("index " + index + " is beyond the end of queue " + dir + " (next index " + next + ")");
    }

    public static IllegalArgumentException indexBeforeStart(Path dir, long index, long first) {
        return new IllegalArgumentException("index " + index + " is before the first file of queue " + dir
                + " (first index " + first + ")");
    }

    public static ReplicaAppendException appendOnReplica(Path dir, String source) {
        // no word of promotion: this may be a former primary rejoining a newer one, which promoted would be a second
        // primary (docs/failover.md says when a replica is promoted: its primary is lost)
        return new ReplicaAppendException("queue " + dir + " is a replica of " + source
                + ": only its replication writes it; append on the primary it follows (" + source + ")");
    }

    public static IllegalStateException replicaWithoutFiles(Path dir, String source) {
        return new IllegalStateException("queue " + dir + " is a replica of " + source
                + " that has received no file yet; open it once its replication has written the first file");
    }

    /** A file of a queue directory is a symbolic link, which Blit never follows there. */
    public static IllegalStateException symbolicLink(Path file) {
        String target;
        try {
            target = java.nio.file.Files.readSymbolicLink(file).toString();
        } catch (java.io.IOException | RuntimeException e) {
            target = "?";
        }
        return new IllegalStateException(file + " is a symbolic link (to " + target + "): Blit never opens or creates"
                + " a file of a queue directory through a link; delete it, and let nobody but the queue's users write "
                + file.getParent());
    }

    /** An appender of a quarantine queue: it is kept to be read, never written. */
    public static IllegalStateException appendOnQuarantine(Path dir, String origin) {
        return new IllegalStateException("queue " + dir + " is a quarantine" + (origin.isEmpty() ? "" : " (" + origin
                + ")") + ": records an old primary appended that its new primary does not hold, set aside when it"
                + " rejoined; it is kept to be read (dump, a read-only tailer), never appended to. To keep its records,"
                + " append them to the live queue (on its primary) from a tailer of this one");
    }

    public static IllegalStateException closed(String what, Path dir) {
        return new IllegalStateException(what + " of " + dir + " is closed");
    }

    public static IllegalStateException openedRaw(Path dir) {
        return new IllegalStateException("queue " + dir + " is opened raw: use the MemorySegment methods");
    }

    // ---- named consumers

    public static IllegalArgumentException badConsumerName(String name, String problem) {
        return new IllegalArgumentException("consumer name \"" + name + "\" must be 1 to " + ConsumerFormat.MAX_NAME_LENGTH
                + " characters of A-Z a-z 0-9 . _ -: " + problem);
    }

    public static ConsumerHeldException consumerHeld(Path dir, String name, long pid, boolean thisProcess) {
        return new ConsumerHeldException("consumer " + name + " of queue " + dir + " is held by "
                + (thisProcess ? "this process (pid " + pid + "): a tailer of that name is open here; close it first"
                        : "live process " + pid + ": one holder at a time; it is taken over once that process is gone"),
                name, pid);
    }

    public static IllegalStateException consumerLost(Path dir, String name, String holder) {
        return new IllegalStateException("named tailer " + name + " of queue " + dir + " no longer holds its name ("
                + holder + "): the commit was not made");
    }

    public static IllegalStateException consumerBeyondEnd(Path dir, String name, long committed,
                                                          IllegalArgumentException cause) {
        IllegalStateException beyond = new IllegalStateException("consumer " + name + " of queue " + dir
                + " committed index " + committed + ", beyond the end of the queue: " + cause.getMessage()
                + " (were the segment files replaced? remove the consumer to start it again)");
        beyond.initCause(cause);
        return beyond;
    }

    public static IllegalStateException consumersFull(Path file, int slots) {
        return new IllegalStateException("consumer positions file " + file + " holds " + slots
                + " names, all used: remove consumers that are no longer needed (BlitQueue.removeConsumer)");
    }

    public static IllegalStateException consumerSlotStuck(Path file, long offset, String writer) {
        return new IllegalStateException("consumer positions file " + file + ": the slot at byte " + offset
                + " has been being created by live " + writer + " for more than 10 s");
    }

    public static IllegalStateException consumerFileInUseByEarlierBuild(Path file, long pid) {
        return new IllegalStateException("consumer positions file " + file + " is of format 1 and in use by live "
                + "process " + pid + " of an earlier Blit build, which cannot read the format this build writes: stop"
                + " it, then open the named consumer again (committed positions are kept)");
    }

    public static QueueCorruptedException badConsumerFile(Path file, long offset, String problem) {
        return new QueueCorruptedException(file, offset, "consumer positions file: " + problem);
    }

    public static QueueCorruptedException badWriterRegistry(Path file, long offset, String problem) {
        return new QueueCorruptedException(file, offset, "writer registry: " + problem);
    }

    public static QueueCorruptedException badConsumerSlot(Path file, long offset, String problem) {
        return new QueueCorruptedException(file, offset, "consumer slot: " + problem);
    }

    public static QueueCorruptedException badConsumerSlot(Path file, long offset, IllegalArgumentException problem) {
        return new QueueCorruptedException(file, offset, "consumer slot: " + problem.getMessage(), problem);
    }

    public static MessagesDeletedException messagesDeleted(MessagesDeletedException deleted, String consumer) {
        MessagesDeletedException named = new MessagesDeletedException(deleted.directory(), deleted.firstMissing(),
                deleted.firstAvailable(), consumer);
        named.initCause(deleted);
        return named;
    }

    public static IllegalStateException notClosable(int count, String thread) {
        return new IllegalStateException(count + " appenders or tailers could not be closed from thread " + thread
                + "; close each in its own thread first");
    }
}
