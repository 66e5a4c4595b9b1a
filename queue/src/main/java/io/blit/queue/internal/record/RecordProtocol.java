package io.blit.queue.internal.record;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.segment.MappedFaults;
import io.blit.queue.internal.segment.MappedSegment;
import java.lang.foreign.MemorySegment;

/**
 * The record protocol (docs/queue-design.md, "Protocols") on a {@link RecordCursor}: the one implementation of
 * claim, commit and abandon that {@code Appender} runs on every path and the jcstress tests of module
 * {@code stress-tests} race. An append is claim, copy, commit:
 *
 * <pre>{@code
 * if (!RecordProtocol.tryClaimInPlace(cursor, claimWord, recordLength)) {   // the common case, or
 *     while (!RecordProtocol.claim(cursor, claimWord, paddingWord)) { ... roll to the next file ... }
 * }
 * copy the payload to cursor.payloadPosition()                              // the caller's step
 * RecordProtocol.commit(cursor, claimWord);     // on a failure instead: throw cursor.failure(e), which abandons
 * }</pre>
 *
 * <p>The copy is the caller's, so that its call site stays where the JIT can fold it for the exact message class.
 * {@link #tryClaimInPlace} is the whole claim in the common case (the record fits, its word is free) and small
 * enough for C2 to inline into the caller's append; {@link #claim} does the rest (records other claimers won, the
 * end of the file) with the same compare-and-set and checkpoint step.
 *
 * <h2>Memory ordering</h2>
 * <ul>
 *   <li>A claim is a volatile compare-and-set of the header word (0 to CLAIMED, or to a padding word), so exactly
 *       one claimer wins each word, in any number of threads and processes; the checkpoint of the claimed ordinal
 *       is then written with a release store ({@link Checkpoints#record}), after the CAS.</li>
 *   <li>{@link #commit} and {@link #abandon} are release stores of the word: every plain store before them (the
 *       payload) is visible to a reader that loads the word with {@link RecordHeader#loadAcquire} and sees
 *       COMMITTED.</li>
 *   <li>{@link #abandonDead} is a volatile compare-and-set CLAIMED to ABANDONED: of several readers that notice
 *       the same dead claim, exactly one marks it.</li>
 * </ul>
 *
 * <p>Stateless; thread-safe. The cursor's file may be confined (the queue's) or shared (the stress tests).
 */
public final class RecordProtocol {
    private RecordProtocol() {
    }

    /**
     * Claims the record at {@code cursor} with {@code claimWord} if the cursor's file is mapped, a record of
     * {@code recordLength} bytes fits there and its header word is free; else changes nothing.
     *
     * @param recordLength {@code RecordHeader.recordLength} of {@code claimWord}'s length (the caller's constant)
     * @return true if claimed: the cursor holds the claim and the record's checkpoint (if its ordinal has a slot)
     *         is written; false if the caller must take {@link #claim}
     */
    public static boolean tryClaimInPlace(RecordCursor cursor, long claimWord, long recordLength) {
        MappedSegment file = cursor.file();
        return file != null && cursor.position() + recordLength <= file.size()
                && claimAt(cursor, cursor.segment(), claimWord) == 0L;
    }

    /**
     * Claims the first free header word at or after {@code cursor} with {@code claimWord} (whose length field says
     * how many payload bytes follow), skipping the records other claimers won.
     *
     * @param paddingWord the word to claim instead where the record does not fit in the rest of the file
     * @return true if claimed: the cursor holds the claim at the claimed record, whose checkpoint (if its ordinal
     *         has a slot) is written; false if the file is full (a padding word is there, this call wrote it, or no
     *         header fits): the caller moves to the next file, whose first index is {@code cursor.index()}
     * @throws io.blit.queue.QueueCorruptedException if a header word won by another claimer points past the file's end,
     *                                               or has state bits 00 but is not 0 (a corrupt word)
     */
    public static boolean claim(RecordCursor cursor, long claimWord, long paddingWord) {
        MappedSegment file = cursor.file();
        long need = RecordHeader.recordLength(RecordHeader.length(claimWord));
        while (true) {
            long position = cursor.position();
            long witness;
            if (position + need <= file.size()) {
                witness = claimAt(cursor, file.segment(), claimWord);
                if (witness == 0L) {
                    return true;
                }
            } else if (position + RecordHeader.LENGTH <= file.size()) {
                witness = RecordHeader.compareAndExchange(file.segment(), position, 0L, paddingWord);
                if (witness == 0L) {
                    return false;
                }
            } else {
                return false;
            }
            if (RecordHeader.isPadding(RecordStep.checked(file, position, witness))) {
                return false;
            }
            cursor.skip(RecordHeader.length(witness)); // the record walk's step over a record another claimer won
        }
    }

