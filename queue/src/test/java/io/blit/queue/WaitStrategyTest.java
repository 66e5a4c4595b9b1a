package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class WaitStrategyTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(WaitStrategy.class)
    void nextTimesOutOnAnEmptyQueueAfterItsTimeOut(WaitStrategy strategy) {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Tailer<MarketData> tailer = queue.tailer()) {
            long timeout = TimeUnit.MILLISECONDS.toNanos(50);
            long start = System.nanoTime();
            assertFalse(tailer.next(new MarketData(), strategy, timeout));
            assertTrue(System.nanoTime() - start >= timeout, "waited the whole time-out");
            assertEquals(0, tailer.index());
        }
    }

    @ParameterizedTest
    @EnumSource(WaitStrategy.class)
    void nextReadsEveryMessageAnotherThreadAppendsWhileItWaits(WaitStrategy strategy) throws Exception {
        int count = 20_000;
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class,
                QueueOptions.defaults().segmentSize(256 << 10));
             Tailer<MarketData> tailer = queue.tailer()) {
            Thread producer = Thread.ofPlatform().start(() -> {
                try (Appender<MarketData> appender = queue.appender()) {
                    MarketData md = new MarketData();
                    for (long n = 0; n < count; n++) {
                        appender.append(md.fillFor(n, n));
                        if (n % 1000 == 0) {
                            Thread.yield(); // let the tailer catch up and wait, repeatedly
                        }
                    }
                }
            });
            MarketData in = new MarketData();
            for (long n = 0; n < count; n++) {
                assertTrue(tailer.next(in, strategy, TimeUnit.SECONDS.toNanos(60)), "timed out at " + n);
                assertTrue(in.isConsistentFor(n), "message " + n);
            }
            producer.join();
            assertFalse(tailer.readNext(in));
        }
    }
}
