package io.blit.queue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * The cached clock never steps back across an acquire that races the ticker.
 *
 * <p>The clock's wall is a counter that grows on every read (a wall clock that never steps back itself), and the
 * ticker is an actor calling {@link CachedEpochClock#tickOnce()} (the clock starts no thread here). The clock was
 * released (no appender), so the ticker's step and the acquire of a new appender race: the ticker may read the wall
 * before the acquire reads it and store after. The acquirer reads the clock after its acquire; the arbiter reads it
 * again at the end. In a package of the queue (this module's jar holds both) to reach the package-private clock.
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
    private final AtomicLong wall = new AtomicLong(1_000);
    private final CachedEpochClock clock = new CachedEpochClock(wall::incrementAndGet, false);
    private long seenAfterAcquire;

    public CachedClockStress() {
        clock.acquire();
        clock.release(); // as after the last appender closed: the ticker is winding down, an acquire comes
    }

    @Actor
    public void ticker() {
        clock.tickOnce();
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
