package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.blit.queue.internal.RecordHeader;
import io.blit.queue.internal.SegmentHeader;
import io.blit.queue.internal.TimeRolls;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The value types check the format's limits and precompute its record words with constants of their own, so that they
 * use no engine class: each is pinned here to the engine's encoding of the same fact (docs/queue-design.md, "Layers").
 */
class FormatLimitsTest {

    @Test
    void typeLimitsAreTheFormats() {
        assertEquals(SegmentHeader.MAX_TYPE_ID, MessageTypes.MAX_TYPE_ID);
        assertEquals(RecordHeader.MAX_TYPES, MessageTypes.MAX_TYPES);
        assertEquals(SegmentHeader.HEADER_AREA - SegmentHeader.TABLE_OFFSET - 4, MessageTypes.TABLE_ROOM);
    }

    @Test
    void theTypeTableLengthIsTheEncodedTables() {
        MessageTypes<Object> types = MessageTypes.builder(Object.class).add(1, MarketData.class).add(2, Quote.class)
                .add(7, MixedSizes.class).build();
        assertEquals(SegmentHeader.typeTable(FileTables.fileTypesOf(types)).length, types.typeTableLength());
        MessageTypes<MarketData> single = MessageTypes.single(MarketData.class);
        assertEquals(SegmentHeader.typeTable(FileTables.fileTypesOf(single)).length, single.typeTableLength());
    }

    @Test
    void segmentSizeLimitsAreTheFormats() {
        assertEquals(SegmentHeader.MIN_SEGMENT_SIZE, QueueOptions.MIN_SEGMENT_SIZE);
        assertEquals(SegmentHeader.MAX_SEGMENT_SIZE, QueueOptions.MAX_SEGMENT_SIZE);
        long[] sizes = {0, 4096, 8192, 12 * 1024 - 4096, 12 * 1024, 12 * 1024 + 1, 16 * 1024, 64L << 20, (64L << 20) + 8,
                (1L << 32) - 4096, 1L << 32, (1L << 32) + 4096, -4096, Long.MAX_VALUE};
        for (long size : sizes) {
            boolean formatTakesIt = SegmentHeader.isValidSegmentSize(size);
            if (formatTakesIt) {
                assertEquals(size, QueueOptions.defaults().segmentSize(size).segmentSize());
            } else {
                assertThrows(IllegalArgumentException.class, () -> QueueOptions.defaults().segmentSize(size),
                        "segment size " + size);
            }
        }
    }

    @Test
    void everyAcceptedRollPeriodRollsAtDayAlignedBoundaries() {
        long day = Duration.ofDays(1).toNanos();
        for (Duration period : new Duration[] {Duration.ofSeconds(1), Duration.ofMinutes(15), Duration.ofHours(1),
                Duration.ofHours(8), Duration.ofDays(1)}) {
            long nanos = QueueOptions.defaults().rollEvery(period).rollEvery().toNanos();
            assertEquals(day, TimeRolls.boundaryAfter(day - 1, nanos), period + " rolls at midnight");
        }
    }

    @Test
    void recordLengthsAreTheEngines() {
        for (long payload = 0; payload <= 4096; payload++) {
            assertEquals(RecordHeader.messageRecordLength(payload), TypeEntry.recordLengthOf(payload), "payload " + payload);
        }
        long largest = RecordHeader.MAX_PAYLOAD - RecordHeader.TIME_LENGTH;
        assertEquals(RecordHeader.messageRecordLength(largest), TypeEntry.recordLengthOf(largest));
    }

    @Test
    void claimWordsAreTheEngines() {
        int[] payloads = {0, 1, 7, 8, 144, 1024, 65_535, (int) RecordHeader.MAX_PAYLOAD - RecordHeader.TIME_LENGTH};
        for (int slot = 0; slot < MessageTypes.MAX_TYPES; slot++) {
            for (int payload : payloads) {
                long word = TypeEntry.claimWordOf(slot, payload);
                assertEquals(RecordHeader.claimed(0, slot, payload + RecordHeader.TIME_LENGTH), word,
                        "slot " + slot + ", payload " + payload);
                assertEquals(RecordHeader.STATE_CLAIMED, RecordHeader.state(word));
                assertEquals(slot, RecordHeader.typeSlot(word));
                assertEquals(payload + RecordHeader.TIME_LENGTH, RecordHeader.length(word));
            }
        }
    }
}
