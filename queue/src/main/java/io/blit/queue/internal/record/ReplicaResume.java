package io.blit.queue.internal.record;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.segment.MappedFaults;
import io.blit.queue.internal.segment.MappedSegment;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Where a replica ({@link io.blit.queue.replica.ReplicaWriter}) resumes in its newest file: the first empty header word after
 * the last complete record (or the file's padding word, or its end).
 *
 * @param position the file offset of that word
 * @param ordinal  the ordinal in the file of the record that goes there
 * @param padded   whether the file ended with a padding word (the next event must be the next file)
 */
public record ReplicaResume(long position, long ordinal, boolean padded) {
    /**
     * Walks {@code file} from its nearest checkpoint to its first empty header word (or its padding word, or its end)
     * and, unless it ended with padding, clears what a killed writer left behind that word.
     *
     * @param leftoverBytes how many bytes from the first empty word on to clear
     *                      ({@link io.blit.queue.replica.ReplicaWriter#MAX_RUN_BYTES})
     * @throws io.blit.queue.QueueCorruptedException if a record word is invalid, a record points past the file's end,
     *                                               or clearing faults
     */
    public static ReplicaResume in(MappedSegment file, long leftoverBytes) {
        RecordScan.Stop end = RecordScan.toOrdinal(file, Long.MAX_VALUE); // over records of every state
        boolean padded = end.word() != RecordStep.FILE_END && RecordHeader.isPadding(end.word());
        if (!padded) {
            clearLeftovers(file, end.position(), leftoverBytes);
        }
        return new ReplicaResume(end.position(), end.ordinal(), padded);
    }

    /**
     * Clears what a writer killed during a run may have left behind the first empty word at {@code position} (see
     * {@link io.blit.queue.replica.ReplicaWriter#MAX_RUN_BYTES}): only the words that are not zero, so that the holes of a
     * sparse file stay holes (a full file system can then still be opened).
     */
    private static void clearLeftovers(MappedSegment file, long position, long leftoverBytes) {
        MemorySegment segment = file.segment();
        long end = Math.min(file.size(), position + leftoverBytes);
        try {
            for (long at = position; at + Long.BYTES <= end; at += Long.BYTES) {
                if (segment.get(ValueLayout.JAVA_LONG, at) != 0) {
                    segment.set(ValueLayout.JAVA_LONG, at, 0);
                }
            }
            MappedFaults.surfacePending();
        } catch (InternalError fault) {
            throw MappedFaults.translate(fault, file, position, true);
        }
    }
}
