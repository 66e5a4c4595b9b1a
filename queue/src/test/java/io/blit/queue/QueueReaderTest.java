package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The read API every reader shares: the last index read, commit where a position is kept, waiting reads of bytes. */
class QueueReaderTest {
    private static final QueueOptions QUICK_GRACE = QueueOptions.defaults()
            .segmentSize(64 << 10).abandonGrace(Duration.ofMillis(20));
    private static final long WAIT = TimeUnit.SECONDS.toNanos(30); // bounds a hang; every read below succeeds at once

    @TempDir
    Path dir;

    @Test
    void theLastIndexReadIsTheLastMessageNotTheIndicesSteppedOverAfterIt() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        long block = new MarketData().byteSize();
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, QUICK_GRACE);
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData();
            appender.append(md.fillFor(0, 0));
            long claimedAt = SegmentFormat.RECORDS_START + RecordHeader.messageRecordLength(block);
            RecordWords.write(dir, claimedAt, RecordHeader.claimed(gone.pid(), (int) block + RecordHeader.TIME_LENGTH));
            // index 1: a claim of a dead writer, nothing after it
            try (QueueReader<MarketData> reader = queue.tailer()) {
                assertEquals(-1, reader.lastReadIndex(), "before the first read: the index before the start");
                assertTrue(reader.next(md, WaitStrategy.PARK, WAIT));
                assertEquals(0, reader.lastReadIndex());
                assertFalse(reader.next(md, WaitStrategy.PARK, TimeUnit.MILLISECONDS.toNanos(500)));
                assertEquals(2, reader.index(), "the dead claim at 1 was stepped over after the grace");
                assertEquals(0, reader.lastReadIndex(), "index 1 was stepped over, never read");
            }
        }
    }

    @Test
    void aTailerStartsWithTheIndexBeforeItsStartAsItsLastRead() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            NamedTailerTest.append(queue, 0, 10);
            try (QueueReader<MarketData> reader = queue.tailerFrom(4)) {
                assertEquals(3, reader.lastReadIndex());
                assertTrue(reader.readNext(new MarketData()));
                assertEquals(4, reader.lastReadIndex());
            }
        }
    }

    @Test
    void commitStoresANamedTailersPositionAndIsNothingForAPlainTailer() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            NamedTailerTest.append(queue, 0, 10);
            MarketData md = new MarketData();
            try (QueueReader<MarketData> plain = queue.tailer()) {
                assertTrue(plain.readNext(md));
                plain.commit();
                assertEquals(0, plain.lastReadIndex());
            }
            try (QueueReader<MarketData> named = queue.tailer("risk")) {
                assertTrue(named.readNext(md) && named.readNext(md) && named.readNext(md));
                named.commit();
            }
            try (NamedTailer<MarketData> again = queue.tailer("risk")) {
                assertEquals(2, again.committedIndex(), "commit through the interface stored the named position");
                assertEquals(3, again.index());
            }
        }
    }

    @Test
    void nextBytesReadsWhatIsThereAndTimesOutWithMinusOne() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Arena arena = Arena.ofConfined()) {
            NamedTailerTest.append(queue, 0, 1);
            MemorySegment into = arena.allocate(1024);
            try (QueueReader<MarketData> reader = queue.tailer()) {
                assertEquals(new MarketData().byteSize(), reader.nextBytes(into, WaitStrategy.PARK, WAIT));
                long start = System.nanoTime();
                assertEquals(-1, reader.nextBytes(into, WaitStrategy.PARK, TimeUnit.MILLISECONDS.toNanos(50)));
                assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(50), "waited out its timeout");
                assertEquals(0, reader.lastReadIndex());
            }
        }
    }
}
