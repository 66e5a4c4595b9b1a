package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.segment.SegmentFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RetentionPolicy#untilConsumed}: files a named consumer has not passed are kept, up to an age or a size past
 * which they are deleted anyway, and the consumer is then told what it lost.
 */
class NamedConsumerRetentionTest {
    /** 64 KiB files: RetentionTest.PER_FILE (358) MarketData records each. */
    private static final QueueOptions SMALL = QueueRoundTripTest.SMALL;
    private static final long FILE = 64 << 10;
    private static final int MESSAGES = 2_000;

    @TempDir
    Path dir;

    private BlitQueue<MarketData> open(RetentionPolicy policy) {
        return BlitQueue.open(dir, MarketData.class, SMALL.retention(policy));
    }

    @Test
    void filesAConsumerHasNotPassedAreKeptAndDeletedOnceItHas() {
        try (BlitQueue<MarketData> queue = open(RetentionPolicy.keepNewestFiles(1).untilConsumed(Duration.ofHours(1)));
             NamedTailer<MarketData> slow = queue.tailer("slow")) {
            NamedTailerTest.append(queue, 0, MESSAGES); // the appender applies the policy at every roll
            long[] firsts = SegmentFiles.list(dir);
            assertTrue(firsts.length >= 5 && firsts[0] == 0, "nothing deleted under the consumer: " + Arrays.toString(firsts));

            NamedTailerTest.read(slow, 0, (int) firsts[3] - 1);
            slow.commit(); // committed firsts[3] - 2: the third file's last index is not committed yet
            assertEquals(List.of(SegmentFiles.path(dir, firsts[0]), SegmentFiles.path(dir, firsts[1])), queue.applyRetention());
            NamedTailerTest.read(slow, firsts[3] - 1, 6);
            slow.commit(); // committed firsts[3] + 4: the third file passed
            assertEquals(List.of(SegmentFiles.path(dir, firsts[2])), queue.applyRetention());
            assertArrayEquals(Arrays.copyOfRange(firsts, 3, firsts.length), SegmentFiles.list(dir));

            NamedTailerTest.read(slow, firsts[3] + 5, (int) (MESSAGES - firsts[3] - 5));
            slow.commit();
            assertEquals(firsts.length - 4, queue.applyRetention().size());
            assertArrayEquals(new long[] {firsts[firsts.length - 1]}, SegmentFiles.list(dir), "the newest stays");
        }
    }

    @Test
    void theSlowestConsumerDecidesAndARemovedOneNoLongerCounts() {
        try (BlitQueue<MarketData> queue = open(RetentionPolicy.keepNewestFiles(1).untilConsumed(Duration.ofHours(1)))) {
            queue.tailer("stopped").close(); // committed -1, held by nobody: still spares everything
            NamedTailerTest.append(queue, 0, MESSAGES);
            try (NamedTailer<MarketData> fast = queue.tailer("fast")) {
                NamedTailerTest.read(fast, 0, MESSAGES);
                fast.commit();
            }
            assertEquals(List.of(), queue.applyRetention());
            assertTrue(queue.removeConsumer("stopped"));
            long[] firsts = SegmentFiles.list(dir);
            assertEquals(firsts.length - 1, queue.applyRetention().size());
        }
    }

    @Test
    void withoutNamedConsumersTheBasePolicyApplies() {
        try (BlitQueue<MarketData> queue = open(RetentionPolicy.keepNewestFiles(2).untilConsumed(FILE))) {
            NamedTailerTest.append(queue, 0, MESSAGES);
            assertEquals(2, SegmentFiles.list(dir).length);
        }
    }

    @Test
    void aKeepAllBaseDeletesNothingWhateverTheLimit() {
        try (BlitQueue<MarketData> queue = open(RetentionPolicy.keepAll().untilConsumed(Duration.ZERO))) {
            queue.tailer("slow").close();
            NamedTailerTest.append(queue, 0, MESSAGES);
            assertEquals(List.of(), queue.applyRetention());
            assertEquals(0, SegmentFiles.list(dir)[0]);
        }
    }

