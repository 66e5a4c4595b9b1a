package io.blit.queue.internal.directory;

import io.blit.queue.MessagesDeletedException;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.record.Checkpoints;
import io.blit.queue.internal.record.ClaimWatch;
import io.blit.queue.internal.record.RecordCursor;
import io.blit.queue.internal.record.RecordStep;
import io.blit.queue.internal.record.RecordTimes;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.SegmentFiles;
import java.nio.file.Files;

/**
 * {@code BlitQueue.firstIndexAtOrAfter}: the first message appended at or after a time, found by a binary search over
 * the files (the time of each file's first message), then over the file's checkpoints (the time of every 4096th
 * record), then a walk of at most 4095 records (more only past records abandoned at checkpoints). Each record's time
 * is the one its appender stored in it (format 2); a record of a format-1 file has its file's creation time.
 *
 * <p>Exact when the records' times do not decrease in index order, which holds for the appenders of one process on
 * one {@link io.blit.queue.QueueClock} (each reads the clock right before its claim; two appenders racing for consecutive indices
 * may store times out of order by the time between their clock reads and claims, which the search then resolves to
 * either of them). Reads only (no ABANDONED marking: a dead claimer's record is stepped over), so it works on
 * read-only queues. Maps files in a temporary arena of the caller's thread. Stateless; thread-safe. Not API.
 */
public final class TimeLookup {
    private TimeLookup() {
    }

    public static long firstIndexAtOrAfter(SegmentDirectory files, long epochNanos) {
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
    private static long firstMessageTime(SegmentDirectory files, long first) {
        try (MappedSegment file = files.mapForReading(first, first)) {
            return RecordTimes.firstMessageTime(file);
        } catch (MessagesDeletedException deleted) {
            return Long.MIN_VALUE; // deleted by retention meanwhile: older than anything left
        }
    }

    /**
     * From the last checkpoint of the file of {@code first} whose message is older than {@code epochNanos}, the index of
     * the first message at or after it: walks on into later files, and stops at the end of the queue (the first empty
     * record, or one CLAIMED by a live process), whose index it then returns.
     */
    private static long walkFrom(SegmentDirectory files, long first, long epochNanos) {
        long fileFirst = first;
        while (true) {
            try (RecordCursor walk = RecordCursor.forTailer(fileFirst, SegmentFormat.RECORDS_START, 0)) {
                walk.attach(files.mapForReading(fileFirst, fileFirst));
                if (fileFirst == first) {
                    moveToCheckpointBefore(walk, epochNanos);
                }
                RecordStep.Claims claims = ClaimWatch.stepOverDead(files.writers());
                while (true) {
                    long word = RecordStep.next(walk, false, claims);
                    if (word == 0 || RecordHeader.state(word) == RecordHeader.STATE_CLAIMED) {
                        return walk.index(); // the end of the queue, or a claim of a live writer
                    }
                    if (RecordStep.endsFile(word)) {
                        break;
                    }
                    if (RecordTimes.timeOf(walk) >= epochNanos) {
                        return walk.index();
                    }
                    walk.skip(RecordHeader.length(word));
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
            walk.moveTo(Checkpoints.position(file, mid), (long) mid << SegmentFormat.CHECKPOINT_INTERVAL_SHIFT);
            long word = RecordStep.wordAt(file, walk.position());
            boolean older = RecordHeader.state(word) == RecordHeader.STATE_COMMITTED && !RecordHeader.isPadding(word)
                    && RecordTimes.timeOf(walk) < epochNanos;
            if (older) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        walk.moveTo(Checkpoints.verifiedPosition(file, found), (long) found << SegmentFormat.CHECKPOINT_INTERVAL_SHIFT);
    }
}
