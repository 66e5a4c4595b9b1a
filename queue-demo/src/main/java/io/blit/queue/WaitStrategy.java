package io.blit.queue;

import java.util.concurrent.locks.LockSupport;

/**
 * How a {@link Tailer} waits in {@link Tailer#next(Object, WaitStrategy, long)} while no message is ready.
 * Stateless; the attempt counter is the caller's.
 */
public enum WaitStrategy {
    /** {@link Thread#onSpinWait()}: lowest latency, burns a core. */
    BUSY_SPIN {
        @Override
        public void idle(int attempt) {
            Thread.onSpinWait();
        }
    },
    /** {@link Thread#yield()}: gives the core to other runnable threads between polls. */
    YIELD {
        @Override
        public void idle(int attempt) {
            Thread.yield();
        }
    },
    /** Spins briefly, then parks with exponential back-off from 1 µs up to 1 ms. */
    PARK {
        @Override
        public void idle(int attempt) {
            if (attempt < 100) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(1_000L << Math.min(attempt - 100, 10));
            }
        }
    };

    /**
     * Waits once; {@code attempt} counts the consecutive empty polls so far, from 0. Public so that a caller with
     * its own poll loop (the latency harness polls raw payloads, which {@link Tailer#next} does not cover) waits
     * the same way.
     */
    public abstract void idle(int attempt);
}
