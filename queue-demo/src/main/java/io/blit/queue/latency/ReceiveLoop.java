package io.blit.queue.latency;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.HdrHistogram.Histogram;

/**
 * The consumer's loop: reads every message of a {@link RunPlan}, takes {@link System#nanoTime()} right after each
 * read (and decode), and records {@code receive time - intended send time} into the histogram of the message's run;
 * warm-up messages are read but not recorded. Every message is checked after its time is taken (in order, each
 * once, the content its kind defines), so the checks cost no latency of their own message.
 *
 * <p>Histograms have 3 significant digits and track up to {@value #HIGHEST_TRACKABLE_SECONDS} s; recording
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
     * Receives all {@code plan.total()} messages and returns one histogram per measured run (nanoseconds).
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
        long total = plan.total();
        long warmup = plan.warmup();
        long count = plan.count();
        int attempt = 0;
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
            long latency = received - receiver.intendedNanos();
            long sequence = receiver.sequence();
            if (sequence != expected) {
                throw new IllegalStateException("expected message " + expected + ", got " + sequence);
            }
            receiver.verify(sequence);
            if (latency < 0 || latency > HIGHEST_TRACKABLE) {
                throw new IllegalStateException("message " + sequence + " has latency " + latency + " ns, outside 0.."
                        + HIGHEST_TRACKABLE + " (clocks of producer and consumer not comparable, or a stall)");
            }
            if (sequence >= warmup) {
                histograms[(int) ((sequence - warmup) / count)].recordValue(latency);
            }
            expected++;
            attempt = 0;
        }
        return histograms;
    }
}
