package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A queue of several types allocates nothing per message: appending any of its types (the type found by class),
 * delivering each record to a per-type handler in its reused instance, and committing a named consumer, measured with
 * the thread's allocated-bytes counter over 100,000 messages each after a warm-up (all within one file: a roll
 * allocates, once per file).
 */
class TypedAllocationTest {
    private static final int MESSAGES = 100_000;
    private static final long BUDGET = 10_000; // bytes for 100,000 messages: far below one object per message

    @TempDir
    Path dir;

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void appendingDispatchingAndCommittingAllocateNothingPerMessage() {
        QueueOptions big = QueueOptions.defaults().segmentSize(256L << 20);
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO, big);
             Appender<Object> appender = queue.appender()) {
            MarketData md = new MarketData().fillFor(1, 2);
            Quote quote = new Quote();
            Object[] messages = {md, md, quote};
            for (int i = 0; i < MESSAGES; i++) {
                appender.append(messages[i % 3]);
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < MESSAGES; i++) {
                appender.append(messages[i % 3]);
            }
            long appending = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(appending < BUDGET, MESSAGES + " typed appends allocated " + appending + " bytes");

            long[] counts = new long[2];
            TypeHandlers perType = TypeHandlers.builder()
                    .on(MarketData.class, (index, m) -> counts[0]++)
                    .on(Quote.class, (index, q) -> counts[1]++)
                    .build();
            MessageHandler<Object> patterns = (index, message) -> {
                if (message instanceof MarketData) {
                    counts[0]++;
                } else if (message instanceof Quote) {
                    counts[1]++;
                }
            };
            try (Tailer<Object> byType = queue.tailer(); Tailer<Object> bySwitch = queue.tailer();
                 NamedTailer<Object> named = queue.tailer("risk")) {
                for (int i = 0; i < MESSAGES; i++) {
                    byType.read(perType);
                    bySwitch.read(patterns);
                    named.read(perType);
                    named.commit();
                }
                before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < MESSAGES; i++) {
                    byType.read(perType);
                    bySwitch.read(patterns);
                    named.read(perType);
                    named.commit();
                }
                long reading = threads.getCurrentThreadAllocatedBytes() - before;
                assertTrue(reading < BUDGET, 3 * MESSAGES + " typed reads and " + MESSAGES + " commits allocated "
                        + reading + " bytes");
                assertEquals(2L * MESSAGES - 1, named.committedIndex());
            }
            assertEquals(6L * MESSAGES, counts[0] + counts[1], "every record delivered to its type's handler");
            assertEquals(3L * 2 * (MESSAGES / 3), counts[1], "every third appended a Quote, read by three readers");
        }
    }
}
