package io.blit.tools.latency;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Cross-thread mode: the consumer polls in a new platform thread, the producer sends in the calling thread, both
 * on one queue in {@code dir} (each with its own {@code BlitQueue}, appender or tailer, as two services in one JVM
 * would). The consumer opens its tailer, brings the file's pages into the page cache ({@link QueuePrefault}) and
 * maps them in its own mapping ({@link MessageReceiver#pretouch}) before the producer starts; the producer maps them
 * for writing ({@link MessageSender#pretouch}) before its schedule starts, so no measured message waits for a page
 * fault. Not pinned: a Java thread cannot be pinned to a CPU without native code; on a 2-CPU machine the two spinning threads occupy both.
 */
public final class ThreadMode {
    /** Extra time the consumer waits beyond the schedule before giving up. */
    private static final long SLACK_NANOS = TimeUnit.SECONDS.toNanos(60);

    private ThreadMode() {
    }

    /**
     * Runs {@code plan} on a new queue in {@code dir} (which must not hold a queue yet).
     *
     * @throws IllegalStateException if the producer or consumer fails (the cause attached), or the queue is not new
     * @throws InterruptedException  if the calling thread is interrupted while waiting for the consumer
     */
    public static LatencyResult run(RunPlan plan, Path dir) throws InterruptedException {
        AtomicBoolean producerStopped = new AtomicBoolean();
        AtomicReference<Throwable> consumerFailure = new AtomicReference<>();
        AtomicReference<Histogram[]> histograms = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(1);
        long giveUpAfter = 2 * plan.durationNanos() + SLACK_NANOS;
        Thread consumer = Thread.ofPlatform().name("latency-consumer").daemon(true).unstarted(() -> {
            try (MessageReceiver receiver = plan.kind().receiver(dir, plan.queueOptions())) {
                if (receiver.poll()) {
                    throw new IllegalStateException("the queue in " + dir + " is not new: it already holds messages");
                }
                QueuePrefault.prefault(dir, QueuePrefault.bytesNeeded(plan));
                receiver.pretouch(QueuePrefault.bytesNeeded(plan));
                long start = System.nanoTime();
                ready.countDown();
                histograms.set(ReceiveLoop.run(receiver, plan,
                        () -> producerStopped.get() || System.nanoTime() - start > giveUpAfter));
            } catch (Throwable t) {
                consumerFailure.set(t);
            } finally {
                ready.countDown();
            }
        });
        consumer.start();
        ready.await();
        if (consumerFailure.get() == null) {
            try (MessageSender sender = plan.kind().sender(dir, plan.queueOptions())) {
                sender.pretouch(QueuePrefault.bytesNeeded(plan));
                SendLoop.run(sender, plan, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1),
                        () -> consumerFailure.get() != null);
            } catch (RuntimeException | Error e) {
                producerStopped.set(true);
                consumer.join();
                throw new IllegalStateException("the producer failed: " + e, e);
            }
        }
        consumer.join();
        Throwable failure = consumerFailure.get();
        if (failure != null) {
            throw new IllegalStateException("the consumer failed: " + failure, failure);
        }
        return new LatencyResult(plan.kind(), "thread", plan.rate(), List.of(histograms.get()),
                Placement.describe(Placement.takeCpus("producer"), Placement.takeCpus("consumer")));
    }
}