    @Test
    void pastTheAgeLimitFilesAreDeletedAnywayAndTheConsumerIsToldWhatWasLost() {
        try (BlitQueue<MarketData> queue = open(RetentionPolicy.keepNewestFiles(1).untilConsumed(Duration.ZERO));
             NamedTailer<MarketData> slow = queue.tailer("slow")) {
            NamedTailerTest.append(queue, 0, MESSAGES);
            long[] firsts = SegmentFiles.list(dir);
            assertEquals(1, firsts.length, "every file but the newest is past an age of 0: " + Arrays.toString(firsts));

            for (int attempt = 0; attempt < 2; attempt++) {
                MessagesDeletedException e = assertThrows(MessagesDeletedException.class, () -> slow.readNext(new MarketData()));
                assertEquals(0, e.firstMissing());
                assertEquals(firsts[0], e.firstAvailable());
                assertEquals("slow", e.consumer());
                assertTrue(e.getMessage().contains("[0, " + firsts[0] + ")") && e.getMessage().contains("before consumer slow read them"),
                        e.getMessage());
                assertEquals(0, slow.index(), "the consumer stays where it is");
            }
            slow.seek(firsts[0]);
            NamedTailerTest.read(slow, firsts[0], (int) (MESSAGES - firsts[0]));
        }
    }

    @Test
    void aConsumerReopenedAfterItsNextIndexWasDeletedIsToldWhenItReads() {
        try (BlitQueue<MarketData> queue = open(RetentionPolicy.keepNewestFiles(1).untilConsumed(Duration.ZERO))) {
            try (NamedTailer<MarketData> slow = queue.tailer("slow")) {
                NamedTailerTest.append(queue, 0, 10);
                NamedTailerTest.read(slow, 0, 5);
                slow.commit();
            }
            NamedTailerTest.append(queue, 10, MESSAGES);
            long first = SegmentFiles.list(dir)[0];
            try (NamedTailer<MarketData> slow = queue.tailer("slow")) {
                assertEquals(5, slow.index());
                MessagesDeletedException e = assertThrows(MessagesDeletedException.class, () -> slow.readNext(new MarketData()));
                assertEquals(5, e.firstMissing());
                assertEquals(first, e.firstAvailable());
                assertEquals(4, queue.consumers().getFirst().committedIndex(), "the loss is not committed for the consumer");
            }
        }
    }

    @Test
    void pastTheSizeLimitTheOldestFilesAreDeletedAnyway() {
        try (BlitQueue<MarketData> queue = open(RetentionPolicy.keepNewestFiles(1).untilConsumed(3 * FILE))) {
            queue.tailer("slow").close();
            NamedTailerTest.append(queue, 0, MESSAGES);
            long[] firsts = SegmentFiles.list(dir);
            assertEquals(3, firsts.length, "three files of 64 KiB fit in the limit: " + Arrays.toString(firsts));
            assertTrue(firsts[0] > 0);
        }
    }

    @Test
    void withinTheSizeLimitEveryUnpassedFileIsKept() {
        try (BlitQueue<MarketData> queue = open(RetentionPolicy.keepNewestFiles(1).untilConsumed(100 * FILE))) {
            queue.tailer("slow").close();
            NamedTailerTest.append(queue, 0, MESSAGES);
            long[] firsts = SegmentFiles.list(dir);
            assertTrue(firsts.length >= 5 && firsts[0] == 0, Arrays.toString(firsts));
        }
    }

    @Test
    void limitsAreValidated() {
        RetentionPolicy base = RetentionPolicy.keepNewestFiles(1);
        assertThrows(IllegalArgumentException.class, () -> base.untilConsumed(Duration.ofSeconds(-1)));
        assertThrows(IllegalArgumentException.class, () -> base.untilConsumed(0));
        assertThrows(IllegalArgumentException.class, () -> base.untilConsumed(Duration.ZERO).untilConsumed(FILE));
        assertThrows(IllegalArgumentException.class, () -> new RetentionPolicy.UntilConsumed(base, null, Long.MAX_VALUE));
        assertThrows(NullPointerException.class, () -> base.untilConsumed(null));
        RetentionPolicy both = new RetentionPolicy.UntilConsumed(base, Duration.ofDays(1), 1L << 30);
        assertEquals(Duration.ofDays(1), ((RetentionPolicy.UntilConsumed) both).maxAge());
    }
}
