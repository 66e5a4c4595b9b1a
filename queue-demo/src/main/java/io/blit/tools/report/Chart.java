package io.blit.tools.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;
import java.util.function.IntFunction;

/**
 * An SVG 1.1 chart of Blit's results with a log-scaled value axis: the latency percentile chart (log-scaled x axis,
 * one {@link #line} per message kind) and the benchmark bar chart (one {@link #bar} per variant and op, with
 * whiskers) are both drawn with it. Hand-written SVG, no scripts or external fonts, so any viewer renders it alike.
 *
 * <p>Coordinates: {@code x} and {@code y} arguments named {@code px} are in pixels from the top left corner; values
 * are data ({@code value} on the y axis, {@code inverse} = {@code 1/(1-p)} on the log x axis). Set the y axis with
 * {@link #valueAxis} before drawing bars or lines, and the x axis with {@link #logXAxis} before drawing lines.
 * Mutable and not thread-safe: one thread builds a chart, then takes its {@link #svg()}.
 */
public final class Chart {
    private static final String FONTS = "DejaVu Sans, Helvetica, Arial, sans-serif";
    private static final String AXIS_COLOUR = "#333333";
    private final int width;
    private final int left;
    private final int top;
    private final int right;
    private final int bottom;
    private final StringBuilder out = new StringBuilder(16_384);
    private int subtitles;
    private int legendLines;
    private int yLo;
    private int yHi;
    private int xDecades;

