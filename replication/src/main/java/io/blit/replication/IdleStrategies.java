package io.blit.replication;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * How replication's threads (the embedded driver, the source's sessions and control loop, the replica) wait when
 * there is no work: {@code yield} ({@link YieldingIdleStrategy}: the lowest latency; each such thread stays runnable
 * and takes a core whenever no other thread wants it) or {@code backoff} (spin, yield, then park up to 50 µs: less
 * CPU when idle, a wake-up of 50 µs or more). Chosen with the system property {@code blit.replication.idle}
 * (default {@code yield}).
 */
final class IdleStrategies {
    static final String PROPERTY = "blit.replication.idle";

    private IdleStrategies() {
    }

    /**
     * A new idle strategy of the configured kind.
     *
     * @throws IllegalArgumentException if the property names no kind
     */
    static IdleStrategy create() {
        String kind = System.getProperty(PROPERTY, "yield");
        return switch (kind) {
            case "yield" -> new YieldingIdleStrategy();
            case "backoff" -> new BackoffIdleStrategy(100, 10, 1_000, 50_000);
            default -> throw new IllegalArgumentException(PROPERTY + " must be yield or backoff, got " + kind);
        };
    }
}
