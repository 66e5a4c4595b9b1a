package io.blit.queue.internal.record;

import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.writer.WriterLiveness;

/**
 * The record walk: the one algorithm by which every reader of a queue steps from one record to the next — tailers
 * (blocking and not), seeks and the end index, the time lookup, replication's record stream, a replica's resume, and
 * claimers looking for the tail. It is the part of Blit a reader in another language ports first
 * (docs/format.md, "The record walk", which specifies it with the bytes it reads).
 *
 * <h2>The algorithm</h2>
 * <pre>
 * at position p of a file of size S (p starts at 8192, or at a checkpoint; always a multiple of 8):
 *   if p + 8 > S:                  FILE_END   the file is full: continue in the file named for the current index
 *   w = acquire-load the u64 at p
 *   if w == 0:                     EMPTY      nothing written here yet: the end of the queue, for now
 *   if padding bit of w:           PADDING    the file ends here: continue in the file named for the current index
 *                                             (corrupt if p is the file's first record, or w is not exactly a
 *                                             padding word: COMMITTED, length 0, type 0, any claimer)
 *   if state bits of w are 00:                corrupt (only the empty word has state 00)
 *   if type slot of w >= the file's type count (1 if it has none): corrupt (format 1: no type field)
 *   if p + align8(8 + length(w)) > S:         corrupt (the record would end past the file)
 *   COMMITTED:                     a message (or a padding word, above): read it, then p += align8(8 + length)
 *   ABANDONED:                     no message; its index is used up: p += align8(8 + length), index += 1
 *   CLAIMED:                       a writer holds it: wait, or, if its writer is dead (WriterLiveness),
 *                                  step over it as ABANDONED (marking it so, if the reader may write)
 * </pre>
 * Each step over a record (whatever its state) adds 1 to the index; the index of the record at p is the file's
 * first index plus the number of records before it in the file. {@link #wordAt} is one step's look and checks;
 * {@link #next} runs the steps a reader of messages or of stored records takes, handing each CLAIMED record to a
 * {@link Claims} policy. Stateless; thread-safe.
 */
public final class RecordStep {
    /** What {@link #wordAt} and {@link #next} return at a file's end: no header word fits before it. Never a valid word. */
    public static final long FILE_END = -1L;

    /** What a walk does at a record CLAIMED and not committed yet. */
    @FunctionalInterface
    public interface Claims {
        /**
         * Called with the cursor at a CLAIMED {@code word}.
         *
         * @return true if the walk may go on: the cursor was moved past the record (its writer is dead) or the word may
         *         have changed (read it again); false to stop the walk at the record
         */
        boolean pass(RecordCursor cursor, long word);
    }

    /** Stops at every CLAIMED record. */
    public static final Claims STOP_AT_CLAIMS = (cursor, word) -> false;

    private RecordStep() {
    }

    /**
     * The header word at {@code position} of {@code file}, loaded with acquire and checked: 0 (EMPTY), a padding
     * word, a COMMITTED, ABANDONED or CLAIMED word whose record ends inside the file, or {@link #FILE_END}.
     *
     * @throws io.blit.queue.QueueCorruptedException if the word has state 00 but is not 0, has the P bit but is not a
     *                                               padding word (COMMITTED, length 0, type 0), is a padding word at
     *                                               the file's first record, names a type slot the file's table does
     *                                               not have, or its record would end past the file
     */
    public static long wordAt(MappedSegment file, long position) {
        if (position + RecordHeader.LENGTH > file.size()) {
            return FILE_END;
        }
        return checked(file, position, RecordHeader.loadAcquire(file.segment(), position));
    }

    /**
     * {@code word}, found at {@code position} of {@code file} (by a load, or as the witness of a compare-and-set),
     * once it passed {@link #wordAt}'s checks.
     *
     * @throws io.blit.queue.QueueCorruptedException as {@link #wordAt}
     */
    public static long checked(MappedSegment file, long position, long word) {
        if (word == 0) {
            return 0;
        }
        if (RecordHeader.isPadding(word)) {
            if (!file.isPaddingWord(word)) {
                throw QueueErrors.badPaddingWord(file.info().file(), position, word);
            }
            if (position == SegmentFormat.RECORDS_START) {
                throw QueueErrors.paddingAtFirstRecord(file.info().file(), position);
            }
            return word;
        }
        if (RecordHeader.state(word) == RecordHeader.STATE_EMPTY) {
            throw QueueErrors.badRecordWord(file.info().file(), position, word);
        }
        if (!file.typeSlotDeclared(word)) {
            throw QueueErrors.undeclaredTypeSlot(file.info().file(), position, RecordHeader.typeSlot(word),
                    file.info().types().size());
        }
        file.checkedLength(word, position);
        return word;
    }

    /**
     * Walks {@code cursor} within its file, from the record it is at, to the first record a reader stops at: EMPTY
     * (returns 0), a padding word, {@link #FILE_END}, a COMMITTED record, an ABANDONED one if
     * {@code stopAtAbandoned}, or a CLAIMED one that {@code claims} does not pass. ABANDONED records are stepped over
     * otherwise. The cursor is left at the record whose word is returned.
     *
     * @return the checked word of the record the walk stopped at (its length field is safe to use), 0 or
     *         {@link #FILE_END}
     * @throws io.blit.queue.QueueCorruptedException as {@link #wordAt}
     */
    public static long next(RecordCursor cursor, boolean stopAtAbandoned, Claims claims) {
        MappedSegment file = cursor.file();
        while (true) {
            long word = wordAt(file, cursor.position());
            if (word == FILE_END || word == 0 || RecordHeader.isPadding(word)) {
                return word;
            }
            long state = RecordHeader.state(word);
            if (state == RecordHeader.STATE_COMMITTED) {
                return word;
            }
            if (state == RecordHeader.STATE_ABANDONED) {
                if (stopAtAbandoned) {
                    return word;
                }
                cursor.skip(RecordHeader.length(word));
            } else if (!claims.pass(cursor, word)) {
                return word;
            }
        }
    }

    /** Whether {@code word}, as {@link #next} returns it, ends the file: a padding word or {@link #FILE_END}. */
    public static boolean endsFile(long word) {
        return word == FILE_END || (word != 0 && RecordHeader.isPadding(word));
    }
}