    /**
     * Ends the cursor's file at its first free header word with a padding word, so that every appender and tailer
     * continues in the next file, whose first index this returns; records other claimers won before it stay and are
     * skipped (their claims are not disturbed). If the file holds no record yet, its first record is first claimed
     * ABANDONED with no payload, so its index is never a message: a file cannot end at its first record (a padding
     * word there reads as corrupt). Used when an appender continues the queue under other message layouts.
     *
     * @return the first index of the next file: the index of the padding word (or of the file's end)
     * @throws io.blit.queue.QueueCorruptedException as {@link #claim}
     */
    public static long endFile(RecordCursor cursor, long writer) {
        MappedSegment file = cursor.file();
        while (true) {
            long position = cursor.position();
            if (position + RecordHeader.LENGTH > file.size()) {
                return cursor.index();
            }
            boolean first = cursor.ordinal() == 0;
            long word = first ? RecordHeader.abandoned(RecordHeader.claimed(writer, 0)) : RecordHeader.padding(writer);
            long witness = RecordHeader.compareAndExchange(file.segment(), position, 0L, word);
            if (witness == 0L) {
                if (!first) {
                    return cursor.index();
                }
                cursor.skip(0);
                continue;
            }
            if (RecordHeader.isPadding(RecordStep.checked(file, position, witness))) {
                return cursor.index();
            }
            cursor.skip(RecordHeader.length(witness));
        }
    }

    /**
     * The claim step of both {@link #tryClaimInPlace} and {@link #claim}: the CAS of the word at the cursor from 0
     * to {@code claimWord} and, if it won, the checkpoint.
     *
     * @return 0 if claimed, else the word another claimer wrote there
     */
    private static long claimAt(RecordCursor cursor, MemorySegment segment, long claimWord) {
        long position = cursor.position();
        long witness = RecordHeader.compareAndExchange(segment, position, 0L, claimWord);
        if (witness == 0L) {
            cursor.holdClaim(claimWord);
            Checkpoints.record(segment, cursor.ordinal(), position);
        }
        return witness;
    }

    /**
     * Publishes the record claimed at {@code cursor} with {@code claimedWord}, whose payload the caller has written:
     * first throws the fault of that copy if the mapping faulted ({@link MappedFaults#surfacePending}: a payload
     * whose copy faulted is never committed), then, in a file with record checksums (format 5), stores the record's
     * CRC32C ({@link RecordCursor#storeChecksum}), then moves the cursor past the record and release-stores the
     * COMMITTED word. Moved first, the cursor no longer holds the claim when the word may be COMMITTED, so no
     * later failure can turn a record a tailer may have read ABANDONED.
     *
     * @throws InternalError the fault of the copy, if any (the cursor still holds the claim)
     */
    public static void commit(RecordCursor cursor, long claimedWord) {
        // Read before the call, which C2 never inlines: they then come from the caller's copy and stay in its frame.
        MemorySegment segment = cursor.segment();
        long position = cursor.position();
        MappedFaults.surfacePending();
        if (cursor.checksums()) { // format 5: over the body written, before the release store publishes it
            cursor.storeChecksum(claimedWord);
        }
        cursor.skip(RecordHeader.length(claimedWord));
        RecordHeader.storeRelease(segment, position, RecordHeader.committed(claimedWord));
    }

    /**
     * Gives up the claim {@code cursor} holds (its payload could not be written): moves the cursor past the record
     * and release-stores the ABANDONED word, which readers skip. {@link RecordCursor#failure} calls it.
     *
     * @throws IllegalStateException if the cursor holds no claim
     */
    public static void abandon(RecordCursor cursor) {
        if (!cursor.holdsClaim()) {
            throw new IllegalStateException("the cursor holds no claim at " + cursor.position());
        }
        MemorySegment segment = cursor.segment();
        long position = cursor.position();
        long claimedWord = cursor.claimedWord();
        cursor.skip(RecordHeader.length(claimedWord));
        RecordHeader.storeRelease(segment, position, RecordHeader.abandoned(claimedWord));
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

    /**
     * Moves a reader past the record at {@code cursor}, whose payload of {@code payloadLength} bytes (its time not
     * counted) it has copied:
     * first throws the fault of that copy if the mapping faulted (the record is then not stepped over).
     *
     * @throws InternalError the fault of the copy, if any
     */
    public static void consume(RecordCursor cursor, long payloadLength) {
        MappedFaults.surfacePending();
        cursor.skipPayload(payloadLength);
    }
}
