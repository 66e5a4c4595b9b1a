package io.blit.benchmarks;

import static io.blit.benchmarks.BenchmarkId.CROSS_LAYOUT;
import static io.blit.benchmarks.BenchmarkId.CROSS_LAYOUT_FFM;
import static io.blit.benchmarks.BenchmarkId.MARKETDATA;
import static io.blit.benchmarks.BenchmarkId.READ;
import static io.blit.benchmarks.BenchmarkId.SWEEP;
import static io.blit.benchmarks.BenchmarkId.WRITE;

import io.blit.tools.report.RunMetadata;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Prints the suite's summary to a stream: the MarketData table (variant, write and read ns/op ± score
 * error, serialised bytes), the sweep table (variant and block size, ns/op ± error and GB/s per op),
 * the cross-layout read table (variant, read ns/op ± error with the default engine and with GENERATED_FFM)
 * and the ratios of {@link Ratios}. A cell JMH produced no number for shows {@code -}.
 */
final class SummaryTable {
    private SummaryTable() {
    }

    static void print(PrintStream out, RunInfo info, List<Score> results) {
        RunMetadata run = info.metadata();
        out.printf(Locale.ROOT, "%nBlit benchmark suite, mode %s, %s UTC%nJDK %s%nCPU %s, %d available%n", info.mode(),
                run.date(), run.jdk(), run.cpu(), run.cpus());
        out.printf(Locale.ROOT, "%nMarketData (ns/op ± score error)%n%-16s %24s %24s %7s%n", "variant", "write", "read", "bytes");
        if (Score.variants(results, MARKETDATA).isEmpty()) {
            out.println("(no results)");
        }
        for (String variant : Score.variants(results, MARKETDATA)) {
            Optional<Score> write = Score.find(results, MARKETDATA, variant, WRITE, 0);
            Optional<Score> read = Score.find(results, MARKETDATA, variant, READ, 0);
            int bytes = write.or(() -> read).map(Score::bytes).orElse(0);
            out.printf(Locale.ROOT, "%-16s %24s %24s %7s%n", variant, time(write), time(read), bytes > 0 ? bytes : "?");
        }
        out.printf(Locale.ROOT, "%nBlock-size sweep (ns/op ± score error; GB/s = bytes / ns)%n%-16s %6s %24s %24s %10s %10s%n",
                "variant", "bytes", "write", "read", "write GB/s", "read GB/s");
        if (Score.variants(results, SWEEP).isEmpty()) {
            out.println("(no results)");
        }
        for (String variant : Score.variants(results, SWEEP)) {
            TreeSet<Integer> sizes = new TreeSet<>();
            results.stream().filter(m -> m.id().suite().equals(SWEEP) && m.id().variant().equals(variant))
                    .forEach(m -> sizes.add(m.blockBytes()));
            for (int size : sizes) {
                Optional<Score> write = Score.find(results, SWEEP, variant, WRITE, size);
                Optional<Score> read = Score.find(results, SWEEP, variant, READ, size);
                out.printf(Locale.ROOT, "%-16s %6d %24s %24s %10s %10s%n", variant, size, time(write), time(read),
                        rate(write), rate(read));
            }
        }
        out.printf(Locale.ROOT, "%nCross-layout read (ns/op ± score error; translated: written under another layout)%n%-34s %24s %24s%n",
                "variant", "default engine", "GENERATED_FFM (deny)");
        List<String> crossVariants = new ArrayList<>(Score.variants(results, CROSS_LAYOUT));
        Score.variants(results, CROSS_LAYOUT_FFM).stream().filter(v -> !crossVariants.contains(v)).forEach(crossVariants::add);
        if (crossVariants.isEmpty()) {
            out.println("(no results)");
        }
        for (String variant : crossVariants) {
            out.printf(Locale.ROOT, "%-34s %24s %24s%n", variant, time(Score.find(results, CROSS_LAYOUT, variant, READ, 0)),
                    time(Score.find(results, CROSS_LAYOUT_FFM, variant, READ, 0)));
        }
        out.printf(Locale.ROOT, "%nRatios (time ratios from MarketData; *_gbps: GB/s ratio from the sweep; cross_layout_*: "
                + "translated / bulk read, same fork)%n");
        for (Map.Entry<String, Map<String, Double>> op : Ratios.of(results).entrySet()) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-6s", op.getKey() + ":"));
            if (op.getValue().isEmpty()) {
                line.append(" (none: inputs missing)");
            }
            op.getValue().forEach((name, value) -> line.append(' ').append(name).append('=').append(Digits.significant(value, 3)));
            out.println(line);
        }
    }

    private static String time(Optional<Score> m) {
        return m.map(x -> Double.isFinite(x.error())
                        ? String.format(Locale.ROOT, "%11.3f ± %10.3f", x.nsPerOp(), x.error())
                        : String.format(Locale.ROOT, "%11.3f ± %10s", x.nsPerOp(), "?"))
                .orElse("-");
    }

    private static String rate(Optional<Score> m) {
        return m.flatMap(x -> x.gbPerS().isPresent() ? Optional.of(x.gbPerS().getAsDouble()) : Optional.empty())
                .map(g -> Digits.significant(g, 3))
                .orElse("-");
    }
}
