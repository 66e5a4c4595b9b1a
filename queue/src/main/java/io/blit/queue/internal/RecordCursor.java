package io.blit.queue.internal;

/**
 * Where an appender stands in one segment file: the position of a record header word and the ordinal
 * (0-based, within the file) of the record there. Every position and ordinal is derivable by walking the
 * headers from {@link SegmentHeader#RECORDS_START}, so this is a cache of that walk, never a second
 * source of truth.
 *
 * <p>Mutable and not thread-safe: one per appender (or per stress-test actor).
 */
public final class RecordCursor {
    private long position;
    private long ordinal;

    public RecordCursor(long position, long ordinal) {
        moveTo(position, ordinal);
    }

    /** Position of the header word the cursor is at; a multiple of 8. */
    public long position() {
        return position;
    }

    /** Ordinal in the file of the record at {@link #position()}. */
    public long ordinal() {
        return ordinal;
    }

    public void moveTo(long position, long ordinal) {
        this.position = position;
        this.ordinal = ordinal;
    }

    /** Moves past the record at the cursor, whose payload is {@code payloadLength} bytes. */
    public void skip(long payloadLength) {
        position += RecordHeader.recordLength(payloadLength);
        ordinal++;
    }
}
