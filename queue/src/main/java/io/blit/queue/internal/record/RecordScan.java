package io.blit.queue.internal.record;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.MappedSegment;

/**
 * The one loop over the records of a file, whatever their state: each step is {@link RecordStep#wordAt} (the word
 * loaded with acquire and checked), then the position moves by the record's length and the ordinal by one. The scan
 * ends at the end of the file's records (an EMPTY word, the padding word or the file's end) or where its
 * {@link Visit} says. The tools that look at stored records (the end index, a replica's resume point, settling and
 * cutting a file, the first message's time) all scan with it; readers of messages, which wait at claims and cross
 * files, walk with {@link RecordStep#next} and {@code RecordWalker}. Stateless; thread-safe.
 */
public final class RecordScan {

    /** What a scan does at each record before it steps over it. */
    @FunctionalInterface
    public interface Visit {
        /**
         * Called at the record of ordinal {@code ordinal} at {@code position}, whose checked word is {@code word} (a
         * COMMITTED, ABANDONED or CLAIMED word; never 0, padding or {@link RecordStep#FILE_END}).
         *
         * @return true to stop the scan at this record, false to step over it
         */
        boolean stopAt(long position, long ordinal, long word);
    }

    /** Stops at no record: the scan runs to the end of the file's records. */
    public static final Visit TO_THE_END = (position, ordinal, word) -> false;

    /**
     * Where a scan stopped.
     *
     * @param position the position of the word it stopped at
     * @param ordinal  the ordinal in the file of that word's record
     * @param word     that word: 0 (EMPTY), the padding word, {@link RecordStep#FILE_END}, or the record its visit
     *                 stopped at
     */
    public record Stop(long position, long ordinal, long word) {
        /** {@return whether the file's records end here with its padding word or its end: the next file follows} */
        public boolean endsFile() {
            return RecordStep.endsFile(word);
        }

        /** {@return whether the scan reached the end of the file's records (not a stop of its visit)} */
        public boolean atEnd() {
            return word == 0 || endsFile();
        }
    }

    private RecordScan() {
    }

    /**
     * Scans {@code file} from the record of ordinal {@code ordinal} at {@code position}.
     *
     * @throws io.blit.queue.QueueCorruptedException as {@link RecordStep#wordAt}, for any word it reads
     */
    public static Stop from(MappedSegment file, long position, long ordinal, Visit visit) {
        long at = position;
        long ordinalAt = ordinal;
        while (true) {
            long word = RecordStep.wordAt(file, at);
            if (word == 0 || RecordStep.endsFile(word) || visit.stopAt(at, ordinalAt, word)) {
                return new Stop(at, ordinalAt, word);
            }
            at += RecordHeader.recordLength(RecordHeader.length(word));
            ordinalAt++;
        }
    }

    /** Scans {@code file} from its first record. */
    public static Stop fromStart(MappedSegment file, Visit visit) {
        return from(file, SegmentFormat.RECORDS_START, 0, visit);
    }

    /**
     * Scans {@code file} to the record of ordinal {@code ordinal} (or the end of its records, if sooner), from the
     * nearest checkpoint at or before it, which is verified first ({@link Checkpoints#verifiedPosition}).
     *
     * @throws io.blit.queue.QueueCorruptedException if the checkpoint or a word read is invalid
     */
    public static Stop toOrdinal(MappedSegment file, long ordinal) {
        int checkpoint = Checkpoints.nearest(file.segment(), ordinal);
        long position = Checkpoints.verifiedPosition(file, checkpoint);
        return from(file, position, (long) checkpoint << SegmentFormat.CHECKPOINT_INTERVAL_SHIFT,
                (at, ordinalAt, word) -> ordinalAt == ordinal);
    }
}
