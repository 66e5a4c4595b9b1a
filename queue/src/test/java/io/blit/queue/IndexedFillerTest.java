package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Appender#append(Object, IndexedFiller)}: the message is filled with the index it gets. */
class IndexedFillerTest {
    @TempDir
    Path dir;

    @Test
    void theFillerSeesTheIndexTheMessageGets() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Appender<MarketData> appender = queue.appender();
             Tailer<MarketData> tailer = queue.tailer()) {
            MarketData md = new MarketData();
            long[] seen = new long[1];
            for (int i = 0; i < 1000; i++) {
                long index = appender.append(md, (m, n) -> {
                    seen[0] = n;
                    m.fillFor(n, 7);
                });
                assertEquals(i, index);
                assertEquals(index, seen[0]);
            }
            MarketData in = new MarketData();
            for (int i = 0; i < 1000; i++) {
                assertTrue(tailer.readNext(in));
                assertTrue(in.isConsistentFor(i), "message " + i);
            }
        }
    }

    @Test
    void aFillerThatThrowsAbandonsItsIndexAndTailersSkipIt() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Appender<MarketData> appender = queue.appender();
             Tailer<MarketData> tailer = queue.tailer()) {
            MarketData md = new MarketData();
            assertEquals(0, appender.append(md, (m, n) -> m.fillFor(n, 0)));
            IllegalStateException boom = new IllegalStateException("boom");
            assertSame(boom, assertThrows(IllegalStateException.class, () -> appender.append(md, (m, n) -> {
                throw boom;
            })));
            assertEquals(2, appender.append(md, (m, n) -> m.fillFor(n, 0)));

            MarketData in = new MarketData();
            assertTrue(tailer.readNext(in));
            assertEquals(0, in.securityId);
            assertTrue(tailer.readNext(in), "index 1 was abandoned; the tailer moves on to 2");
            assertEquals(2, in.securityId);
            assertTrue(in.isConsistentFor(2));
            assertFalse(tailer.readNext(in));
        }
    }

    @Test
    void appendingWithANonCapturingFillerAllocatesNothingOnceWarm() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData();
            for (int i = 0; i < 100_000; i++) {
                appender.append(md, (m, n) -> m.fillFor(n, n));
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 100_000; i++) {
                appender.append(md, (m, n) -> m.fillFor(n, n));
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(allocated < 100_000, "100,000 appends allocated " + allocated + " bytes");
        }
    }
}
