package io.blit.queue.internal;

import java.time.Duration;

/**
 * Rolls by time ({@code QueueOptions.rollEvery}): periods aligned to UTC. A period divides a day, so its
 * boundaries fall at the same times of every UTC day (midnight always among them): 1 h rolls at each full hour, 15 min
 * at :00, :15, :30 and :45. Stateless; thread-safe.
 */
public final class TimeRolls {
    private static final long DAY_NANOS = Duration.ofDays(1).toNanos();

    private TimeRolls() {
    }

    /**
     * Checks a roll period: zero (no rolls by time), or a divisor of a day of at least 1 s.
     *
     * @throws IllegalArgumentException if it is neither
     */
    public static void checkPeriod(Duration period) {
        if (period.isZero()) {
            return;
        }
        if (period.isNegative() || period.compareTo(Duration.ofSeconds(1)) < 0 || period.compareTo(Duration.ofDays(1)) > 0
                || DAY_NANOS % period.toNanos() != 0) {
            throw new IllegalArgumentException("rollEvery must be zero (roll by size only) or a period from 1 s to 1 day "
                    + "that divides a day (e.g. PT1H, PT15M, P1D), got " + period);
        }
    }

    /**
     * The first boundary of {@code periodNanos} strictly after {@code epochNanos}: where a file whose records start at
     * that time ends; {@code Long.MAX_VALUE} for a period of 0 (no rolls by time).
     */
    public static long boundaryAfter(long epochNanos, long periodNanos) {
        if (periodNanos == 0) {
            return Long.MAX_VALUE;
        }
        long start = Math.floorDiv(epochNanos, periodNanos) * periodNanos;
        return start > Long.MAX_VALUE - periodNanos ? Long.MAX_VALUE : start + periodNanos;
    }
}
