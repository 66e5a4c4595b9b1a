package io.blit.benchmarks;

import static io.blit.benchmarks.BenchmarkId.MARKETDATA;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Draws {@code marketdata.svg}: per MarketData variant, a write bar and a read bar of ns/op side by
 * side on a log-scaled y axis (decades labelled, 2× and 5× gridlines), JMH's score error as whiskers,
 * the value above each bar, the serialised size under each variant name, and the mode, JDK and CPU
 * in the title. Hand-written SVG 1.1, no scripts or external fonts, so any viewer renders it alike.
 */
final class SvgChart {
    private static final int WIDTH = 960;
    private static final int HEIGHT = 560;
    private static final int LEFT = 90;
    private static final int RIGHT = 30;
    private static final int TOP = 130;
    private static final int BOTTOM = 460;
    private static final String WRITE_COLOUR = "#4e79a7";
    private static final String READ_COLOUR = "#f28e2b";

    private SvgChart() {
    }

    static void write(Path file, RunInfo info, List<Score> results) throws IOException {
        Files.writeString(file, svg(info, results));
    }

    static String svg(RunInfo info, List<Score> results) {
        StringBuilder out = new StringBuilder(8192);
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
                .append("\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n");
        out.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        text(out, WIDTH / 2.0, 30, 18, "middle", "bold", "MarketData write and read, ns/op (log scale, lower is better)");
        text(out, WIDTH / 2.0, 54, 12, "middle", "normal", "mode " + info.mode() + " · JDK " + info.jdk());
        text(out, WIDTH / 2.0, 72, 12, "middle", "normal", "CPU " + info.cpu() + " · whiskers: JMH score error (99.9% CI)");
        List<String> variants = Score.variants(results, MARKETDATA);
        double min = Double.MAX_VALUE;
        double max = 0;
        for (Score m : results) {
            if (m.id().suite().equals(MARKETDATA) && m.hasNumber()) {
                min = Math.min(min, m.nsPerOp());
                max = Math.max(max, m.nsPerOp());
            }
        }
        if (max == 0) {
            text(out, WIDTH / 2.0, (TOP + BOTTOM) / 2.0, 16, "middle", "normal", "no MarketData results in this run");
            return out.append("</svg>\n").toString();
        }
        int lo = (int) Math.floor(Math.log10(min));
        int hi = Math.max((int) Math.ceil(Math.log10(max)), lo + 1);
        Axis axis = new Axis(lo, hi);
        drawAxis(out, axis);
        legend(out);
        double group = (double) (WIDTH - LEFT - RIGHT) / variants.size();
        double bar = Math.min(44, group * 0.36);
        for (int i = 0; i < variants.size(); i++) {
            String variant = variants.get(i);
            double centre = LEFT + group * (i + 0.5);
            Optional<Score> write = Score.find(results, MARKETDATA, variant, BenchmarkId.WRITE, 0);
            Optional<Score> read = Score.find(results, MARKETDATA, variant, BenchmarkId.READ, 0);
            write.ifPresent(m -> bar(out, axis, m, centre - bar - 2, bar, WRITE_COLOUR));
            read.ifPresent(m -> bar(out, axis, m, centre + 2, bar, READ_COLOUR));
            text(out, centre, BOTTOM + 20, 13, "middle", "bold", variant);
            int bytes = write.or(() -> read).map(Score::bytes).orElse(0);
            text(out, centre, BOTTOM + 37, 11, "middle", "normal", bytes > 0 ? bytes + " B" : "size ?");
        }
        return out.append("</svg>\n").toString();
    }

    /** Log-scale mapping of ns/op to y, between 10^lo at the bottom and 10^hi at the top. */
    private record Axis(int lo, int hi) {
        double y(double value) {
            double clamped = Math.max(Math.pow(10, lo), Math.min(Math.pow(10, hi), value));
            return BOTTOM - (Math.log10(clamped) - lo) / (hi - lo) * (BOTTOM - TOP);
        }
    }

    private static void drawAxis(StringBuilder out, Axis axis) {
        boolean fewDecades = axis.hi() - axis.lo() <= 3;
        for (int decade = axis.lo(); decade <= axis.hi(); decade++) {
            for (int step = 1; step <= 9; step++) {
                double value = step * Math.pow(10, decade);
                if (decade == axis.hi() && step > 1) {
                    break;
                }
                double y = axis.y(value);
                boolean major = step == 1;
                boolean labelled = major || (fewDecades && (step == 2 || step == 5));
                line(out, LEFT, y, WIDTH - RIGHT, y, major ? "#bbbbbb" : "#eeeeee", major ? 1 : 0.8);
                if (labelled) {
                    text(out, LEFT - 8, y + 4, major ? 12 : 10, "end", "normal", tick(value));
                }
            }
        }
        line(out, LEFT, TOP, LEFT, BOTTOM, "#333333", 1.2);
        line(out, LEFT, BOTTOM, WIDTH - RIGHT, BOTTOM, "#333333", 1.2);
        out.append(String.format(Locale.ROOT,
                "<text x=\"22\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\" transform=\"rotate(-90 22 %.1f)\">ns/op (log scale)</text>\n",
                (TOP + BOTTOM) / 2.0, (TOP + BOTTOM) / 2.0));
    }

    private static void legend(StringBuilder out) {
        double x = WIDTH / 2.0 - 75;
        out.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"86\" width=\"14\" height=\"14\" fill=\"%s\"/>\n", x, WRITE_COLOUR));
        text(out, x + 20, 98, 13, "start", "normal", "write");
        out.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"86\" width=\"14\" height=\"14\" fill=\"%s\"/>\n", x + 90, READ_COLOUR));
        text(out, x + 110, 98, 13, "start", "normal", "read");
    }

    private static void bar(StringBuilder out, Axis axis, Score m, double x, double width, String colour) {
        double top = axis.y(m.nsPerOp());
        out.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
                x, top, width, BOTTOM - top, colour));
        double labelY = top;
        if (Double.isFinite(m.error()) && m.error() > 0) {
            double errTop = axis.y(m.nsPerOp() + m.error());
            double errBottom = axis.y(m.nsPerOp() - m.error());
            double mid = x + width / 2;
            line(out, mid, errTop, mid, errBottom, "#222222", 1.2);
            line(out, mid - 5, errTop, mid + 5, errTop, "#222222", 1.2);
            line(out, mid - 5, errBottom, mid + 5, errBottom, "#222222", 1.2);
            labelY = Math.min(labelY, errTop);
        }
        text(out, x + width / 2, labelY - 5, 11, "middle", "normal", label(m.nsPerOp()));
    }

    /** An axis label: 0.1, 2, 50, 1 000, 100 000 (thousands grouped with a space). */
    private static String tick(double value) {
        return value >= 1000 ? String.format(Locale.ROOT, "%,d", Math.round(value)).replace(',', ' ') : label(value);
    }

    /** Three significant digits, no exponent: 0.0512, 7.91, 88.8, 1230. */
    private static String label(double value) {
        return Digits.significant(value, 3);
    }

    private static void line(StringBuilder out, double x1, double y1, double x2, double y2, String colour, double width) {
        out.append(String.format(Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"/>\n",
                x1, y1, x2, y2, colour, width));
    }

    private static void text(StringBuilder out, double x, double y, int size, String anchor, String weight, String content) {
        out.append(String.format(Locale.ROOT,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\" font-weight=\"%s\">%s</text>\n",
                x, y, size, anchor, weight, escape(content)));
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
