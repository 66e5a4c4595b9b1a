package io.blit.queue.internal.record;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.segment.MappedSegment;

/**
 * Reading the times records carry (format 2: {@link RecordHeader}, "Time"): a committed record's own, a format-1
 * record's its file's creation time, a file's first message's. Stateless; thread-safe as the caller's mapping.
 */
public final class RecordTimes {
    /** How many records a file's first message is looked for among (records abandoned at a file's start). */
    private static final int FIRST_MESSAGE_SEARCH = 4096;

    private RecordTimes() {
    }

    /**
     * The time of the first message of {@code file} (mapped by the caller, who keeps it), or Long.MIN_VALUE if it has
     * none among its first records (yet).
     */
    public static long firstMessageTime(MappedSegment file) {
        // abandoned records, or claimed ones not committed yet, are not the first message: the scan steps over them
        RecordScan.Stop stop = RecordScan.fromStart(file, (position, ordinal, word) -> ordinal == FIRST_MESSAGE_SEARCH
                || RecordHeader.state(word) == RecordHeader.STATE_COMMITTED);
        if (stop.atEnd() || stop.ordinal() == FIRST_MESSAGE_SEARCH) {
            return Long.MIN_VALUE;
        }
        return timeOf(RecordCursor.in(file, stop.position(), stop.ordinal())); // not closed: the mapping is the caller's
    }

    /** The header word at {@code walk}, loaded with acquire. */
    public static long wordAt(RecordCursor walk) {
        return RecordHeader.loadAcquire(walk.segment(), walk.position());
    }

    /** The time of the COMMITTED message at {@code walk}: its own, or its format-1 file's creation time. */
    public static long timeOf(RecordCursor walk) {
        walk.payloadLength(RecordHeader.length(wordAt(walk))); // a committed record shorter than its time is corrupt
        return walk.file().payloadOffset() == RecordHeader.LENGTH ? walk.file().info().createdNanos() : walk.recordTime();
    }
}
