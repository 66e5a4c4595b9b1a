package io.blit.queue.internal.record;

import static io.blit.queue.internal.format.SegmentFormat.*;

import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.MappedSegment;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The checkpoint area of a segment file: where the records of ordinals 0, 4096, 8192, ... start, so
 * that a seek walks at most 4095 record headers (bytes specified in {@code docs/format.md}, "Checkpoints").
 *
 * <pre>
 * 4096   +------------------------------------------------------------------+
 *        | u32 position of ordinal 0 | u32 of 4096 | u32 of 8192 | ... (1024 slots) |
 * 8192   +------------------------------------------------------------------+
 * </pre>
 *
 * <p>Slot {@code k} is written once, with a release store, by the appender that claimed ordinal
 * {@code k * 4096}, right after its claim; 0 means "not written (yet)": its claimer has not got there
 * or died, and a reader falls back to an earlier slot (slot 0 is implicit: {@link SegmentFormat#RECORDS_START}).
 * Ordinals beyond the 1024th slot (more than 4 Mi records in one file) have no checkpoint. Slots are
 * native-order u32 (atomic access needs it), like the record header words, read unsigned: they address every record
 * of a file of at most {@link SegmentFormat#MAX_SEGMENT_SIZE} (4 GiB), the largest a valid header states. A slot read
 * from a file is checked before use ({@link #position}). Stateless; thread-safe.
 */
public final class Checkpoints {

    private static final VarHandle SLOT = ValueLayout.JAVA_INT.varHandle();

    private Checkpoints() {
    }

    /**
     * Records that ordinal {@code ordinal}'s record starts at {@code position}, if the ordinal has a slot and the
     * position fits in one (below 2^32, as in every file of a valid size); else writes nothing (readers fall back to an
     * earlier slot), never a truncated position.
     */
    public static void record(MemorySegment file, long ordinal, long position) {
        if ((ordinal & (CHECKPOINT_INTERVAL - 1)) == 0 && ordinal != 0 && (ordinal >>> CHECKPOINT_INTERVAL_SHIFT) < CHECKPOINT_SLOTS
                && (position >>> Integer.SIZE) == 0) {
            SLOT.setRelease(file, CHECKPOINT_AREA_OFFSET + (ordinal >>> CHECKPOINT_INTERVAL_SHIFT) * Integer.BYTES, (int) position);
        }
    }

    /**
     * The highest written slot {@code k} with {@code k * 4096 <= ordinal}, or 0.
     * {@code Long.MAX_VALUE} finds the highest written slot of all.
     */
    public static int nearest(MemorySegment file, long ordinal) {
        int limit = (int) Math.min(CHECKPOINT_SLOTS - 1, ordinal >>> CHECKPOINT_INTERVAL_SHIFT);
        if (ordinal == Long.MAX_VALUE) {
            int k = 0;
            while (k + 1 < CHECKPOINT_SLOTS && slot(file, k + 1) != 0) {
                k++;
            }
            return k;
        }
        for (int k = limit; k > 0; k--) {
            if (slot(file, k) != 0) {
                return k;
            }
        }
        return 0;
    }

    /**
     * Where the record of ordinal {@code k * 4096} starts, slot {@code k} being written (or 0).
     *
     * @throws io.blit.queue.QueueCorruptedException if the slot holds a position outside the records or not 8-byte aligned
     */
    public static long position(MappedSegment file, int k) {
        if (k == 0) {
            return RECORDS_START;
        }
        long position = Integer.toUnsignedLong(slot(file.segment(), k));
        if (position < RECORDS_START || position >= file.size() || (position & 7) != 0) {
            throw QueueErrors.badCheckpoint(file.info().file(), CHECKPOINT_AREA_OFFSET + (long) k * Integer.BYTES, k, position);
        }
        return position;
    }

    /**
     * {@link #position}, verified: walks the records (of any state) from the nearest written slot below {@code k} (or
     * the file's first record) to ordinal {@code k * 4096} and checks that the walk lands exactly on the slot's
     * position, so that a slot that is in range but wrong (pointing at another record, or inside one) is never
     * trusted. Costs a walk of at most 4096 record words per written slot skipped below {@code k}.
     *
     * @throws io.blit.queue.QueueCorruptedException if the slot is invalid ({@link #position}), if the walk does not
     *                                               land on its position, or if a record word on the way is corrupt
     */
    public static long verifiedPosition(MappedSegment file, int k) {
        long position = position(file, k);
        if (k == 0) {
            return position;
        }
        long target = (long) k << CHECKPOINT_INTERVAL_SHIFT;
        int from = nearest(file.segment(), target - 1);
        long at = position(file, from);
        long ordinal = (long) from << CHECKPOINT_INTERVAL_SHIFT;
        while (ordinal < target && at < position) {
            long word = RecordStep.wordAt(file, at);
            if (word == 0 || RecordStep.endsFile(word)) {
                break;
            }
            at += RecordHeader.recordLength(RecordHeader.length(word));
            ordinal++;
        }
        if (ordinal != target || at != position) {
            throw QueueErrors.wrongCheckpoint(file.info().file(), CHECKPOINT_AREA_OFFSET + (long) k * Integer.BYTES, k, position,
                    from, ordinal, at);
        }
        return position;
    }

    private static int slot(MemorySegment file, int k) {
        return (int) SLOT.getAcquire(file, CHECKPOINT_AREA_OFFSET + (long) k * Integer.BYTES);
    }
}
