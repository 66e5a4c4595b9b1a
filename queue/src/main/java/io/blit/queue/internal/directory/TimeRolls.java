package io.blit.queue.internal.directory;

/**
 * Rolls by time ({@code QueueOptions.rollEvery}, which checks the period): periods aligned to UTC. A period divides a
 * day, so its boundaries fall at the same times of every UTC day (midnight always among them): 1 h rolls at each full
 * hour, 15 min at :00, :15, :30 and :45. Stateless; thread-safe.
 */
public final class TimeRolls {
    private TimeRolls() {
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
