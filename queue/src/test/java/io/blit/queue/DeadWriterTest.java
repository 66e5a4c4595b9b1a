package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeadWriterTest {
    private static final QueueOptions QUICK_GRACE = QueueOptions.defaults()
            .segmentSize(64 << 10).abandonGrace(Duration.ofMillis(20));

    @TempDir
    Path dir;

    private final long block = new MarketData().byteSize();

    @Test
    void aRecordClaimedByADeadProcessIsAbandonedAndSkipped() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, QUICK_GRACE)) {
            Appender<MarketData> appender = queue.appender();
            MarketData md = new MarketData();
            assertEquals(0, appender.append(md.fillFor(0, 0)));
            long claimedAt = SegmentFormat.RECORDS_START + RecordHeader.messageRecordLength(block);
            long claimed = RecordHeader.claimed(gone.pid(), (int) block + RecordHeader.TIME_LENGTH);
            RecordWords.write(dir, claimedAt, claimed);   // what a writer killed between claim and commit leaves
            assertEquals(2, appender.append(md.fillFor(2, 0)), "appenders skip the claimed record");

            Tailer<MarketData> tailer = queue.tailer();
            assertTrue(tailer.next(md, WaitStrategy.PARK, TimeUnit.SECONDS.toNanos(5)));
            assertTrue(md.isConsistentFor(0));
            assertTrue(tailer.next(md, WaitStrategy.PARK, TimeUnit.SECONDS.toNanos(5)), "index 1 abandoned, 2 read");
            assertTrue(md.isConsistentFor(2));
            assertEquals(3, tailer.index());
            assertEquals(RecordHeader.abandoned(claimed), RecordWords.read(dir, claimedAt));
        }
    }

    @Test
    void aRecordClaimedByALiveWriterHoldsTailersBackUntilTheirTimeout() throws Exception {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, QUICK_GRACE)) {
            Appender<MarketData> appender = queue.appender(); // this process's writer id: a live writer
            long claimedAt = SegmentFormat.RECORDS_START;
            RecordWords.write(dir, claimedAt, RecordHeader.claimed(queue.files().writerId(), (int) block + RecordHeader.TIME_LENGTH));
            MarketData md = new MarketData();
            assertEquals(1, appender.append(md.fillFor(1, 0)));

            Tailer<MarketData> tailer = queue.tailer();
            long start = System.nanoTime();
            assertFalse(tailer.next(md, WaitStrategy.BUSY_SPIN, TimeUnit.MILLISECONDS.toNanos(100)));
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(100));
            assertEquals(0, tailer.index(), "order kept: message 1 waits for message 0");
        }
    }

    @Test
    void aFailedCopyAbandonsItsOwnClaim() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, QUICK_GRACE)) {
            Appender<MarketData> appender = queue.appender();
            MarketData md = new MarketData();
            appender.append(md.fillFor(0, 0));
            // a raw payload whose arena is closed fails inside the copy, after the claim
            java.lang.foreign.MemorySegment dead;
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                dead = arena.allocate(block);
            }
            java.lang.foreign.MemorySegment closed = dead;
            org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> appender.append(closed));
            assertEquals(2, appender.append(md.fillFor(2, 0)));
            Tailer<MarketData> tailer = queue.tailer();
            assertTrue(tailer.readNext(md) && md.isConsistentFor(0));
            assertTrue(tailer.readNext(md) && md.isConsistentFor(2), "abandoned index 1 skipped without waiting");
            assertEquals(3, tailer.index());
        }
    }
}
