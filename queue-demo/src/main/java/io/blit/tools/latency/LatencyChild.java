package io.blit.tools.latency;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The entry point of the child JVMs of {@link ProcessMode} (internal; started by the harness, not by users):
 *
 * <pre>
 * LatencyChild consumer QUEUE_DIR READY_FILE RESULT_FILE PLAN...   opens a tailer, maps and warms the first file,
 *                                                                  writes READY_FILE, receives, writes RESULT_FILE
 * LatencyChild producer QUEUE_DIR READY_FILE RESULT_FILE PLAN...   waits for READY_FILE, then sends
 * LatencyChild threads  QUEUE_DIR READY_FILE RESULT_FILE PLAN...   thread mode in this JVM, writes RESULT_FILE
 *                                                                  (a kind with JVM flags of its own: ProcessMode)
 * </pre>
 *
 * PLAN is {@link RunPlan#toArgs()}. Exit code 0 on success, 1 with a stack trace on the error stream otherwise.
 */
public final class LatencyChild {
    /** How long the producer waits for the consumer's ready file. */
    static final long READY_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(120);
    private static final long SLACK_NANOS = TimeUnit.SECONDS.toNanos(60);

    /** The line a producer or consumer child prints last: the CPUs its loop ran on ({@link Placement}). */
    static final String CPUS_PREFIX = "ran on CPU(s) ";

    private LatencyChild() {
    }

    public static void main(String[] args) {
        try {
            List<String> list = Arrays.asList(args);
            if (list.size() != 4 + RunPlan.ARG_COUNT) {
                throw new IllegalArgumentException("usage: LatencyChild consumer|producer|threads QUEUE_DIR READY_FILE "
                        + "RESULT_FILE PLAN(" + RunPlan.ARG_COUNT + " values); got " + list);
            }
            Path dir = Path.of(args[1]);
            Path ready = Path.of(args[2]);
            Path result = Path.of(args[3]);
            RunPlan plan = RunPlan.parseArgs(list, 4);
            switch (args[0]) {
                case "consumer" -> {
                    consume(plan, dir, ready, result);
                    System.out.println(CPUS_PREFIX + Placement.takeCpus("consumer"));
                }
                case "producer" -> {
                    produce(plan, dir, ready);
                    System.out.println(CPUS_PREFIX + Placement.takeCpus("producer"));
                }
                case "threads" -> {
                    LatencyResult threads = ThreadMode.run(plan, dir);
                    HistogramFiles.write(result, threads.runs().toArray(new org.HdrHistogram.Histogram[0]));
                    System.out.println(threads.placement());
                }
                default -> throw new IllegalArgumentException("unknown role '" + args[0] + "'");
            }
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    private static void consume(RunPlan plan, Path dir, Path ready, Path result) {
        try (MessageReceiver receiver = plan.kind().receiver(dir, plan.queueOptions())) {
            if (receiver.poll()) {
                throw new IllegalStateException("the queue in " + dir + " is not new: it already holds messages");
            }
            QueuePrefault.prefault(dir, QueuePrefault.bytesNeeded(plan));
            receiver.pretouch(QueuePrefault.bytesNeeded(plan));
            HistogramFiles.writeAtomically(ready, Long.toString(ProcessHandle.current().pid()));
            long start = System.nanoTime();
            long giveUpAfter = READY_TIMEOUT_NANOS + 2 * plan.durationNanos() + SLACK_NANOS;
            HistogramFiles.write(result, ReceiveLoop.run(receiver, plan, () -> System.nanoTime() - start > giveUpAfter));
        }
    }

    private static void produce(RunPlan plan, Path dir, Path ready) {
        long waitStart = System.nanoTime();
        while (!Files.exists(ready)) {
            if (System.nanoTime() - waitStart > READY_TIMEOUT_NANOS) {
                throw new IllegalStateException("the consumer did not write " + ready + " within "
                        + TimeUnit.NANOSECONDS.toSeconds(READY_TIMEOUT_NANOS) + " s");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        try (MessageSender sender = plan.kind().sender(dir, plan.queueOptions())) {
            sender.pretouch(QueuePrefault.bytesNeeded(plan));
            SendLoop.run(sender, plan, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1));
        }
    }
}
