package io.blit.queue;

import io.blit.queue.internal.Checkpoints;
import io.blit.queue.internal.MappedSegment;
import io.blit.queue.internal.QueueErrors;
import io.blit.queue.internal.RecordCursor;
import io.blit.queue.internal.RecordHeader;
import io.blit.queue.internal.SegmentFiles;
import io.blit.queue.internal.SegmentHeader;
import java.nio.file.Files;

/**
 * {@link BlitQueue#firstIndexAtOrAfter}: the first message appended at or after a time, found by a binary search over
 * the files (the time of each file's first message), then over the file's checkpoints (the time of every 4096th
 * record), then a walk of at most 4095 records (more only past records abandoned at checkpoints). Each record's time
 * is the one its appender stored in it (format 2); a record of a format-1 file has its file's creation time.
 *
 * <p>Exact when the records' times do not decrease in index order, which holds for the appenders of one process on
 * one {@link QueueClock} (each reads the clock right before its claim; two appenders racing for consecutive indices
 * may store times out of order by the time between their clock reads and claims, which the search then resolves to
 * either of them). Reads only (no ABANDONED marking: a dead claimer's record is stepped over), so it works on
 * read-only queues. Maps files in a temporary arena of the caller's thread. Stateless; thread-safe.
 */
final class TimeLookup {
    /** How many records a file's first message is looked for among (records abandoned at a file's start). */
    private static final int FIRST_MESSAGE_SEARCH = 4096;

    private TimeLookup() {
    }

    static long firstIndexAtOrAfter(SegmentDirectory<?> files, long epochNanos) {
        long[] firsts = files.firsts();
        int lo = 0;
        int hi = firsts.length - 1;
        int before = -1; // the last file whose first message was appended before the time
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            long first = firstMessageTime(files, firsts[mid]);
            if (first != Long.MIN_VALUE && first < epochNanos) {
                before = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return before < 0 ? firsts[0] : walkFrom(files, firsts[before], epochNanos);
    }

    /** The time of the first message of the file of {@code first}, or Long.MIN_VALUE if it has none (yet). */
    private static long firstMessageTime(SegmentDirectory<?> files, long first) {
        try (MappedSegment file = files.mapForReading(first, first)) {
            return firstMessageTime(file);
        } catch (MessagesDeletedException deleted) {
            return Long.MIN_VALUE; // deleted by retention meanwhile: older than anything left
        }
    }

    /**
     * The time of the first message of {@code file} (mapped by the caller, who keeps it), or Long.MIN_VALUE if it has
     * none among its first records (yet).
     */
    static long firstMessageTime(MappedSegment file) {
        RecordCursor walk = RecordCursor.in(file, SegmentHeader.RECORDS_START, 0); // not closed: the mapping is the caller's
        for (int i = 0; i < FIRST_MESSAGE_SEARCH && walk.position() + RecordHeader.LENGTH <= file.size(); i++) {
            long word = wordAt(walk);
            if (word == 0 || RecordHeader.isPadding(word)) {
                return Long.MIN_VALUE;
            }
            if (RecordHeader.state(word) == RecordHeader.STATE_COMMITTED) {
                return timeOf(walk);
            }
            walk.skip(file.checkedLength(word, walk.position()));
        }
        return Long.MIN_VALUE;
    }

    /**
     * From the last checkpoint of the file of {@code first} whose message is older than {@code epochNanos}, the index of
     * the first message at or after it: walks on into later files, and stops at the end of the queue (the first empty
     * record, or one CLAIMED by a live process), whose index it then returns.
     */
    private static long walkFrom(SegmentDirectory<?> files, long first, long epochNanos) {
        long fileFirst = first;
        while (true) {
            try (RecordCursor walk = RecordCursor.forTailer(fileFirst, SegmentHeader.RECORDS_START, 0)) {
                walk.attach(files.mapForReading(fileFirst, fileFirst));
                if (fileFirst == first) {
                    moveToCheckpointBefore(walk, epochNanos);
                }
                while (walk.position() + RecordHeader.LENGTH <= walk.file().size()) {
                    long word = wordAt(walk);
                    long state = RecordHeader.state(word);
                    if (word == 0) {
                        return walk.index();
                    }
                    if (RecordHeader.isPadding(word)) {
                        break;
                    }
                    if (state == RecordHeader.STATE_COMMITTED && timeOf(walk) >= epochNanos) {
                        return walk.index();
                    }
                    if (state == RecordHeader.STATE_CLAIMED && claimerAlive(word)) {
                        return walk.index();
                    }
                    if (state == RecordHeader.STATE_EMPTY) {
                        throw QueueErrors.badRecordWord(walk.file().info().file(), walk.position(), word);
                    }
                    walk.skip(walk.file().checkedLength(word, walk.position()));
                }
                fileFirst = walk.index();
            }
            if (!Files.exists(SegmentFiles.path(files.path(), fileFirst))) {
                return fileFirst;
            }
        }
    }

    /** Binary search over the written checkpoints for the last one whose record is a message older than the time. */
    private static void moveToCheckpointBefore(RecordCursor walk, long epochNanos) {
        MappedSegment file = walk.file();
        int lo = 1;
        int hi = Checkpoints.nearest(file.segment(), Long.MAX_VALUE);
        int found = 0;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            walk.moveTo(Checkpoints.position(file, mid), (long) mid << Checkpoints.INTERVAL_SHIFT);
            long word = wordAt(walk);
            boolean older = RecordHeader.state(word) == RecordHeader.STATE_COMMITTED && !RecordHeader.isPadding(word)
                    && timeOf(walk) < epochNanos;
            if (older) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        walk.moveTo(Checkpoints.position(file, found), (long) found << Checkpoints.INTERVAL_SHIFT);
    }

    private static long wordAt(RecordCursor walk) {
        return RecordHeader.loadAcquire(walk.segment(), walk.position());
    }

    /** The time of the COMMITTED message at {@code walk}: its own, or its format-1 file's creation time. */
    private static long timeOf(RecordCursor walk) {
        walk.payloadLength(RecordHeader.length(wordAt(walk))); // a committed record shorter than its time is corrupt
        return walk.file().payloadOffset() == RecordHeader.LENGTH ? walk.file().info().createdNanos() : walk.recordTime();
    }

    private static boolean claimerAlive(long word) {
        long pid = RecordHeader.pid(word);
        return pid == (ProcessHandle.current().pid() & RecordHeader.PID_MASK)
                || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
