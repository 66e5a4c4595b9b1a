package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Appender#append(Object)} takes a one-piece path when the file is mapped, the record fits and its header word
 * is free ({@code Appender.appendInPlace}), and the general path otherwise (first append, roll, a record another
 * appender claimed, a filler): both must give the same records and indices.
 */
class AppendPathsTest {
    private static final long SMALL_SEGMENT = 64 << 10;

    @TempDir
    Path dir;

    @Test
    void twoAppendersTakingTurnsInOneThreadGetEveryIndexOnceAcrossRolls() {
        int count = 5_000; // 64 KiB files hold ~370 records: a dozen rolls, each appender meeting the other's claims
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class,
                QueueOptions.defaults().segmentSize(SMALL_SEGMENT));
             Appender<MarketData> first = queue.appender();
             Appender<MarketData> second = queue.appender();
             Tailer<MarketData> tailer = queue.tailer()) {
            Map<Long, Long> tagOfIndex = new HashMap<>();
            MarketData md = new MarketData();
            for (long tag = 0; tag < count; tag++) {
                md.fillFor(tag, tag);
                long index = (tag % 3 == 0 ? second : first).append(md);
                assertEquals(null, tagOfIndex.put(index, tag), "index " + index + " given twice");
            }
            assertEquals(count, tagOfIndex.size());
            MarketData in = new MarketData();
            for (long index = 0; index < count; index++) {
                assertTrue(tailer.readNext(in), "message " + index);
                long tag = tagOfIndex.get(index);
                assertTrue(in.isConsistentFor(tag), "message " + index + " should hold tag " + tag);
                assertEquals(tag, in.time);
            }
            assertFalse(tailer.readNext(in));
        }
    }

    @Test
    void theFastAndTheGeneralPathWriteTheSameBytes() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class,
                QueueOptions.defaults().segmentSize(SMALL_SEGMENT));
             Appender<MarketData> appender = queue.appender();
             Tailer<MarketData> tailer = queue.tailer();
             Arena arena = Arena.ofConfined()) {
            MarketData md = new MarketData().fillFor(42, 4242);
            int pairs = 1_000; // across rolls too
            for (int i = 0; i < pairs; i++) {
                assertEquals(2L * i, appender.append(md));                // one-piece path (after the first)
                assertEquals(2L * i + 1, appender.append(md, (m, n) -> { // a filler takes the general path
                }));
            }
            assertTrue(queue.fileFirstIndices().length > 1, "the pairs crossed a roll");
            MemorySegment a = arena.allocate(256);
            MemorySegment b = arena.allocate(256);
            for (int i = 0; i < pairs; i++) {
                long lengthA = tailer.readNextBytes(a);
                long lengthB = tailer.readNextBytes(b);
                assertEquals(md.byteSize(), lengthA);
                assertEquals(lengthA, lengthB);
                assertArrayEquals(a.asSlice(0, lengthA).toArray(ValueLayout.JAVA_BYTE),
                        b.asSlice(0, lengthB).toArray(ValueLayout.JAVA_BYTE), "pair " + i);
            }
            assertEquals(-1, tailer.readNextBytes(a));
        }
    }
}
