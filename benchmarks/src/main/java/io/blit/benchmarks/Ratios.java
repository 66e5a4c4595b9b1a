package io.blit.benchmarks;

import static io.blit.benchmarks.BenchmarkId.CROSS_LAYOUT;
import static io.blit.benchmarks.BenchmarkId.CROSS_LAYOUT_FFM;
import static io.blit.benchmarks.BenchmarkId.MARKETDATA;
import static io.blit.benchmarks.BenchmarkId.SWEEP;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The headline ratios of a suite run, per op ({@code write}, {@code read}). Time ratios come from the
 * MarketData results: {@code blit_over_floor} = blit ns/op ÷ floor ns/op (how far Blit is from one bulk
 * copy; ≥ 1 means slower), {@code chronicle_over_blit}, {@code default_over_blit},
 * {@code explicit_over_blit} (how many times slower than Blit each alternative is). From the sweep,
 * {@code sweep_4096_blit_over_floor_gbps} = Blit's GB/s ÷ the floor's GB/s at a 4096-byte block (a
 * throughput ratio: ≤ 1 means Blit moves fewer bytes per second). From the cross-layout suites (read
 * only), {@code cross_layout_<class>_<writer>_over_bulk} = translated read ÷ bulk read of the same class
 * in the same fork ({@link #CROSS_LAYOUT_PAIRS}), and the same with a {@code _ffm} suffix for
 * {@code GENERATED_FFM} copiers (the path under {@code --sun-misc-unsafe-memory-access=deny}).
 *
 * <p>A ratio whose inputs did not both produce a number is left out, never estimated.
 */
final class Ratios {
    static final int SWEEP_RATIO_BYTES = 4096;
    /** Translated variant → the bulk variant it is compared with (CrossLayoutReadBenchmark's method names). */
    static final Map<String, String> CROSS_LAYOUT_PAIRS = crossLayoutPairs();

    private static Map<String, String> crossLayoutPairs() {
        Map<String, String> pairs = new LinkedHashMap<>();
        pairs.put("mixed_translated", "mixed_bulk");
        pairs.put("market_data_translated_moved_field", "market_data_bulk");
        pairs.put("market_data_translated_reversed", "market_data_bulk");
        pairs.put("market_data_translated_one_run", "market_data_bulk");
        return pairs;
    }

    private Ratios() {
    }

    /** {@code op → (ratio name → value)}, ops in the order write, read; each map holds only computable ratios. */
    static Map<String, Map<String, Double>> of(Collection<Score> results) {
        Map<String, Map<String, Double>> byOp = new LinkedHashMap<>();
        for (String op : List.of(BenchmarkId.WRITE, BenchmarkId.READ)) {
            Map<String, Double> ratios = new LinkedHashMap<>();
            timeRatio(results, op, "blit", "floor").ifPresent(r -> ratios.put("blit_over_floor", r));
            for (String other : List.of("chronicle", "default", "explicit")) {
                timeRatio(results, op, other, "blit").ifPresent(r -> ratios.put(other + "_over_blit", r));
            }
            Optional<Score> blit = Score.find(results, SWEEP, "blit", op, SWEEP_RATIO_BYTES);
            Optional<Score> floor = Score.find(results, SWEEP, "floor", op, SWEEP_RATIO_BYTES);
            if (blit.isPresent() && floor.isPresent()) {
                ratios.put("sweep_" + SWEEP_RATIO_BYTES + "_blit_over_floor_gbps",
                        blit.get().gbPerS().orElseThrow() / floor.get().gbPerS().orElseThrow());
            }
            if (op.equals(BenchmarkId.READ)) {
                crossLayoutRatios(results, CROSS_LAYOUT, "", ratios);
                crossLayoutRatios(results, CROSS_LAYOUT_FFM, "_ffm", ratios);
            }
            byOp.put(op, ratios);
        }
        return byOp;
    }

    private static void crossLayoutRatios(Collection<Score> results, String suite, String suffix, Map<String, Double> ratios) {
        CROSS_LAYOUT_PAIRS.forEach((translated, bulk) -> {
            Optional<Score> top = Score.find(results, suite, translated, BenchmarkId.READ, 0);
            Optional<Score> bottom = Score.find(results, suite, bulk, BenchmarkId.READ, 0);
            if (top.isPresent() && bottom.isPresent()) {
                String name = "cross_layout_" + translated.replace("_translated", "") + "_over_bulk" + suffix;
                ratios.put(name, top.get().nsPerOp() / bottom.get().nsPerOp());
            }
        });
    }

    private static Optional<Double> timeRatio(Collection<Score> results, String op, String numerator, String denominator) {
        Optional<Score> top = Score.find(results, MARKETDATA, numerator, op, 0);
        Optional<Score> bottom = Score.find(results, MARKETDATA, denominator, op, 0);
        return top.isPresent() && bottom.isPresent()
                ? Optional.of(top.get().nsPerOp() / bottom.get().nsPerOp())
                : Optional.empty();
    }
}
