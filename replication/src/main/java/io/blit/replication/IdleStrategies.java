package io.blit.replication;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * How replication's threads (the embedded driver, the source's sessions and control loop, the replica) wait when
 * there is no work: {@code backoff} (the default: spin, yield, then park up to 50 µs: a wake-up is late by up to
 * that much, but idle threads leave the cores to the busy ones) or {@code yield} ({@link YieldingIdleStrategy}: every such
 * thread stays runnable, the lowest latency only where each has a core of its own, and slower where threads share
 * cores: measured in docs/replication.md). Chosen with the system property {@code blit.replication.idle}.
 * For an application that runs Aeron beside replication (an external media driver named with {@code aeronDir}, a driver
 * of its own, a measurement of Aeron alone) and wants its threads to idle exactly as replication's do. Stateless;
 * thread-safe.
 */
public final class IdleStrategies {
    /** The system property that chooses the idle strategy. */
    public static final String PROPERTY = "blit.replication.idle";

    private IdleStrategies() {
    }

    /**
     * {@return a new idle strategy of the kind the system property {@value #PROPERTY} names}
     *
     * @throws IllegalArgumentException if the property names no kind
     */
    public static IdleStrategy create() {
        String kind = System.getProperty(PROPERTY, "");
        return switch (kind) {
            case "yield" -> new YieldingIdleStrategy();
            case "backoff", "" -> new BackoffIdleStrategy(100, 10, 1_000, 50_000);
            default -> throw new IllegalArgumentException(PROPERTY + " must be yield or backoff, got " + kind);
        };
    }
}
