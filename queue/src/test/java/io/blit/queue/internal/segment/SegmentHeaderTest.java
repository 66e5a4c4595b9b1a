package io.blit.queue.internal.segment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.record.Checkpoints;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Validation of segment file headers: sizes, indices and lengths a header may state. Fuzzed: SegmentHeaderFuzzTest. */
class SegmentHeaderTest {
    private static final Path FILE = Path.of("segment-00000000000000000000.blitq");
    private static final long FOUR_GIB = 1L << 32;

    @Test
    void aFileOfExactly4GiBIsValid() {
        SegmentHeader.Info info = SegmentHeader.decode(FILE, SegmentHeader.encode(FOUR_GIB, 0, 1, 2, null), FOUR_GIB, 0);
        assertEquals(FOUR_GIB, info.segmentSize());
        assertEquals(FOUR_GIB, SegmentFormat.MAX_SEGMENT_SIZE);
    }

    @Test
    void aHeaderStatingMoreThan4GiBIsCorrupt() {
        for (long size : new long[] {FOUR_GIB + 4096, 1L << 40, Long.MAX_VALUE & ~4095L}) {
            QueueCorruptedException e = assertThrows(QueueCorruptedException.class,
                    () -> SegmentHeader.decode(FILE, SegmentHeader.encode(size, 0, 1, 2, null), size, 0));
            assertEquals(SegmentFormat.SEGMENT_SIZE_OFFSET, e.offset());
            assertTrue(e.getMessage().contains("4294967296"), e.getMessage());
        }
    }

    @Test
    void aHeaderStatingASizeThatIsNotAPageMultipleOrTooSmallIsCorrupt() {
        for (long size : new long[] {70_000, SegmentFormat.RECORDS_START}) {
            QueueCorruptedException e = assertThrows(QueueCorruptedException.class,
                    () -> SegmentHeader.decode(FILE, SegmentHeader.encode(size, 0, 1, 2, null), size, 0));
            assertEquals(SegmentFormat.SEGMENT_SIZE_OFFSET, e.offset());
        }
    }

    @Test
    void aHeaderStatingANegativeFirstIndexIsCorrupt() {
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class,
                () -> SegmentHeader.decode(FILE, SegmentHeader.encode(1 << 16, -1, 1, 2, null), 1 << 16, -1));
        assertEquals(SegmentFormat.FIRST_INDEX_OFFSET, e.offset());
    }

    @Test
    void headerBytesShorterThanTheirFieldsAreCorruptNotAnIndexError() {
        byte[] valid = SegmentHeader.encode(1 << 16, 0, 1, 2, null);
        for (int length : new int[] {0, 5, 20, SegmentFormat.DESCRIPTOR_OFFSET, SegmentFormat.DESCRIPTOR_OFFSET + 3}) {
            assertThrows(QueueCorruptedException.class,
                    () -> SegmentHeader.decode(FILE, Arrays.copyOf(valid, length), 1 << 16, 0), length + " bytes");
        }
    }

    @Test
    void aCopyOfASegmentShorterThanItsHeaderIsCorruptNotAnIndexError() {
        assertThrows(QueueCorruptedException.class, () -> SegmentHeader.copyOf(MemorySegment.ofArray(new byte[10]), FILE));
        byte[] valid = SegmentHeader.encode(1 << 16, 0, 1, 2, null);
        assertThrows(QueueCorruptedException.class,
                () -> SegmentHeader.copyOf(MemorySegment.ofArray(Arrays.copyOf(valid, 59)), FILE));
        assertArrayEquals(Arrays.copyOf(valid, 60), SegmentHeader.copyOf(MemorySegment.ofArray(Arrays.copyOf(valid, 60)), FILE));
    }

    @Test
    void aCheckpointPositionPast4GiBIsNotRecordedTruncated() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment file = arena.allocate(SegmentFormat.RECORDS_START, 8);
            Checkpoints.record(file, SegmentFormat.CHECKPOINT_INTERVAL, FOUR_GIB + SegmentFormat.RECORDS_START);
            assertEquals(0, file.get(ValueLayout.JAVA_INT.withOrder(ByteOrder.nativeOrder()), SegmentFormat.CHECKPOINT_AREA_OFFSET + 4),
                    "no slot rather than a wrong one");
            Checkpoints.record(file, SegmentFormat.CHECKPOINT_INTERVAL, FOUR_GIB - 8);
            assertEquals(FOUR_GIB - 8, Integer.toUnsignedLong(file.get(ValueLayout.JAVA_INT, SegmentFormat.CHECKPOINT_AREA_OFFSET + 4)));
        }
    }
}
