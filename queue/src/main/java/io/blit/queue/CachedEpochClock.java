package io.blit.queue;

import java.util.concurrent.locks.LockSupport;

/**
 * {@link QueueClock#cached()}: the wall clock in milliseconds, refreshed once a millisecond by one daemon thread and
 * read with one volatile load. The thread runs while {@link #acquire()} calls outnumber {@link #release()} calls
 * (appenders acquire when created and release when closed); a read while it does not run returns the wall clock
 * directly. Values never decrease: a backward step of the wall clock is held until the clock passes it again.
 *
 * <p>Thread-safe. Memory ordering: the volatile {@link #now} is written by the ticker only, after the first value is
 * set synchronously in {@link #acquire()}.
 */
final class CachedEpochClock implements QueueClock {
    public static final CachedEpochClock INSTANCE = new CachedEpochClock();
    private static final long TICK_NANOS = 1_000_000L;

    private volatile long now;
    private volatile boolean ticking;
    private int users;
    private Thread ticker;

    private CachedEpochClock() {
    }

    @Override
    public long epochNanos() {
        return ticking ? now : Math.max(now, wallNanos());
    }

    /** Starts the ticker thread if it is not running; every call needs one {@link #release()}. */
    @Override
    public synchronized void acquire() {
        if (users++ == 0) {
            now = Math.max(now, wallNanos());
            ticking = true;
            if (ticker == null) {
                ticker = Thread.ofPlatform().daemon().name("blit-clock").start(this::tick);
            }
        }
    }

    /** Lets the ticker stop once no user is left. */
    @Override
    public synchronized void release() {
        if (users > 0 && --users == 0) {
            ticking = false;
        }
    }

    private void tick() {
        while (true) {
            synchronized (this) {
                if (!ticking) {
                    ticker = null;
                    return;
                }
            }
            long wall = wallNanos();
            if (wall > now) {
                now = wall;
            }
            LockSupport.parkNanos(TICK_NANOS);
        }
    }

    private static long wallNanos() {
        return System.currentTimeMillis() * 1_000_000L;
    }
}
