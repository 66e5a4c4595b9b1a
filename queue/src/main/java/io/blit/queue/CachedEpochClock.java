package io.blit.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * {@link QueueClock#cached()}: the wall clock in milliseconds, refreshed once a millisecond by one daemon thread and
 * read with one volatile load. The thread runs while {@link #acquire()} calls outnumber {@link #release()} calls
 * (appenders acquire when created and release when closed); a read while it does not run reads the wall clock.
 * Values never decrease: a backward step of the wall clock is held until the clock passes it again.
 *
 * <p>Thread-safe. Memory ordering: {@link #now} only ever grows: every writer (the ticker, {@link #acquire()}, a read
 * while the ticker does not run) raises it with a compare-and-set to the larger of its value and the wall clock
 * ({@link #advanceTo}), so a writer that read the wall clock before another raised {@code now} can never lower it,
 * and a read that returns a value has stored it (a later read, ticking or not, returns at least as much).
 */
final class CachedEpochClock implements QueueClock {
    public static final CachedEpochClock INSTANCE = new CachedEpochClock(CachedEpochClock::wallNanos, true);
    private static final long TICK_NANOS = 1_000_000L;
    private static final VarHandle NOW;

    static {
        try {
            NOW = MethodHandles.lookup().findVarHandle(CachedEpochClock.class, "now", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final LongSupplier wall;
    private final boolean startsTicker;
    private volatile long now;
    private volatile boolean ticking;
    private int users;
    private Thread ticker;

    /**
     * @param wall         the wall clock in nanoseconds since the epoch
     * @param startsTicker whether {@link #acquire()} starts the ticker thread (false: the caller calls
     *                     {@link #tickOnce()} itself, as the concurrency tests do)
     */
    CachedEpochClock(LongSupplier wall, boolean startsTicker) {
        this.wall = wall;
        this.startsTicker = startsTicker;
    }

    @Override
    public long epochNanos() {
        return ticking ? now : advanceTo(wall.getAsLong());
    }

    /** Starts the ticker thread if it is not running; every call needs one {@link #release()}. */
    @Override
    public synchronized void acquire() {
        if (users++ == 0) {
            advanceTo(wall.getAsLong());
            ticking = true;
            if (ticker == null && startsTicker) {
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

    /** One step of the ticker: {@link #now} raised to the wall clock, if that is later. */
    void tickOnce() {
        advanceTo(wall.getAsLong());
    }

    /**
     * Raises {@link #now} to {@code candidate} unless it is at least that already; {@return the value it holds
     * then}. A compare-and-set, not a check and a store: a candidate read before another writer raised {@code now}
     * is dropped rather than written over the larger value.
     */
    private long advanceTo(long candidate) {
        while (true) {
            long current = now;
            if (candidate <= current) {
                return current;
            }
            if (NOW.compareAndSet(this, current, candidate)) {
                return candidate;
            }
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
            tickOnce();
            LockSupport.parkNanos(TICK_NANOS);
        }
    }

    private static long wallNanos() {
        return System.currentTimeMillis() * 1_000_000L;
    }
}
