package io.blit.tools.latency;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The figures of one measured run, in nanoseconds: the percentiles 50, 90, 99, 99.7, 99.9, 99.99 and the worst
 * latency. Immutable.
 */
public record Percentiles(long p50, long p90, long p99, long p99_7, long p99_9, long p99_99, long max) {
    /** The percentile of each figure but the worst, in {@link #values()} order. */
    public static final List<Double> PERCENTILES = List.of(50.0, 90.0, 99.0, 99.7, 99.9, 99.99);
    /** Row labels of the report table, in {@link #values()} order. */
    public static final List<String> LABELS = List.of("50.0", "90.0", "99.0", "99.7", "99.9", "99.99", "worst");
    /** JSON names, in {@link #values()} order. */
    public static final List<String> JSON_NAMES = List.of("p50_ns", "p90_ns", "p99_ns", "p99_7_ns", "p99_9_ns",
            "p99_99_ns", "max_ns");

    /**
     * @throws IllegalArgumentException if a figure is negative or they are not in non-decreasing order
     */
    public Percentiles {
        long[] v = {p50, p90, p99, p99_7, p99_9, p99_99, max};
        for (int i = 0; i < v.length; i++) {
            if (v[i] < 0 || (i > 0 && v[i] < v[i - 1])) {
                throw new IllegalArgumentException("percentiles must be >= 0 and non-decreasing: "
                        + java.util.Arrays.toString(v));
            }
        }
    }

    /**
     * The figures of {@code histogram} (HdrHistogram's value at each percentile, i.e. the highest value equivalent
     * to the recorded ones at 3 significant digits; the worst is the largest recorded value's equivalent).
     *
     * @throws IllegalArgumentException if the histogram is empty
     */
    public static Percentiles of(Histogram histogram) {
        if (histogram.getTotalCount() == 0) {
            throw new IllegalArgumentException("no latencies were recorded in this run");
        }
        return new Percentiles(histogram.getValueAtPercentile(50.0), histogram.getValueAtPercentile(90.0),
                histogram.getValueAtPercentile(99.0), histogram.getValueAtPercentile(99.7),
                histogram.getValueAtPercentile(99.9), histogram.getValueAtPercentile(99.99), histogram.getMaxValue());
    }

    /** The seven figures in table order. */
    public long[] values() {
        return new long[] {p50, p90, p99, p99_7, p99_9, p99_99, max};
    }
}
