package io.blit.queue.internal.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.SegmentHeader;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The protocol steps on one in-memory file image; the races themselves are in module stress-tests (jcstress). */
class RecordProtocolTest {
    private static final long SIZE = SegmentFormat.MIN_SEGMENT_SIZE;
    private static final long START = SegmentFormat.RECORDS_START;
    private static final SegmentHeader.Info INFO = new SegmentHeader.Info(Path.of("image.blitq"), SIZE, 0, 0, 1, null);

    private final Arena arena = Arena.ofConfined();
    private final MappedSegment file = MappedSegment.view(INFO, arena.allocate(SIZE, 8));

    @AfterEach
    void close() {
        file.close(); // a view: leaves the memory alone
        assertTrue(file.segment().scope().isAlive());
        arena.close();
    }

    @Test
    void claimSkipsRecordsOthersWonAndStopsAtTheFirstFreeWord() {
        long other = RecordHeader.claimed(7, 20);
        RecordHeader.storeRelease(file.segment(), START, other);
        RecordCursor cursor = RecordCursor.in(file, START, 0);
        long mine = RecordHeader.claimed(8, 16);

        assertTrue(RecordProtocol.claim(cursor, mine, RecordHeader.padding(8)));
        assertEquals(START + RecordHeader.recordLength(20), cursor.position());
        assertEquals(1, cursor.ordinal());
        assertEquals(mine, RecordHeader.loadAcquire(file.segment(), cursor.position()));
        assertEquals(other, RecordHeader.loadAcquire(file.segment(), START));
    }

    @Test
    void claimOfTheCheckpointedOrdinalWritesItsSlot() {
        long position = START + 64;
        RecordCursor cursor = RecordCursor.in(file, position, SegmentFormat.CHECKPOINT_INTERVAL);
        assertTrue(RecordProtocol.claim(cursor, RecordHeader.claimed(8, 16), RecordHeader.padding(8)));
        assertEquals(1, Checkpoints.nearest(file.segment(), Long.MAX_VALUE));
        assertEquals(position, Checkpoints.position(file, 1));
    }

    @Test
    void claimWritesPaddingWhereTheRecordDoesNotFitAndGivesUp() {
        long position = SIZE - 16;
        RecordCursor cursor = RecordCursor.in(file, position, 3);
        assertFalse(RecordProtocol.claim(cursor, RecordHeader.claimed(8, 16), RecordHeader.padding(8)));
        assertEquals(RecordHeader.padding(8), RecordHeader.loadAcquire(file.segment(), position));
        assertEquals(3, cursor.ordinal());
    }

    @Test
    void claimGivesUpAtAnotherClaimersPaddingWithoutWriting() {
        long second = START + RecordHeader.recordLength(16);
        RecordHeader.storeRelease(file.segment(), START, RecordHeader.committed(RecordHeader.claimed(7, 16)));
        RecordHeader.storeRelease(file.segment(), second, RecordHeader.padding(7));
        RecordCursor cursor = RecordCursor.in(file, START, 0);
        assertFalse(RecordProtocol.claim(cursor, RecordHeader.claimed(8, 16), RecordHeader.padding(8)));
        assertEquals(RecordHeader.padding(7), RecordHeader.loadAcquire(file.segment(), second));
        assertEquals(second, cursor.position());
        assertEquals(1, cursor.ordinal());
    }

