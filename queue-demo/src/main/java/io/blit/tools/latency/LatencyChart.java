package io.blit.tools.latency;

import io.blit.tools.report.Chart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Draws the latency percentile distribution of one or more results as SVG ({@link Chart}), the way HdrHistogram's
 * plotter does: x is {@code 1/(1-p)} on a log scale (so 90%, 99%, 99.9%, 99.99% are equally spaced), y is the
 * latency — here on a log scale too, because a trivially copyable message (fractions of a µs) and a serialised one
 * (tens of µs) must both be readable. One line per result (all runs of a kind merged), in a fixed colour per kind,
 * with a legend giving each kind's median. Stateless.
 */
public final class LatencyChart {
    private static final String[] COLOURS = {"#4e79a7", "#e15759", "#59a14f", "#f28e2b"};
    /** The x axis ends at the 99.9999th percentile (10^6) or earlier if no result has that many values. */
    private static final int MAX_X_DECADES = 6;

    private LatencyChart() {
    }

    /** Writes {@link #svg} to {@code file}. */
    public static void write(Path file, String subtitle, List<LatencyResult> results) throws IOException {
        Files.writeString(file, svg(subtitle, results));
    }

    /**
     * The chart of {@code results}; {@code subtitle} (e.g. mode, rate, JDK) goes under the title.
     *
     * @throws IllegalArgumentException if {@code results} is empty
     */
    public static String svg(String subtitle, List<LatencyResult> results) {
        if (results.isEmpty()) {
            throw new IllegalArgumentException("no results to draw");
        }
        List<List<double[]>> curves = new ArrayList<>();
        double minNs = Double.MAX_VALUE;
        double maxNs = 1;
        long maxCount = 1;
        for (LatencyResult result : results) {
            Histogram merged = result.merged();
            maxCount = Math.max(maxCount, merged.getTotalCount());
            List<double[]> points = curve(merged);
            for (double[] p : points) {
                minNs = Math.min(minNs, p[1]);
                maxNs = Math.max(maxNs, p[1]);
            }
            curves.add(points);
        }
        int xDecades = Math.max(1, Math.min(MAX_X_DECADES, (int) Math.ceil(Math.log10(maxCount))));
        Chart chart = new Chart(900, 520, 80, 80, 40, 80)
                .title("End-to-end latency by percentile (lower is better)")
                .subtitle(subtitle)
                .logXAxis(xDecades, LatencyChart::percentileLabel, "percentile (x = 1/(1-p), log scale)")
                .valueAxis(Math.max(1, minNs), maxNs, ns -> duration(Math.round(ns)), "latency (log scale)");
        for (int i = 0; i < curves.size(); i++) {
            String colour = COLOURS[i % COLOURS.length];
            LatencyResult result = results.get(i);
            chart.line(curves.get(i), colour).legendLine(colour, result.kind().description() + " — median "
                    + ReportTable.micros(Math.round(result.medianP50())) + " µs");
        }
        return chart.svg();
    }

    /** (1/(1-p), latency ns) points of the percentile distribution, 5 ticks per half distance, as HdrHistogram plots. */
    private static List<double[]> curve(Histogram histogram) {
        List<double[]> points = new ArrayList<>();
        long total = histogram.getTotalCount();
        for (HistogramIterationValue v : histogram.percentiles(5)) {
            double p = v.getPercentileLevelIteratedTo() / 100.0;
            double inverse = p >= 1 ? total : Math.min(total, 1 / (1 - p));
            points.add(new double[] {inverse, Math.max(1, v.getValueIteratedTo())});
        }
        return points;
    }

    /** An axis label for a power-of-ten multiple of nanoseconds: 100 ns, 2 µs, 50 ms, 1 s. */
    static String duration(long nanos) {
        if (nanos < 1_000) {
            return nanos + " ns";
        } else if (nanos < 1_000_000) {
            return trim(nanos / 1e3) + " µs";
        } else if (nanos < 1_000_000_000) {
            return trim(nanos / 1e6) + " ms";
        }
        return trim(nanos / 1e9) + " s";
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : String.format(Locale.ROOT, "%.1f", value);
    }

    /** The percentile at x = 10^d: 0%, 90%, 99%, 99.9%, ... */
    static String percentileLabel(int decade) {
        return switch (decade) {
            case 0 -> "0%";
            case 1 -> "90%";
            case 2 -> "99%";
            default -> "99." + "9".repeat(decade - 2) + "%";
        };
    }
}
