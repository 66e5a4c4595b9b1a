package io.blit.cli;

import io.blit.queue.PendingClaim;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What a one-pass reading command (check, dump, tail without --follow) does where a read finds no message, so that it
 * never presents a queue cut short at a claimed record as whole:
 * <ul>
 *   <li>nothing claimed there: the end of the queue;</li>
 *   <li>a claim whose writer died: keep reading (the tailer steps over it once it has seen it for the abandon grace)
 *       and, once past it, print {@code index N: abandoned by a writer that died};</li>
 *   <li>a claim of a live writer: wait, as a tailer must to keep the order; if it is still not committed after the
 *       abandon grace plus a second, stop and print one line naming the index, the writer and the queue's end
 *       ({@link Outcome#CUT_SHORT}: the command then exits non-zero).</li>
 * </ul>
 * Gaps in the indices read are reported here too, one line per run of abandoned indices. Not thread-safe: one per
 * command run.
 */
public final class ClaimStops {
    /** What the reader does next. */
    public enum Outcome {
        /** Read again: a claim is being waited for or stepped over. */
        READ_ON,
        /** The end of the queue: nothing is claimed at the next index. */
        END,
        /** Stopped at a live writer's claim (its line is printed): the command exits non-zero. */
        CUT_SHORT
    }

    private static final long PATIENCE_BEYOND_GRACE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final PrintStream out;
    /** What starts each line this prints: "" for check, "# " for the commands whose other lines are records. */
    private final String prefix;
    private final long patienceNanos;
    /** The index of a dead writer's claim being waited out, or -1. */
    private long deadClaim = -1;

    /**
     * @param out          where the lines go
     * @param prefix       what starts each line: "" for a check, "# " for the commands whose other lines are records
     * @param abandonGrace the queue's abandon grace: how long a reader sees a dead writer's claim before stepping over it
     */
    public ClaimStops(PrintStream out, String prefix, Duration abandonGrace) {
        this.out = out;
        this.prefix = prefix;
        this.patienceNanos = abandonGrace.toNanos() + PATIENCE_BEYOND_GRACE_NANOS;
    }

    /**
     * Called when a read found no message.
     *
     * @param pending  the reader's {@code pendingClaim()}
     * @param queueEnd the queue's end index (read only for the cut-short line)
     * @param expected the index after the last message the reader handled
     * @param next     the reader's next index, or the bound of its range if lower: at the end, the indices from
     *                 {@code expected} to it were stepped over and are reported ({@link #reportGap})
     * @return what the reader does next
     */
    public Outcome atStop(Supplier<Optional<PendingClaim>> pending, LongSupplier queueEnd, long expected, long next) {
        Optional<PendingClaim> claim = pending.get();
        if (claim.isEmpty()) {
            reportGap(expected, next);
            return Outcome.END;
        }
        PendingClaim at = claim.get();
        if (!at.writerAlive()) {
            deadClaim = at.index();
        } else if (at.watchedNanos() >= patienceNanos) {
            out.println(prefix + "stopped at index " + at.index() + ": claimed by live " + at.writer()
                    + ", not committed for " + TimeUnit.NANOSECONDS.toMillis(at.watchedNanos()) + " ms; the queue's end"
                    + " is " + queueEnd.getAsLong() + ", so the records from " + at.index() + " on were not read");
            return Outcome.CUT_SHORT;
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        return Outcome.READ_ON;
    }

    /**
     * Reports the indices from {@code expected} to {@code next - 1}, which the reader stepped over (no message): the
     * dead writer's claim this waited out as such, the rest as abandoned records.
     */
    public void reportGap(long expected, long next) {
        if (next <= expected) {
            return;
        }
        if (deadClaim >= expected && deadClaim < next) {
            abandoned(expected, deadClaim);
            out.println(prefix + "index " + deadClaim + ": abandoned by a writer that died");
            abandoned(deadClaim + 1, next);
            deadClaim = -1;
        } else {
            abandoned(expected, next);
        }
    }

    private void abandoned(long from, long to) {
        if (to > from) {
            out.println(prefix + "indices " + from + ".." + (to - 1) + " abandoned");
        }
    }
}
