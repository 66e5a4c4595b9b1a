package io.blit.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.blit.queue.QueueClock;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * The cached clock ({@code QueueClock.cached()}) never steps back across an acquire that races the ticker.
 *
 * <p>The clock's wall is a counter that grows on every read (a wall clock that never steps back itself), and the
 * ticker is an actor calling the clock's {@code tickOnce()} (the clock starts no thread here). The clock was released
 * (no appender), so the ticker's step and the acquire of a new appender race: the ticker may read the wall before the
 * acquire reads it and store after. The acquirer reads the clock after its acquire; the arbiter reads it again at the
 * end. The clock's class is package-private in the queue's API package: its test constructor and step are reached
 * through a private lookup (this module's jar, on the class path, holds both).
 *
 * <p>Result: r1 = 1 if the arbiter's read is at least the acquirer's, 0 if the clock stepped back. A ticker that
 * checks and then stores (rather than compare-and-set) overwrites the acquire's larger value with its older one.
 */
@JCStressTest
@Description("A ticker step racing acquire() never makes the cached clock go back (monotonic compare-and-set).")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "The later read returns at least the earlier one.")
@Outcome(expect = FORBIDDEN, desc = "The clock stepped back: a ticker's older wall reading overwrote a newer value.")
@State
public class CachedClockStress {
    private static final MethodHandle NEW_CLOCK;
    private static final MethodHandle TICK_ONCE;

    static {
        try {
            Class<?> clock = Class.forName("io.blit.queue.CachedEpochClock");
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(clock, MethodHandles.lookup());
            NEW_CLOCK = lookup.findConstructor(clock, MethodType.methodType(void.class, LongSupplier.class,
                    boolean.class)).asType(MethodType.methodType(QueueClock.class, LongSupplier.class, boolean.class));
            TICK_ONCE = lookup.findVirtual(clock, "tickOnce", MethodType.methodType(void.class))
                    .asType(MethodType.methodType(void.class, QueueClock.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final AtomicLong wall = new AtomicLong(1_000);
    private final QueueClock clock;
    private long seenAfterAcquire;

    public CachedClockStress() {
        try {
            LongSupplier counter = wall::incrementAndGet;
            clock = (QueueClock) NEW_CLOCK.invokeExact(counter, false);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot make a cached clock", e);
        }
        clock.acquire();
        clock.release(); // as after the last appender closed: the ticker is winding down, an acquire comes
    }

    @Actor
    public void ticker() {
        try {
            TICK_ONCE.invokeExact(clock);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    @Actor
    public void appenderOpens() {
        clock.acquire();
        seenAfterAcquire = clock.epochNanos();
    }

    @Arbiter
    public void laterRead(I_Result r) {
        r.r1 = clock.epochNanos() >= seenAfterAcquire ? 1 : 0;
    }
}
