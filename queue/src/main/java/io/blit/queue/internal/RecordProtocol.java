package io.blit.queue.internal;

import java.lang.foreign.MemorySegment;

/**
 * The steps of the record protocol (docs/queue-design.md, "Protocols") on one mapped segment file, each
 * callable on its own: {@code Appender} and {@code Tailer} are built from them, and the jcstress tests of
 * module {@code stress-tests} race them directly.
 *
 * <h2>Memory ordering</h2>
 * <ul>
 *   <li>{@link #claim} is a volatile compare-and-set of the header word (0 to CLAIMED, or to a padding word),
 *       so exactly one claimer wins each word, in any number of threads and processes; the checkpoint of
 *       the claimed ordinal is then written with a release store ({@link Checkpoints#record}), after the CAS.</li>
 *   <li>{@link #commit} and {@link #abandonOwn} are release stores of the word: every plain store before
 *       them (the payload) is visible to a reader that loads the word with
 *       {@link RecordHeader#loadAcquire} and sees COMMITTED.</li>
 *   <li>{@link #abandonDead} is a volatile compare-and-set CLAIMED to ABANDONED: of several readers that
 *       notice the same dead claim, exactly one marks it.</li>
 * </ul>
 *
 * <p>Stateless; thread-safe. The segment may be confined (the queue's cursors) or shared (the stress tests).
 */
public final class RecordProtocol {
    private RecordProtocol() {
    }

    /**
     * Claims the first free header word at or after {@code cursor} in {@code file} with {@code claimWord}
     * (whose length field says how many payload bytes follow), skipping the records other claimers won.
     *
     * @param paddingWord the word to claim instead where the record does not fit in the rest of the file
     * @return true if claimed: the cursor is at the claimed record, whose checkpoint (if its ordinal has a
     *         slot) is written; false if the file is full (a padding word is there, this call wrote it, or
     *         no header fits): the caller moves to the next file, whose first index is the file's first
     *         index plus {@code cursor.ordinal()}
     * @throws io.blit.queue.QueueCorruptedException if a header word won by another claimer points past the file's end
     */
    public static boolean claim(MappedSegment file, RecordCursor cursor, long claimWord, long paddingWord) {
        MemorySegment segment = file.segment();
        long need = RecordHeader.recordLength(RecordHeader.length(claimWord));
        while (true) {
            long position = cursor.position();
            if (position + RecordHeader.LENGTH > file.size()) {
                return false;
            }
            boolean fits = position + need <= file.size();
            long witness = RecordHeader.compareAndExchange(segment, position, 0L, fits ? claimWord : paddingWord);
            if (witness == 0L) {
                if (fits) {
                    Checkpoints.record(segment, cursor.ordinal(), position);
                }
                return fits;
            }
            if (RecordHeader.isPadding(witness)) {
                return false;
            }
            cursor.skip(file.checkedLength(witness, position));
        }
    }

    /**
     * Publishes the record claimed at {@code cursor} with {@code claimedWord}, whose payload the caller has
     * written: a release store of the COMMITTED word. Moves the cursor past the record.
     */
    public static void commit(MemorySegment segment, RecordCursor cursor, long claimedWord) {
        RecordHeader.storeRelease(segment, cursor.position(), RecordHeader.committed(claimedWord));
        cursor.skip(RecordHeader.length(claimedWord));
    }

    /**
     * Gives up the caller's own claim at {@code cursor} (its payload could not be written): a release
     * store of the ABANDONED word, which readers skip. Moves the cursor past the record.
     */
    public static void abandonOwn(MemorySegment segment, RecordCursor cursor, long claimedWord) {
        RecordHeader.storeRelease(segment, cursor.position(), RecordHeader.abandoned(claimedWord));
        cursor.skip(RecordHeader.length(claimedWord));
    }

    /**
     * Marks the claim {@code claimedWord} at {@code position}, whose claimer is known to be dead, ABANDONED:
     * a compare-and-set from exactly that word, so it fails if the word has changed meanwhile.
     *
     * @return true if this call marked it; false if the word was no longer {@code claimedWord}
     */
    public static boolean abandonDead(MemorySegment segment, long position, long claimedWord) {
        return RecordHeader.compareAndExchange(segment, position, claimedWord, RecordHeader.abandoned(claimedWord))
                == claimedWord;
    }
}
