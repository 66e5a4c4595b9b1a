package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.format.SegmentFormat;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link BlitQueue#firstIndexAtOrAfter} against the brute force (every message read with its time): exact at, just
 * before and just after every stored time, across file rolls and checkpoints, and on a queue whose writers were
 * killed with SIGKILL.
 */
class TimeLookupTest {
    @TempDir
    Path dir;

    /** One message's index and stored time, as a tailer read it. */
    record Stamped(long index, long time) {
    }

    @ParameterizedTest(name = "segment size {0}")
    @ValueSource(longs = {SegmentFormat.MIN_SEGMENT_SIZE, 2 << 20})
    void lookupsAreExactAcrossRollsAndCheckpointsWithRepeatedTimes(long segmentSize) {
        AtomicLong now = new AtomicLong(FormatV2SampleWriter.FIRST_TIME);
        QueueOptions options = QueueOptions.defaults().segmentSize(segmentSize).clock(now::get);
        boolean small = segmentSize == SegmentFormat.MIN_SEGMENT_SIZE; // 25 records a file
        int count = small ? 3_000 : 40_000; // 2 MiB files hold about 13,000 records: three checkpoints each
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, options);
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData();
            for (int n = 0; n < count; n++) {
                now.set(FormatV2SampleWriter.FIRST_TIME + (n / 3) * 1_000L); // three messages share each microsecond
                appender.append(md.fillFor(n, 0));
            }
            assertTrue(queue.fileFirstIndices().length >= 3, "several files");
            assertExact(queue, readAll(queue), small ? 1 : 7);
        }
    }

    @Test
    void lookupsAreExactOnAQueueWhoseWritersWereKilledWithSigkill() throws Exception {
        long segmentSize = 64 << 10;
        for (int round = 0; round < 3; round++) {
            long next;
            try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class,
                    QueueOptions.defaults().segmentSize(segmentSize))) {
                next = queue.endIndex();
            }
            Process child = new ProcessBuilder(KillDashNineTest.javaCommand(), "--sun-misc-unsafe-memory-access=allow",
                    "-cp", System.getProperty("java.class.path"), KilledProducer.class.getName(), dir.toString(),
                    Long.toString(segmentSize), Long.toString(next)).redirectErrorStream(true).start();
            BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream()));
            assertEquals("started", output.readLine());
            Thread.sleep(150 + 100L * round);
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            assertEquals(137, child.exitValue(), "killed by SIGKILL");
        }
        // looked up before any tailer marked a dead claim ABANDONED, and again after
        // grace 0: a read-only reader steps over a dead claim at once (it never marks it), so that the end of the
        // brute-force read below is the queue's end, never a claim still within its grace
        try (BlitQueue<MarketData> readOnly = BlitQueue.open(dir, MarketData.class,
                QueueOptions.defaults().readOnly(true).abandonGrace(Duration.ZERO))) {
            try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class,
                    QueueOptions.defaults().abandonGrace(Duration.ZERO))) {
                // the brute force, read-only first so that the lookups below meet any dead claim as the writer left it
                assertExact(readOnly, readAllSkippingDeadClaims(readOnly, new ArrayList<>()), 97);
                assertTrue(readOnly.fileFirstIndices().length >= 3, "several files");
                assertExact(queue, readAll(queue), 97);
            }
        }
    }

    /** Every message's time; the queue's tailer marks dead claims ABANDONED (abandon grace 0). */
    private static List<Stamped> readAll(BlitQueue<MarketData> queue) {
        List<Stamped> all = new ArrayList<>();
        try (Tailer<MarketData> tailer = queue.tailer()) {
            MarketData md = new MarketData();
            while (tailer.next(md, WaitStrategy.PARK, TimeUnit.SECONDS.toNanos(1))) {
                all.add(new Stamped(tailer.index() - 1, tailer.lastTimeNanos()));
            }
        }
        return all;
    }

    private static List<Stamped> readAllSkippingDeadClaims(BlitQueue<MarketData> readOnly, List<Stamped> all) {
        try (Tailer<MarketData> tailer = readOnly.tailer()) {
            MarketData md = new MarketData();
            while (tailer.next(md, WaitStrategy.PARK, TimeUnit.SECONDS.toNanos(2))) {
                all.add(new Stamped(tailer.index() - 1, tailer.lastTimeNanos()));
            }
        }
        return all;
    }

    /**
     * For every {@code step}-th message: the lookup of its time, and of one nanosecond before and after, gives the first
     * message (in index order) whose time is at or after it; after the last time, past the last message.
     */
    private static void assertExact(BlitQueue<?> queue, List<Stamped> all, int step) {
        assertTrue(all.size() > 1000, "messages read: " + all.size());
        for (int i = 1; i < all.size(); i++) {
            assertTrue(all.get(i).time() >= all.get(i - 1).time(), "times do not decrease at " + all.get(i).index());
        }
        for (int i = 0; i < all.size(); i += step) {
            for (long delta = -1; delta <= 1; delta++) {
                long time = all.get(i).time() + delta;
                long expected = firstAtOrAfter(all, time);
                if (expected < 0) {
                    continue; // after the last message: checked below
                }
                assertEquals(expected, queue.firstIndexAtOrAfter(Instant.ofEpochSecond(0, time)),
                        "time " + time + " (message " + all.get(i).index() + " " + delta + " ns)");
            }
        }
        long after = queue.firstIndexAtOrAfter(Instant.ofEpochSecond(0, all.getLast().time() + 1));
        assertTrue(after > all.getLast().index(), "after every message: " + after);
        assertEquals(all.getFirst().index(), queue.firstIndexAtOrAfter(Instant.EPOCH));
    }

    private static long firstAtOrAfter(List<Stamped> all, long time) {
        for (Stamped stamped : all) {
            if (stamped.time() >= time) {
                return stamped.index();
            }
        }
        return -1;
    }
}
