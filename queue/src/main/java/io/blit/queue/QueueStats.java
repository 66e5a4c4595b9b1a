package io.blit.queue;

import java.time.Instant;
import java.util.List;

/**
 * A queue's figures at one moment ({@link BlitQueue#stats()}): what an operator watches.
 *
 * @param endIndex           the end index: the index the next append gets, after the last record committed,
 *                           abandoned or still claimed ({@link BlitQueue#endIndex()})
 * @param files              how many segment files the directory holds
 * @param bytes              their total size in bytes (segment files are full-size from their creation)
 * @param appendRatePerSecond messages appended per second between this sample and the latest earlier sample of the same
 *                           queue object at least one second older (or, within the first second, the oldest), by
 *                           any appender of any process; NaN for the first sample
 * @param consumers          every named consumer with its committed index and lag ({@link BlitQueue#consumers()})
 * @param sampledAt          when the sample was taken
 */
public record QueueStats(long endIndex, int files, long bytes, double appendRatePerSecond,
                         List<ConsumerPosition> consumers, Instant sampledAt) {
    /**
     * Copies {@code consumers} into an unmodifiable list.
     *
     * @throws NullPointerException if {@code consumers} is or holds null
     */
    public QueueStats {
        consumers = List.copyOf(consumers);
    }
}
