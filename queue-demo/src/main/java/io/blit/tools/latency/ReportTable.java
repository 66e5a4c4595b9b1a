package io.blit.tools.latency;

import java.util.List;
import java.util.Locale;

/**
 * Formats a {@link LatencyResult} as the table users of persisted queues expect (the published latency tables):
 * one row per percentile (50, 90, 99, 99.7, 99.9, 99.99, worst), one column per run, then {@code % Variation};
 * values in microseconds with three significant digits.
 *
 * <pre>
 * Percentile      run1      run2      run3   % Variation
 * 50.0           0.181     0.185     0.179          2.69
 * ...
 * </pre>
 *
 * <p>Variation is computed as the published tables define it, {@code 100 * (max - min) / (max + min / 2)} over the
 * runs' values of that row — note the operator precedence: {@code max + min/2}, not {@code (max + min) / 2}; kept so the
 * column is comparable with the published tables. It is 0 for a single run. Stateless.
 */
public final class ReportTable {
    private static final int LABEL_WIDTH = 10;
    private static final int COLUMN_WIDTH = 10;

    private ReportTable() {
    }

    /** The table of {@code result}, headed by {@code title}, ending with a newline. */
    public static String format(String title, LatencyResult result) {
        return format(title, result.percentiles());
    }

    /** The table of the given runs, headed by {@code title}, ending with a newline. */
    public static String format(String title, List<Percentiles> runs) {
        StringBuilder out = new StringBuilder(256 + 16 * 8 * runs.size());
        out.append(title).append(" (end to end, microseconds)\n");
        out.append(pad("Percentile", LABEL_WIDTH, false));
        for (int r = 0; r < runs.size(); r++) {
            out.append(pad("run" + (r + 1), COLUMN_WIDTH, true));
        }
        out.append(pad("% Variation", 14, true)).append('\n');
        for (int row = 0; row < Percentiles.LABELS.size(); row++) {
            out.append(pad(Percentiles.LABELS.get(row), LABEL_WIDTH, false));
            long[] values = new long[runs.size()];
            for (int r = 0; r < runs.size(); r++) {
                values[r] = runs.get(r).values()[row];
                out.append(pad(micros(values[r]), COLUMN_WIDTH, true));
            }
            out.append(pad(String.format(Locale.ROOT, "%.2f", variation(values)), 14, true)).append('\n');
        }
        return out.toString();
    }

    /**
     * {@code 100 * (max - min) / (max + min / 2)} over {@code values}, as the published tables define
     * it; 0 when all are 0.
     *
     * @throws IllegalArgumentException if {@code values} is empty
     */
    public static double variation(long... values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("variation of no values");
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (long v : values) {
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        double denominator = max + min / 2.0;
        return denominator == 0 ? 0 : 100.0 * (max - min) / denominator;
    }

    /** Nanoseconds as microseconds with three significant digits and no exponent: 0.181, 3.41, 18.5, 8118. */
    public static String micros(long nanos) {
        double us = nanos / 1000.0;
        if (us >= 100) {
            return Long.toString(Math.round(us));
        }
        if (us >= 10) {
            return String.format(Locale.ROOT, "%.1f", us);
        }
        if (us >= 1) {
            return String.format(Locale.ROOT, "%.2f", us);
        }
        return String.format(Locale.ROOT, "%.3f", us);
    }

    private static String pad(String text, int width, boolean right) {
        if (text.length() >= width) {
            return right ? " " + text : text + " ";
        }
        String spaces = " ".repeat(width - text.length());
        return right ? spaces + text : text + spaces;
    }
}
