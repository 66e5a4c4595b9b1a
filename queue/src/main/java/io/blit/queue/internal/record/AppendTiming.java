package io.blit.queue.internal.record;

import io.blit.queue.QueueClock;
import io.blit.queue.QueueOptions;

/**
 * Where appenders read each record's time from and how often they start a new file by time
 * ({@link QueueOptions#clock()}, {@link QueueOptions#rollEvery()}). Immutable, thread-safe. Not API.
 *
 * @param clock          the queue's clock
 * @param rollEveryNanos the roll period by time in nanoseconds, 0 for none
 */
public record AppendTiming(QueueClock clock, long rollEveryNanos) {
    /** The timing {@code options} set. */
    public static AppendTiming of(QueueOptions options) {
        return new AppendTiming(options.clock(), options.rollEvery().toNanos());
    }
}
