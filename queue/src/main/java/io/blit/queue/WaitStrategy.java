package io.blit.queue;

import java.util.concurrent.locks.LockSupport;

/**
 * How a {@link Tailer} waits in {@link Tailer#next(Object, WaitStrategy, long)} while no message is ready.
 * Stateless; the attempt counter is the caller's.
 *
 * <p>Every poll that finds no message reads the header word the appender is about to claim and write, so it
 * pulls that cache line to the tailer's core and the appender must take it back (the line also holds the end of
 * the previous payload). A tailer that polls every few nanoseconds therefore slows the appender it waits for;
 * {@link #BACK_OFF} polls less often the longer the queue stays empty, so that the tailer then reads a batch of
 * messages the appender has finished with (see {@code docs/queue-performance.md}).
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
    /**
     * Throughput: after the {@code k}-th consecutive empty poll (from 0), spins {@code 2^(k+4)} times
     * {@link Thread#onSpinWait()} (16 to 256; one is some 10-100 ns on current x86, so about 1 µs at first, up to
     * 10-20 µs) before polling again, and from the 32nd on also yields the core ({@link Thread#yield()}) to other
     * runnable threads (the appender, on a machine with few cores). Even the first wait lets a busy appender write
     * several messages, so the tailer takes the cache line of the record being written about once per batch rather
     * than once per message; the price is latency: a message can be seen up to one back-off step late. Where the
     * machine has no core to spare for the tailer (two vCPUs shared by appender, tailer and the queue's file
     * preparation), {@link #PARK} can be the faster one (a measured comparison: {@code docs/queue-performance.md}).
     */
    BACK_OFF {
        @Override
        public void idle(int attempt) {
            int spins = 1 << Math.min(attempt + MIN_BACK_OFF_SHIFT, MAX_BACK_OFF_SHIFT);
            for (int i = 0; i < spins; i++) {
                Thread.onSpinWait();
            }
            if (attempt >= YIELD_AFTER) {
                Thread.yield();
            }
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

    private static final int MIN_BACK_OFF_SHIFT = 4;
    private static final int MAX_BACK_OFF_SHIFT = 8;
    private static final int YIELD_AFTER = 32;

    /**
     * Waits once; {@code attempt} counts the consecutive empty polls so far, from 0. Public so that a caller with
     * its own poll loop (the latency harness polls raw payloads, which {@link Tailer#next} does not cover) waits
     * the same way.
     *
     * @param attempt how many consecutive polls found nothing so far, from 0
     */
    public abstract void idle(int attempt);
}
