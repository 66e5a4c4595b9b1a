package io.blit.queue.internal.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.writer.WriterLiveness;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class RecordHeaderTest {
    @Test
    void claimedWordCarriesStatePidAndLengthInTheirBits() {
        long word = RecordHeader.claimed(123_456, 144);
        assertEquals(0x4001_E240_0000_0090L, word);
        assertEquals(RecordHeader.STATE_CLAIMED, RecordHeader.state(word));
        assertEquals(123_456, RecordHeader.claimer(word));
        assertEquals(144, RecordHeader.length(word));
        assertFalse(RecordHeader.isPadding(word));
    }

    @Test
    void commitAndAbandonChangeOnlyTheState() {
        long claimed = RecordHeader.claimed(RecordHeader.WRITER_MASK, Integer.MAX_VALUE);
        long committed = RecordHeader.committed(claimed);
        long abandoned = RecordHeader.abandoned(claimed);
        assertEquals(RecordHeader.STATE_COMMITTED, RecordHeader.state(committed));
        assertEquals(RecordHeader.STATE_ABANDONED, RecordHeader.state(abandoned));
        for (long word : new long[] {committed, abandoned}) {
            assertEquals(RecordHeader.WRITER_MASK, RecordHeader.claimer(word));
            assertEquals(Integer.MAX_VALUE, RecordHeader.length(word));
            assertFalse(RecordHeader.isPadding(word));
        }
    }

    @Test
    void paddingIsACommittedWordWithThePaddingBit() {
        long padding = RecordHeader.padding(77);
        assertTrue(RecordHeader.isPadding(padding));
        assertEquals(RecordHeader.STATE_COMMITTED, RecordHeader.state(padding));
        assertEquals(77, RecordHeader.claimer(padding));
        assertEquals(0, RecordHeader.length(padding));
    }

    @Test
    void pidsWiderThan29BitsAreMaskedNotSpilledIntoOtherBits() {
        long word = RecordHeader.claimed((1L << 40) | 5, 8);
        assertEquals(5, RecordHeader.claimer(word));
        assertEquals(RecordHeader.STATE_CLAIMED, RecordHeader.state(word));
        assertFalse(RecordHeader.isPadding(word));
    }

    @Test
    void recordsOccupyHeaderPlusPayloadRoundedUpTo8() {
        assertEquals(8, RecordHeader.recordLength(0));
        assertEquals(16, RecordHeader.recordLength(1));
        assertEquals(16, RecordHeader.recordLength(8));
        assertEquals(24, RecordHeader.recordLength(9));
        assertEquals(152, RecordHeader.recordLength(144));
    }

    @Test
    void claimSucceedsOnlyOnAnEmptyWordAndReturnsTheWitness() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(16, 8);
            long first = RecordHeader.claimed(1, 10);
            assertEquals(0L, RecordHeader.compareAndExchange(segment, 8, 0L, first));
            assertEquals(first, RecordHeader.compareAndExchange(segment, 8, 0L, RecordHeader.claimed(2, 10)));
            RecordHeader.storeRelease(segment, 8, RecordHeader.committed(first));
            assertEquals(RecordHeader.committed(first), RecordHeader.loadAcquire(segment, 8));
        }
    }

    /**
     * A format-1 word holds its claimer's pid in bits 32-60 (the format-1 writer stored the pid modulo 2^29 there; the
     * file has no type field): a pid above 2^22 is read whole, not cut to the 22 bits of later formats' claimer field.
     */
    @Test
    void aFormat1ClaimNamesItsPidFromBits32To60() {
        long pid = (1L << 25) + 5; // above any pid_max: no such process; cut to 22 bits it would read 5
        long word = (RecordHeader.STATE_CLAIMED << RecordHeader.STATE_SHIFT) | (pid << RecordHeader.WRITER_SHIFT) | 8;
        assertEquals("pid " + pid, WriterLiveness.describeClaimer(null, 1, word));
        assertFalse(WriterLiveness.claimerAlive(null, 1, word), "no process has pid " + pid);
        assertEquals(5, RecordHeader.claimer(word, 2), "format 2 and later: bits 32-53 only");
    }
}
