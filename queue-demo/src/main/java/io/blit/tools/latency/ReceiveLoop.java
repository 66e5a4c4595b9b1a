package io.blit.tools.latency;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.HdrHistogram.Histogram;

/**
 * The consumer's loop: reads every message of a {@link RunPlan}, takes {@link System#nanoTime()} right after each
 * read (and decode), and records {@code receive time - intended send time} into the histogram of the message's run;
 * warm-up messages are recorded into a histogram that is not returned (the same code path as the measured ones).
 * Every message is checked after its time is taken (in order, each once, the content its kind defines), so the
 * checks cost no latency of their own message.
 *
 * <p>Each run's histogram carries the run's start and end time stamps (see {@link #run}). Histograms have 3
 * significant digits and track up to {@value #HIGHEST_TRACKABLE_SECONDS} s; recording
 * allocates nothing.
 */
public final class ReceiveLoop {
    /** Largest latency a histogram can hold; a longer one fails the run (the harness is not measuring then). */
    public static final long HIGHEST_TRACKABLE_SECONDS = 60;
    private static final long HIGHEST_TRACKABLE = TimeUnit.SECONDS.toNanos(HIGHEST_TRACKABLE_SECONDS);

    private ReceiveLoop() {
    }

    /** An empty histogram of the harness's range and precision. */
    public static Histogram newHistogram() {
        return new Histogram(HIGHEST_TRACKABLE, 3);
    }

    /**
     * Receives all {@code plan.total()} messages and returns one histogram per measured run (nanoseconds), time
     * stamped with the run's slot of the schedule: start at the intended send time of its first message, end at that
     * of the first message after it (epoch milliseconds).
     *
     * @param stop checked every 4096 empty polls; when it returns true the loop gives up
     * @throws IllegalStateException if a message arrives out of order, with wrong content, before its intended time
     *                               (the clocks are not comparable) or later than the histogram range, or if
     *                               {@code stop} says to give up (naming how many messages arrived)
     */
    public static Histogram[] run(MessageReceiver receiver, RunPlan plan, BooleanSupplier stop) {
        Histogram[] histograms = new Histogram[plan.runs()];
        for (int r = 0; r < histograms.length; r++) {
            histograms[r] = newHistogram();
        }
        Histogram[] slots = new Histogram[1 + histograms.length]; // [0]: the warm-up's, thrown away
        slots[0] = newHistogram();
        System.arraycopy(histograms, 0, slots, 1, histograms.length);
        long total = plan.total();
        long warmup = plan.warmup();
        long count = plan.count();
        int attempt = 0;
        long intended = 0;
        Placement.sample("consumer");
        for (long expected = 0; expected < total; ) {
            if (!receiver.poll()) {
                if ((++attempt & 0xfff) == 0 && stop.getAsBoolean()) {
                    throw new IllegalStateException("gave up after " + expected + " of " + total
                            + " messages: the producer stopped or is too late");
                }
                plan.waitStrategy().idle(attempt);
                continue;
            }
            long received = System.nanoTime();
            intended = receiver.intendedNanos();
            long latency = received - intended;
            long sequence = receiver.sequence();
            if (sequence != expected) {
                throw new IllegalStateException("expected message " + expected + ", got " + sequence);
            }
            receiver.verify(sequence);
            if (latency < 0 || latency > HIGHEST_TRACKABLE) {
                throw new IllegalStateException("message " + sequence + " has latency " + latency + " ns, outside 0.."
                        + HIGHEST_TRACKABLE + " (clocks of producer and consumer not comparable, or a stall)");
            }
            // Branch-free choice of the histogram: warm-up latencies go to one that is thrown away, so the measured
            // runs execute exactly the code the JIT compiled during the warm-up. (A path or branch first taken at
            // the first measured message makes C2 deoptimise this loop and recompile it, inside run 1.)
            long measured = ~((sequence - warmup) >> 63); // all ones for a measured message, 0 in the warm-up
            slots[(int) (((sequence - warmup) / count + 1) & measured)].recordValue(latency);
            expected++;
            attempt = 0;
            if ((sequence & Placement.SAMPLE_MASK) == 0) {
                Placement.sample("consumer"); // after the message is recorded
            }
        }
        Placement.sample("consumer");
        stampRuns(histograms, plan, intended - plan.offsetNanos(total - 1));
        return histograms;
    }

    /**
     * Sets each run's start and end time stamps (epoch milliseconds, for {@link IntervalLog}): from the intended send
     * time of its first message to the intended send time of the first message after it. Taken from the schedule
     * after the loop, so the measured loop takes no clock reading of its own for them.
     *
     * @param scheduleStart the {@link System#nanoTime()} at which message 0 was meant to be sent
     */
    private static void stampRuns(Histogram[] histograms, RunPlan plan, long scheduleStart) {
        long epochMillis = System.currentTimeMillis();
        long nanos = System.nanoTime();
        for (int r = 0; r < histograms.length; r++) {
            long first = plan.warmup() + r * plan.count();
            long start = scheduleStart + plan.offsetNanos(first);
            long end = scheduleStart + plan.offsetNanos(first + plan.count());
            histograms[r].setStartTimeStamp(epochMillis - (nanos - start) / 1_000_000);
            histograms[r].setEndTimeStamp(epochMillis - (nanos - end) / 1_000_000);
        }
    }
}
