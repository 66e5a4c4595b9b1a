package io.blit.benchmarks;

import static io.blit.benchmarks.BenchmarkId.MARKETDATA;

import io.blit.tools.report.Chart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Draws {@code marketdata.svg} with queue-demo's {@link Chart}: per MarketData variant, a write bar and a read bar
 * of ns/op side by side on a log-scaled y axis (decades labelled, 2× and 5× gridlines), JMH's score error as
 * whiskers, the value above each bar, the serialised size under each variant name, and the mode, JDK and CPU in
 * the title. Stateless.
 */
final class SvgChart {
    private static final int WIDTH = 960;
    private static final String WRITE_COLOUR = "#4e79a7";
    private static final String READ_COLOUR = "#f28e2b";

    private SvgChart() {
    }

    static void write(Path file, RunInfo info, List<Score> results) throws IOException {
        Files.writeString(file, svg(info, results));
    }

    static String svg(RunInfo info, List<Score> results) {
        Chart chart = new Chart(WIDTH, 560, 90, 130, 30, 100)
                .title("MarketData write and read, ns/op (log scale, lower is better)")
                .subtitle("mode " + info.mode() + " · JDK " + info.metadata().jdk())
                .subtitle("CPU " + info.metadata().cpu() + " · whiskers: JMH score error (99.9% CI)");
        List<Score> scored = results.stream().filter(m -> m.id().suite().equals(MARKETDATA) && m.hasNumber()).toList();
        if (scored.isEmpty()) {
            return chart.message("no MarketData results in this run").svg();
        }
        double min = scored.stream().mapToDouble(Score::nsPerOp).min().orElseThrow();
        double max = scored.stream().mapToDouble(Score::nsPerOp).max().orElseThrow();
        chart.valueAxis(min, max, SvgChart::tick, "ns/op (log scale)")
                .legendSwatch(WIDTH / 2.0 - 75, 98, WRITE_COLOUR, "write")
                .legendSwatch(WIDTH / 2.0 + 15, 98, READ_COLOUR, "read");
        List<String> variants = Score.variants(results, MARKETDATA);
        double bar = Math.min(44, chart.groupWidth(variants.size()) * 0.36);
        for (int i = 0; i < variants.size(); i++) {
            String variant = variants.get(i);
            double centre = chart.groupCentre(i, variants.size());
            Optional<Score> write = Score.find(results, MARKETDATA, variant, BenchmarkId.WRITE, 0);
            Optional<Score> read = Score.find(results, MARKETDATA, variant, BenchmarkId.READ, 0);
            write.ifPresent(m -> chart.bar(centre - bar - 2, bar, m.nsPerOp(), m.error(), WRITE_COLOUR, label(m)));
            read.ifPresent(m -> chart.bar(centre + 2, bar, m.nsPerOp(), m.error(), READ_COLOUR, label(m)));
            int bytes = write.or(() -> read).map(Score::bytes).orElse(0);
            chart.underAxis(centre, 20, 13, true, variant)
                    .underAxis(centre, 37, 11, false, bytes > 0 ? bytes + " B" : "size ?");
        }
        return chart.svg();
    }

    /** An axis label: 0.1, 2, 50, 1 000, 100 000 (thousands grouped with a space). */
    private static String tick(double value) {
        return value >= 1000
                ? String.format(Locale.ROOT, "%,d", Math.round(value)).replace(',', ' ')
                : Digits.significant(value, 3);
    }

    /** Three significant digits, no exponent: 0.0512, 7.91, 88.8, 1230. */
    private static String label(Score m) {
        return Digits.significant(m.nsPerOp(), 3);
    }
}
