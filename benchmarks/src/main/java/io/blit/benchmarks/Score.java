package io.blit.benchmarks;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One summarised benchmark result: average time per op and JMH's score error (half-width of the 99.9%
 * confidence interval; NaN when JMH could not compute one, e.g. from a single iteration).
 *
 * @param id         suite, variant and op
 * @param blockBytes the sweep's {@code blockBytes} parameter, or 0 for a MarketData benchmark
 * @param bytes      bytes one op moves: the sweep's block size, or the variant's serialised MarketData
 *                   size from {@link SerializedSizes#perVariant()}; 0 if unknown
 * @param nsPerOp    score, ns/op
 * @param error      score error, ns/op
 */
record Score(BenchmarkId id, int blockBytes, int bytes, double nsPerOp, double error) {
    /** Display order of known variants: slowest family first, the floor last; others follow by name. */
    private static final List<String> VARIANT_ORDER = List.of(
            "default", "externalizable", "explicit", "kryo", "chronicle", "blit_word_loop", "blit_ffm", "blit", "floor");

    /** Suite, then variant, then block size, then write before read. */
    static final Comparator<Score> ORDER = Comparator.comparing((Score m) -> m.id().suite())
            .thenComparingInt(m -> rank(m.id().variant()))
            .thenComparing(m -> m.id().variant())
            .thenComparingInt(Score::blockBytes)
            .thenComparing(m -> m.id().op(), Comparator.reverseOrder());

    /** Bytes per nanosecond, i.e. GB/s (10^9 bytes), for the sweep; empty for MarketData results. */
    OptionalDouble gbPerS() {
        return id.suite().equals(BenchmarkId.SWEEP) && bytes > 0 && nsPerOp > 0
                ? OptionalDouble.of(bytes / nsPerOp)
                : OptionalDouble.empty();
    }

    /** True if JMH produced a usable number: finite and positive. */
    boolean hasNumber() {
        return Double.isFinite(nsPerOp) && nsPerOp > 0;
    }

    /** The distinct variants of {@code suite} among {@code results}, in display order. */
    static List<String> variants(Collection<Score> results, String suite) {
        return results.stream()
                .filter(m -> m.id().suite().equals(suite))
                .map(m -> m.id().variant())
                .distinct()
                .sorted(Comparator.comparingInt(Score::rank).thenComparing(Comparator.naturalOrder()))
                .toList();
    }

    /** The result of {@code suite/variant/op} at {@code blockBytes} (0 for MarketData), if it has a number. */
    static Optional<Score> find(Collection<Score> results, String suite, String variant, String op, int blockBytes) {
        return results.stream()
                .filter(m -> m.id().equals(new BenchmarkId(suite, variant, op)) && m.blockBytes() == blockBytes && m.hasNumber())
                .findFirst();
    }

    private static int rank(String variant) {
        int at = VARIANT_ORDER.indexOf(variant);
        return at >= 0 ? at : VARIANT_ORDER.size();
    }
}