    @Test
    void claimRefusesAPaddingWordAsTheFilesFirstRecord() {
        RecordHeader.storeRelease(file.segment(), START, RecordHeader.padding(7));
        RecordCursor cursor = RecordCursor.in(file, START, 0);
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class,
                () -> RecordProtocol.claim(cursor, RecordHeader.claimed(8, 16), RecordHeader.padding(8)));
        assertEquals(START, e.offset());
        assertEquals(RecordHeader.padding(7), RecordHeader.loadAcquire(file.segment(), START), "nothing written");
    }

    @Test
    void claimGivesUpWhereNoHeaderFits() {
        RecordCursor cursor = RecordCursor.in(file, SIZE - 4, 9);
        assertFalse(RecordProtocol.claim(cursor, RecordHeader.claimed(8, 16), RecordHeader.padding(8)));
        assertEquals(9, cursor.ordinal());
    }

    @Test
    void claimRefusesAWonRecordThatExtendsPastTheFile() {
        RecordHeader.storeRelease(file.segment(), START, RecordHeader.claimed(7, (int) SIZE));
        RecordCursor cursor = RecordCursor.in(file, START, 0);
        var e = assertThrows(io.blit.queue.QueueCorruptedException.class,
                () -> RecordProtocol.claim(cursor, RecordHeader.claimed(8, 16), RecordHeader.padding(8)));
        assertTrue(e.getMessage().contains("image.blitq"), e.getMessage());
    }

    @Test
    void commitAndAbandonStoreTheirWordAndMovePastTheRecord() {
        long word = RecordHeader.claimed(8, 20);
        RecordCursor cursor = RecordCursor.in(file, START, 0);
        assertTrue(RecordProtocol.claim(cursor, word, RecordHeader.padding(8)));
        RecordProtocol.commit(cursor, word);
        assertEquals(RecordHeader.committed(word), RecordHeader.loadAcquire(file.segment(), START));
        assertEquals(START + 32, cursor.position());
        assertEquals(1, cursor.ordinal());

        assertTrue(RecordProtocol.claim(cursor, word, RecordHeader.padding(8)));
        RecordProtocol.abandon(cursor);
        assertEquals(RecordHeader.abandoned(word), RecordHeader.loadAcquire(file.segment(), START + 32));
        assertEquals(2, cursor.ordinal());
    }

    @Test
    void tryClaimInPlaceClaimsAFreeWordWhereTheRecordFits() {
        long word = RecordHeader.claimed(8, 16);
        RecordCursor cursor = RecordCursor.in(file, START + 64, SegmentFormat.CHECKPOINT_INTERVAL);
        assertTrue(RecordProtocol.tryClaimInPlace(cursor, word, RecordHeader.recordLength(16)));
        assertEquals(word, RecordHeader.loadAcquire(file.segment(), START + 64));
        assertTrue(cursor.holdsClaim());
        assertEquals(START + 64, cursor.position());
        assertEquals(START + 64, Checkpoints.position(file, 1), "the same checkpoint step as claim");
    }

    @Test
    void tryClaimInPlaceChangesNothingWhereTheWordIsTakenOrTheRecordDoesNotFit() {
        long other = RecordHeader.claimed(7, 20);
        RecordHeader.storeRelease(file.segment(), START, other);
        long word = RecordHeader.claimed(8, 16);
        RecordCursor taken = RecordCursor.in(file, START, 0);
        assertFalse(RecordProtocol.tryClaimInPlace(taken, word, RecordHeader.recordLength(16)));
        assertEquals(other, RecordHeader.loadAcquire(file.segment(), START));
        assertEquals(START, taken.position());
        assertFalse(taken.holdsClaim());

        RecordCursor atEnd = RecordCursor.in(file, SIZE - 16, 3);
        assertFalse(RecordProtocol.tryClaimInPlace(atEnd, word, RecordHeader.recordLength(16)));
        assertEquals(0, RecordHeader.loadAcquire(file.segment(), SIZE - 16), "no padding: claim() writes that");
        assertEquals(3, atEnd.ordinal());
    }

    @Test
    void failureAbandonsTheClaimHeldAndGivesTheFailureBack() {
        long word = RecordHeader.claimed(8, 20);
        RecordCursor cursor = RecordCursor.in(file, START, 0);
        assertTrue(RecordProtocol.claim(cursor, word, RecordHeader.padding(8)));
        IllegalStateException thrown = new IllegalStateException("the filler failed");
        assertSame(thrown, cursor.failure(thrown));
        assertEquals(RecordHeader.abandoned(word), RecordHeader.loadAcquire(file.segment(), START));
        assertFalse(cursor.holdsClaim());
        assertEquals(1, cursor.ordinal());
    }

    @Test
    void aFailureAfterTheCommitAbandonsNothing() {
        long word = RecordHeader.claimed(8, 20);
        RecordCursor cursor = RecordCursor.in(file, START, 0);
        assertTrue(RecordProtocol.claim(cursor, word, RecordHeader.padding(8)));
        RecordProtocol.commit(cursor, word);
        IllegalStateException thrown = new IllegalStateException("after the commit");
        assertSame(thrown, cursor.failure(thrown));
        assertEquals(RecordHeader.committed(word), RecordHeader.loadAcquire(file.segment(), START));
        assertEquals(0, RecordHeader.loadAcquire(file.segment(), START + 32));
        assertEquals(1, cursor.ordinal());
    }

    @Test
    void failureRethrowsAnErrorThatIsNoMappedFaultAfterAbandoning() {
        long word = RecordHeader.claimed(8, 20);
        RecordCursor cursor = RecordCursor.in(file, START, 0);
        assertTrue(RecordProtocol.claim(cursor, word, RecordHeader.padding(8)));
        InternalError other = new InternalError("not a fault of the mapping");
        assertSame(other, assertThrows(InternalError.class, () -> cursor.failure(other)));
        assertEquals(RecordHeader.abandoned(word), RecordHeader.loadAcquire(file.segment(), START));
    }

    @Test
    void commitEndsTheClaimAndAbandonRefusesACursorThatHoldsNone() {
        long word = RecordHeader.claimed(8, 20);
        RecordCursor cursor = RecordCursor.in(file, START, 0);
        assertFalse(cursor.holdsClaim());
        assertThrows(IllegalStateException.class, () -> RecordProtocol.abandon(cursor));
        assertTrue(RecordProtocol.claim(cursor, word, RecordHeader.padding(8)));
        assertTrue(cursor.holdsClaim());
        RecordProtocol.commit(cursor, word);
        assertFalse(cursor.holdsClaim());
        assertThrows(IllegalStateException.class, () -> RecordProtocol.abandon(cursor));
        assertEquals(RecordHeader.committed(word), RecordHeader.loadAcquire(file.segment(), START));
    }

    @Test
    void abandonDeadSucceedsOnlyFromTheSameClaimedWord() {
        long word = RecordHeader.claimed(7, 16);
        RecordHeader.storeRelease(file.segment(), START, word);
        assertFalse(RecordProtocol.abandonDead(file.segment(), START, RecordHeader.claimed(7, 24)));
        assertTrue(RecordProtocol.abandonDead(file.segment(), START, word));
        assertFalse(RecordProtocol.abandonDead(file.segment(), START, word));
        assertEquals(RecordHeader.abandoned(word), RecordHeader.loadAcquire(file.segment(), START));
    }

    @Test
    void viewRefusesASegmentOfAnotherSizeNamingTheFile() {
        var e = assertThrows(IllegalArgumentException.class,
                () -> MappedSegment.view(INFO, arena.allocate(SIZE - 8, 8)));
        assertTrue(e.getMessage().contains("image.blitq"), e.getMessage());
    }
}
