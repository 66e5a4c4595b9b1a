package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.blit.queue.internal.directory.TimeRolls;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentHeader;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The value types check the format's limits (the constants of {@code io.blit.queue.internal.format}, which they share
 * with the engine) with checks of their own: each check is pinned here to the engine's decision on the same input.
 */
class FormatLimitsTest {

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
        long[] sizes = {0, 4096, 8192, 12 * 1024 - 4096, 12 * 1024, 12 * 1024 + 1, 16 * 1024, 64L << 20, (64L << 20) + 8,
                (1L << 32) - 4096, 1L << 32, (1L << 32) + 4096, -4096, Long.MAX_VALUE};
        for (long size : sizes) {
            boolean formatTakesIt = SegmentFormat.isValidSegmentSize(size);
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

}
