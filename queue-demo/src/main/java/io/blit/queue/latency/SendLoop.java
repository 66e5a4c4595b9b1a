package io.blit.queue.latency;

import java.util.function.BooleanSupplier;

/**
 * The producer's loop: sends every message of a {@link RunPlan} at its intended time. It busy-waits
 * ({@link Thread#onSpinWait()}) until each message's intended send time, then builds and appends it with that time
 * inside. When the producer falls behind (a GC pause, a page fault, a descheduled thread), later messages go out as
 * fast as possible but keep their intended times, so the consumer's latency (receive time minus intended time)
 * includes the wait they suffered: coordinated omission is accounted for.
 */
public final class SendLoop {
    private SendLoop() {
    }

    /**
     * Sends messages {@code 0 .. plan.total() - 1}; message {@code s} is due at {@code startNanos + plan.offsetNanos(s)}.
     * Runs in the sender's thread.
     */
    public static void run(MessageSender sender, RunPlan plan, long startNanos) {
        run(sender, plan, startNanos, () -> false);
    }

    /**
     * As {@link #run(MessageSender, RunPlan, long)}, but stops early, without an exception, when {@code stop}
     * returns true; it is asked once every 1024 messages (e.g. whether the consumer has failed).
     */
    public static void run(MessageSender sender, RunPlan plan, long startNanos, BooleanSupplier stop) {
        long total = plan.total();
        for (long sequence = 0; sequence < total; sequence++) {
            if ((sequence & 1023) == 0 && stop.getAsBoolean()) {
                return;
            }
            long intended = startNanos + plan.offsetNanos(sequence);
            while (System.nanoTime() - intended < 0) {
                Thread.onSpinWait();
            }
            sender.send(sequence, intended);
        }
    }
}
