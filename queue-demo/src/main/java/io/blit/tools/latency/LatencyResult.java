package io.blit.tools.latency;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The outcome of a {@link RunPlan} for one kind: one histogram of latencies (nanoseconds) per measured run.
 * Immutable once built (the histograms are not modified after construction; callers must not record into them).
 *
 * @param kind   the message kind
 * @param mode   {@code "thread"} or {@code "process"}
 * @param rate   messages per second
 * @param runs   one histogram per measured run, in run order
 * @param placement what the harness knows of where it ran ({@link Placement}), one line
 */
public record LatencyResult(LatencyKind kind, String mode, long rate, List<Histogram> runs, String placement) {
    /** A result with no placement known. */
    public LatencyResult(LatencyKind kind, String mode, long rate, List<Histogram> runs) {
        this(kind, mode, rate, runs, "placement: unknown");
    }

    /**
     * @throws IllegalArgumentException if there is no run or a run recorded nothing
     */
    public LatencyResult {
        runs = List.copyOf(runs);
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("a result needs at least one run");
        }
        for (int i = 0; i < runs.size(); i++) {
            if (runs.get(i).getTotalCount() == 0) {
                throw new IllegalArgumentException("run " + (i + 1) + " of " + kind.cliName() + " recorded nothing");
            }
        }
    }

    /** The figures of each run, in run order. */
    public List<Percentiles> percentiles() {
        return runs.stream().map(Percentiles::of).toList();
    }

    /** The median over the runs of each run's p50, in nanoseconds (the mean of the middle two for an even count). */
    public double medianP50() {
        return medianOfRuns(50.0);
    }

    /**
     * The median over the runs of each run's value at {@code percentile}, in nanoseconds (the mean of the middle two
     * for an even count).
     */
    public double medianOfRuns(double percentile) {
        long[] values = runs.stream().mapToLong(h -> h.getValueAtPercentile(percentile)).sorted().toArray();
        int mid = values.length / 2;
        return values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0;
    }

    /** All runs merged into one histogram (for the chart). */
    public Histogram merged() {
        Histogram all = ReceiveLoop.newHistogram();
        runs.forEach(all::add);
        return all;
    }
}
