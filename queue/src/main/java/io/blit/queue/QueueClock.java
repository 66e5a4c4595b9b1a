package io.blit.queue;


/**
 * The clock an appender reads the time of each record from (format 2 records carry it: docs/queue-design.md), and
 * that rolls files by time ({@link QueueOptions#rollEvery}). Set it with {@link QueueOptions#clock}; tests
 * set one they advance by hand.
 *
 * <p><b>Contract.</b> {@link #epochNanos()} returns nanoseconds since 1970-01-01T00:00:00Z, never decreasing as seen
 * by one thread (a time lookup is exact when the times of the records are non-decreasing in index order:
 * {@link BlitQueue#firstIndexAtOrAfter}), and is called from appender threads on every append: it must be
 * thread-safe, not allocate, and be cheap.
 */
@FunctionalInterface
public interface QueueClock {
    /** {@return nanoseconds since the epoch, non-decreasing} */
    long epochNanos();

    /**
     * The clock's lifecycle: every appender calls this once when it opens and {@link #release()} once when it
     * closes, so a clock that needs a resource while it is read (the cached clock's ticker thread) holds it only
     * while an appender uses it. Called from any thread; an implementation must be thread-safe. Does nothing by
     * default.
     */
    default void acquire() {
    }

    /** Ends one {@link #acquire()}; the clock may free its resource at the last. Does nothing by default. */
    default void release() {
    }

    /**
     * {@return the default: the wall clock in milliseconds, read by one background daemon thread
     * ({@code blit-clock}) once a millisecond and cached, as Aeron's conductor keeps its cached clocks} An append then
     * costs one load instead of a clock read (measured in docs/queue-performance.md). The thread runs while an
     * appender using this clock is open. Steps of the wall clock backwards are held (the time stays until the wall
     * clock passes it); a record's time may lag the wall clock by the thread's scheduling delay on a loaded machine.
     */
    static QueueClock cached() {
        return CachedEpochClock.INSTANCE;
    }

    /**
     * {@return the wall clock read on every call ({@link System#currentTimeMillis()}, in nanoseconds), not held
     * monotonic}
     */
    static QueueClock system() {
        return () -> System.currentTimeMillis() * 1_000_000L;
    }
}
