package io.blit.tools.latency;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Draws the latency percentile distribution of one or more results as SVG, the way HdrHistogram's plotter does:
 * x is {@code 1/(1-p)} on a log scale (so 90%, 99%, 99.9%, 99.99% are equally spaced), y is the latency — here
 * on a log scale too, because a trivially copyable message (fractions of a µs) and a serialised one (tens of µs)
 * must both be readable. One line per result (all runs of a kind merged), in a fixed colour per kind, with a legend
 * giving each kind's median. Hand-written SVG 1.1, no scripts or external fonts. Stateless.
 */
public final class LatencyChart {
    private static final int WIDTH = 900;
    private static final int HEIGHT = 520;
    private static final int LEFT = 80;
    private static final int RIGHT = 40;
    private static final int TOP = 80;
    private static final int BOTTOM = 440;
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
        int yLo = (int) Math.floor(Math.log10(Math.max(1, minNs)));
        int yHi = Math.max((int) Math.ceil(Math.log10(maxNs)), yLo + 1);
        StringBuilder out = new StringBuilder(32_768);
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"")
                .append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
                .append("\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n");
        out.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        text(out, WIDTH / 2.0, 28, 17, "middle", "bold", "End-to-end latency by percentile (lower is better)");
        text(out, WIDTH / 2.0, 48, 12, "middle", "normal", subtitle);
        axes(out, xDecades, yLo, yHi);
        for (int i = 0; i < curves.size(); i++) {
            String colour = COLOURS[i % COLOURS.length];
            StringBuilder path = new StringBuilder();
            for (double[] p : curves.get(i)) {
                double x = x(p[0], xDecades);
                double y = y(p[1], yLo, yHi);
                path.append(path.isEmpty() ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
            }
            out.append("<path d=\"").append(path).append("\" fill=\"none\" stroke=\"").append(colour)
                    .append("\" stroke-width=\"2\"/>\n");
            LatencyResult result = results.get(i);
            double ly = TOP + 18 + 18 * i;
            line(out, LEFT + 16, ly - 4, LEFT + 40, ly - 4, colour, 2.5);
            text(out, LEFT + 46, ly, 12, "start", "normal", result.kind().description() + " — median "
                    + ReportTable.micros(Math.round(result.medianP50())) + " µs");
        }
        return out.append("</svg>\n").toString();
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

    private static double x(double inverse, int decades) {
        double clamped = Math.max(1, Math.min(Math.pow(10, decades), inverse));
        return LEFT + Math.log10(clamped) / decades * (WIDTH - LEFT - RIGHT);
    }

    private static double y(double ns, int lo, int hi) {
        double clamped = Math.max(Math.pow(10, lo), Math.min(Math.pow(10, hi), ns));
        return BOTTOM - (Math.log10(clamped) - lo) / (hi - lo) * (BOTTOM - TOP);
    }

    private static void axes(StringBuilder out, int xDecades, int yLo, int yHi) {
        for (int d = 0; d <= xDecades; d++) {
            double x = x(Math.pow(10, d), xDecades);
            line(out, x, TOP, x, BOTTOM, "#cccccc", 1);
            text(out, x, BOTTOM + 18, 12, "middle", "normal", percentileLabel(d));
        }
        for (int decade = yLo; decade <= yHi; decade++) {
            for (int step = 1; step <= 9 && !(decade == yHi && step > 1); step++) {
                double y = y(step * Math.pow(10, decade), yLo, yHi);
                line(out, LEFT, y, WIDTH - RIGHT, y, step == 1 ? "#bbbbbb" : "#eeeeee", step == 1 ? 1 : 0.8);
                if (step == 1 || (yHi - yLo <= 3 && (step == 2 || step == 5))) {
                    text(out, LEFT - 8, y + 4, step == 1 ? 12 : 10, "end", "normal",
                            duration(Math.round(step * Math.pow(10, decade))));
                }
            }
        }
        line(out, LEFT, TOP, LEFT, BOTTOM, "#333333", 1.2);
        line(out, LEFT, BOTTOM, WIDTH - RIGHT, BOTTOM, "#333333", 1.2);
        text(out, (LEFT + WIDTH - RIGHT) / 2.0, BOTTOM + 44, 13, "middle", "normal",
                "percentile (x = 1/(1-p), log scale)");
        out.append(String.format(Locale.ROOT,
                "<text x=\"22\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 22 %.1f)\">"
                        + "latency (log scale)</text>\n", (TOP + BOTTOM) / 2.0, (TOP + BOTTOM) / 2.0));
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

    private static void line(StringBuilder out, double x1, double y1, double x2, double y2, String colour, double width) {
        out.append(String.format(Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"/>\n",
                x1, y1, x2, y2, colour, width));
    }

    private static void text(StringBuilder out, double x, double y, int size, String anchor, String weight, String text) {
        out.append(String.format(Locale.ROOT,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\" font-weight=\"%s\">%s</text>\n",
                x, y, size, anchor, weight, escape(text)));
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
