package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.Tailer;
import java.nio.file.Path;

/** What the failover tests read from a queue directory of {@link Tick}s, each time through a read-only open. */
final class TickQueues {
    private TickQueues() {
    }

    /** The end index of the queue in {@code dir}. */
    static long endOf(Path dir) {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, QueueOptions.defaults().readOnly(true))) {
            return queue.endIndex();
        }
    }

    /** Asserts that the queue in {@code dir} holds tick {@code n + mark} at each index n from {@code from} to {@code to}. */
    static void assertHolds(Path dir, long from, long to, long mark) {
        try (BlitQueue<Tick> queue = BlitQueue.open(dir, Tick.class, ReplicationTest.SMALL.readOnly(true));
             Tailer<Tick> tailer = queue.tailerFrom(from)) {
            Tick tick = new Tick();
            for (long n = from; n < to; n++) {
                assertTrue(tailer.readNext(tick), dir + " holds index " + n);
                assertTrue(tick.isConsistentFor(n + mark), dir + " index " + n + " holds tick " + tick.sequence);
            }
        }
    }
}
