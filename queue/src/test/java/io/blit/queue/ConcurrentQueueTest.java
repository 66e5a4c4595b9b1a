package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.segment.SegmentFiles;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConcurrentQueueTest {
    private static final long THREAD_BASE = 1_000_000L;

    @TempDir
    Path dir;

    /**
     * Two appender threads race for every record (and for creating each next file) while a tailer reads:
     * every index from 0 is read exactly once, in order, intact; each appender's messages keep its order.
     */
    @Test
    void twoAppendersAndOneTailerSeeEveryIndexExactlyOnceInOrder() throws Exception {
        int perThread = 50_000;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, QueueRoundTripTest.SMALL)) {
            Future<long[]> tailed = pool.submit(() -> {
                long[] seen = new long[2 * perThread];
                try (Tailer<MarketData> tailer = queue.tailer()) {
                    MarketData in = new MarketData();
                    for (int i = 0; i < seen.length; i++) {
                        assertEquals(i, tailer.index());
                        assertTrue(tailer.next(in, WaitStrategy.YIELD, TimeUnit.SECONDS.toNanos(20)), "timed out at " + i);
                        assertTrue(in.isConsistentFor(in.securityId), "message " + i);
                        seen[i] = in.securityId;
                    }
                }
                return seen;
            });
            List<Future<long[]>> appended = new ArrayList<>();
            for (int t = 1; t <= 2; t++) {
                long base = t * THREAD_BASE;
                appended.add(pool.submit(() -> {
                    long[] indices = new long[perThread];
                    try (Appender<MarketData> appender = queue.appender()) {
                        MarketData out = new MarketData();
                        go.await();
                        for (int i = 0; i < perThread; i++) {
                            indices[i] = appender.append(out.fillFor(base + i, i));
                        }
                    }
                    return indices;
                }));
            }
            go.countDown();
            BitSet returned = new BitSet();
            for (Future<long[]> f : appended) {
                long previous = -1;
                for (long index : f.get(60, TimeUnit.SECONDS)) {
                    assertTrue(index > previous, "an appender's indices increase");
                    assertTrue(!returned.get((int) index), "index " + index + " returned twice");
                    returned.set((int) index);
                    previous = index;
                }
            }
            assertEquals(2 * perThread, returned.cardinality());
            assertEquals(2 * perThread, returned.nextClearBit(0), "indices contiguous from 0");

            long[] seen = tailed.get(60, TimeUnit.SECONDS);
            long[] next = {THREAD_BASE, 2 * THREAD_BASE};
            int switches = 0;
            for (int i = 1; i < seen.length; i++) {
                switches += seen[i] / THREAD_BASE != seen[i - 1] / THREAD_BASE ? 1 : 0;
            }
            System.out.println("appender switches in the sequence: " + switches); // how much the appenders raced
            for (long id : seen) {
                int thread = (int) (id / THREAD_BASE) - 1;
                assertEquals(next[thread], id, "messages of appender " + (thread + 1) + " in order, each once");
                next[thread]++;
            }
            assertTrue(SegmentFiles.list(dir).length > 50, "rolled across many files");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void appendingMarketDataAllocatesNothingOnceWarm() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Appender<MarketData> appender = queue.appender()) {
            MarketData out = new MarketData();
            for (int i = 0; i < 100_000; i++) {
                appender.append(out.fillFor(i, i));
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 100_000; i++) {
                appender.append(out.fillFor(i, i));
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(allocated < 100_000, "100,000 appends allocated " + allocated + " bytes");
        }
    }
}