    /**
     * An empty chart on a white background; the plot area is the rectangle between the four margins.
     *
     * @throws IllegalArgumentException if the margins leave no plot area
     */
    public Chart(int width, int height, int leftMargin, int topMargin, int rightMargin, int bottomMargin) {
        if (leftMargin + rightMargin >= width || topMargin + bottomMargin >= height) {
            throw new IllegalArgumentException("margins " + leftMargin + "/" + topMargin + "/" + rightMargin + "/"
                    + bottomMargin + " leave no plot area in " + width + "x" + height);
        }
        this.width = width;
        this.left = leftMargin;
        this.top = topMargin;
        this.right = width - rightMargin;
        this.bottom = height - bottomMargin;
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"")
                .append(height).append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" font-family=\"").append(FONTS).append("\">\n");
        out.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    }

    /** The bold title, centred at the top. */
    public Chart title(String title) {
        text(width / 2.0, 30, 18, "middle", true, title);
        return this;
    }

    /** A line under the title (the next one goes under it). */
    public Chart subtitle(String line) {
        text(width / 2.0, 52 + 18 * subtitles++, 12, "middle", false, line);
        return this;
    }

    /**
     * Draws the log-scaled y axis from the decade at or below {@code min} to the decade at or above {@code max} (at
     * least one decade): a labelled gridline per decade, lighter ones at 2x..9x, labelled at 2x and 5x too when the
     * axis spans at most three decades.
     *
     * @param label the text of a gridline's value
     * @throws IllegalArgumentException unless {@code 0 < min <= max}, both finite
     */
    public Chart valueAxis(double min, double max, DoubleFunction<String> label, String title) {
        if (!(min > 0 && min <= max && Double.isFinite(max))) {
            throw new IllegalArgumentException("a log axis needs 0 < min <= max, got " + min + ".." + max);
        }
        yLo = (int) Math.floor(Math.log10(min));
        yHi = Math.max((int) Math.ceil(Math.log10(max)), yLo + 1);
        for (int decade = yLo; decade <= yHi; decade++) {
            for (int step = 1; step <= 9 && !(decade == yHi && step > 1); step++) {
                double value = step * Math.pow(10, decade);
                double y = y(value);
                line(left, y, right, y, step == 1 ? "#bbbbbb" : "#eeeeee", step == 1 ? 1 : 0.8);
                if (step == 1 || (yHi - yLo <= 3 && (step == 2 || step == 5))) {
                    text(left - 8, y + 4, step == 1 ? 12 : 10, "end", false, label.apply(value));
                }
            }
        }
        line(left, top, left, bottom, AXIS_COLOUR, 1.2);
        line(left, bottom, right, bottom, AXIS_COLOUR, 1.2);
        out.append(String.format(Locale.ROOT, "<text x=\"22\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 22 %.1f)\">%s</text>\n", (top + bottom) / 2.0, (top + bottom) / 2.0,
                escape(title)));
        return this;
    }

    /**
     * Draws a log-scaled x axis from 1 to {@code 10^decades}, a labelled vertical gridline per decade.
     *
     * @param label the text of decade {@code d}'s gridline
     * @throws IllegalArgumentException if {@code decades < 1}
     */
    public Chart logXAxis(int decades, IntFunction<String> label, String title) {
        if (decades < 1) {
            throw new IllegalArgumentException("a log x axis needs at least one decade, got " + decades);
        }
        xDecades = decades;
        for (int d = 0; d <= decades; d++) {
            double x = x(Math.pow(10, d));
            line(x, top, x, bottom, "#cccccc", 1);
            text(x, bottom + 18, 12, "middle", false, label.apply(d));
        }
        text((left + right) / 2.0, bottom + 44, 13, "middle", false, title);
        return this;
    }

    /** A polyline through {@code points} ({@code {inverse, value}} pairs, clamped to the axes) as one path. */
    public Chart line(List<double[]> points, String colour) {
        StringBuilder d = new StringBuilder();
        for (double[] p : points) {
            d.append(d.isEmpty() ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x(p[0]), y(p[1])));
        }
        out.append("<path d=\"").append(d).append("\" fill=\"none\" stroke=\"").append(colour)
                .append("\" stroke-width=\"2\"/>\n");
        return this;
    }

    /** A legend entry under the previous one at the plot's top left: a short line in {@code colour}, then text. */
    public Chart legendLine(String colour, String text) {
        double y = top + 18 + 18 * legendLines++;
        line(left + 16, y - 4, left + 40, y - 4, colour, 2.5);
        text(left + 46, y, 12, "start", false, text);
        return this;
    }

    /** A legend entry at ({@code xPx}, {@code yPx}): a filled square in {@code colour}, then text. */
    public Chart legendSwatch(double xPx, double yPx, String colour, String text) {
        rect(xPx, yPx - 12, 14, 14, colour);
        text(xPx + 20, yPx, 13, "start", false, text);
        return this;
    }

    /**
     * A bar from the x axis up to {@code value}, with whiskers at {@code value ± error} when the error is finite and
     * positive, and {@code label} above both.
     */
    public Chart bar(double xPx, double widthPx, double value, double error, String colour, String label) {
        double barTop = y(value);
        rect(xPx, barTop, widthPx, bottom - barTop, colour);
        double labelY = barTop;
        if (Double.isFinite(error) && error > 0) {
            double high = y(value + error);
            double low = y(value - error);
            double mid = xPx + widthPx / 2;
            line(mid, high, mid, low, "#222222", 1.2);
            line(mid - 5, high, mid + 5, high, "#222222", 1.2);
            line(mid - 5, low, mid + 5, low, "#222222", 1.2);
            labelY = Math.min(labelY, high);
        }
        text(xPx + widthPx / 2, labelY - 5, 11, "middle", false, label);
        return this;
    }

    /** The centre of group {@code i} of {@code groups} equal columns across the plot, in pixels. */
    public double groupCentre(int i, int groups) {
        return left + groupWidth(groups) * (i + 0.5);
    }

    /** The width of one of {@code groups} equal columns across the plot, in pixels. */
    public double groupWidth(int groups) {
        return (double) (right - left) / groups;
    }

    /** A line of text {@code below} pixels under the x axis, centred at {@code xPx}. */
    public Chart underAxis(double xPx, double below, int size, boolean bold, String text) {
        text(xPx, bottom + below, size, "middle", bold, text);
        return this;
    }

    /** A message in the middle of the plot area, for a chart with nothing to plot. */
    public Chart message(String text) {
        text(width / 2.0, (top + bottom) / 2.0, 16, "middle", false, text);
        return this;
    }

    /** The SVG document. */
    public String svg() {
        return out + "</svg>\n";
    }

    /** Writes {@link #svg()} to {@code file}. */
    public void write(Path file) throws IOException {
        Files.writeString(file, svg());
    }

    private double x(double inverse) {
        double clamped = Math.max(1, Math.min(Math.pow(10, xDecades), inverse));
        return left + Math.log10(clamped) / xDecades * (right - left);
    }

    private double y(double value) {
        double clamped = Math.max(Math.pow(10, yLo), Math.min(Math.pow(10, yHi), value));
        return bottom - (Math.log10(clamped) - yLo) / (yHi - yLo) * (bottom - top);
    }

    private void rect(double x, double y, double w, double h, String colour) {
        out.append(String.format(Locale.ROOT,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", x, y, w, h, colour));
    }

    private void line(double x1, double y1, double x2, double y2, String colour, double strokeWidth) {
        out.append(String.format(Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"/>\n",
                x1, y1, x2, y2, colour, strokeWidth));
    }

    private void text(double x, double y, int size, String anchor, boolean bold, String text) {
        out.append(String.format(Locale.ROOT,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\" font-weight=\"%s\">%s</text>\n",
                x, y, size, anchor, bold ? "bold" : "normal", escape(text)));
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
