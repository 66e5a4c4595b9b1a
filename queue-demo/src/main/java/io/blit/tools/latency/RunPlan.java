package io.blit.tools.latency;

import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.WaitStrategy;
import java.util.List;

/**
 * What one harness invocation does for one message kind: {@code warmup} messages (not recorded), then {@code runs}
 * measured runs of {@code count} messages each, all sent back to back on one fixed schedule of {@code rate}
 * messages per second. Message {@code s} (from 0) is meant to be sent at {@code start + s * 1e9 / rate} ns; run
 * {@code r} holds sequences {@code [warmup + r * count, warmup + (r + 1) * count)}. Immutable.
 *
 * @param kind         the message kind
 * @param rate         messages per second, 1..10^9
 * @param warmup       messages sent first and not recorded, >= 0
 * @param count        messages per measured run, >= 1
 * @param runs         measured runs, >= 1
 * @param waitStrategy how the consumer waits between polls
 * @param segmentSize  size of the queue's segment files (bytes; a multiple of 4096)
 * @param recordChecksums whether the queue's records carry checksums ({@link QueueOptions#recordChecksums()})
 */
public record RunPlan(LatencyKind kind, long rate, long warmup, long count, int runs, WaitStrategy waitStrategy,
                      long segmentSize, boolean recordChecksums) {
    /** Upper bound on the messages of one plan, so that {@code sequence * 1e9} never overflows. */
    public static final long MAX_MESSAGES = 1_000_000_000L;

    /**
     * @throws IllegalArgumentException naming the value if any bound above is broken
     */
    public RunPlan {
        if (rate < 1 || rate > 1_000_000_000L) {
            throw new IllegalArgumentException("rate must be 1..1000000000 messages/s, got " + rate);
        }
        if (warmup < 0) {
            throw new IllegalArgumentException("warm-up must be >= 0 messages, got " + warmup);
        }
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1 message per run, got " + count);
        }
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be >= 1, got " + runs);
        }
        if (warmup + (double) count * runs > MAX_MESSAGES) {
            throw new IllegalArgumentException("warm-up + count * runs must be <= " + MAX_MESSAGES + ", got "
                    + warmup + " + " + count + " * " + runs);
        }
        QueueOptions.defaults().segmentSize(segmentSize); // validates the size, with the queue's own message
    }

    /**
     * A plan of a queue without record checksums.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public RunPlan(LatencyKind kind, long rate, long warmup, long count, int runs, WaitStrategy waitStrategy,
                   long segmentSize) {
        this(kind, rate, warmup, count, runs, waitStrategy, segmentSize, false);
    }

    /** Messages sent in all: warm-up plus every run. */
    public long total() {
        return warmup + count * runs;
    }

    /** Nanoseconds from the schedule's start to message {@code sequence}'s intended send time. */
    public long offsetNanos(long sequence) {
        return sequence * 1_000_000_000L / rate;
    }

    /** How long the whole schedule takes, in nanoseconds. */
    public long durationNanos() {
        return offsetNanos(total());
    }

    /**
     * The queue options of this plan: its segment size, the default abandon grace, and the background preparation of
     * the next file only if the run may need one. When the whole run fits in the first file (the harness's default
     * size, {@link #fitsOneFile()}), preparing a second one would only be a burst of zero-filling in a third thread
     * while the producer and consumer spin (on a 2-CPU machine it took a core from one of them in the first runs).
     */
    public QueueOptions queueOptions() {
        return QueueOptions.defaults().segmentSize(segmentSize).prepareNextFile(!fitsOneFile())
                .recordChecksums(recordChecksums);
    }

    /** Whether all {@link #total()} messages fit in one segment file of {@link #segmentSize()} bytes. */
    public boolean fitsOneFile() {
        return QueuePrefault.bytesNeeded(this) <= segmentSize;
    }

    /** The arguments that {@link #parseArgs} turns back into this plan (for a child process). */
    public List<String> toArgs() {
        return List.of(kind.cliName(), Long.toString(rate), Long.toString(warmup), Long.toString(count),
                Integer.toString(runs), waitStrategy.name(), Long.toString(segmentSize),
                Boolean.toString(recordChecksums));
    }

    /** The plan written by {@link #toArgs}, from {@code args[from]} on. */
    public static RunPlan parseArgs(List<String> args, int from) {
        return new RunPlan(LatencyKind.parse(args.get(from)), Long.parseLong(args.get(from + 1)),
                Long.parseLong(args.get(from + 2)), Long.parseLong(args.get(from + 3)),
                Integer.parseInt(args.get(from + 4)), WaitStrategy.valueOf(args.get(from + 5)),
                Long.parseLong(args.get(from + 6)), Boolean.parseBoolean(args.get(from + 7)));
    }

    /** Number of values {@link #toArgs} produces. */
    public static final int ARG_COUNT = 8;
}
