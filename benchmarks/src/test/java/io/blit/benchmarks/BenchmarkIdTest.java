package io.blit.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BenchmarkIdTest {
    private static final Map<String, String> SUITES = Map.of(
            "MarketDataFormatsBenchmark", BenchmarkId.MARKETDATA, "SizeSweepBenchmark", BenchmarkId.SWEEP);

    @Test
    void camelCaseVariantBecomesSnakeCaseAndTheSuffixTheOp() {
        assertEquals(Optional.of(new BenchmarkId("marketdata", "blit_word_loop", "write")),
                BenchmarkId.parse("io.blit.benchmarks.MarketDataFormatsBenchmark.blitWordLoopWrite", SUITES));
        assertEquals(Optional.of(new BenchmarkId("sweep", "floor", "read")),
                BenchmarkId.parse("io.blit.benchmarks.SizeSweepBenchmark.floorRead", SUITES));
    }

    @Test
    void ignoresMethodsWithoutOpSuffixOrVariant() {
        assertTrue(BenchmarkId.parse("io.blit.benchmarks.SizeSweepBenchmark.lookup", SUITES).isEmpty());
        assertTrue(BenchmarkId.parse("io.blit.benchmarks.SizeSweepBenchmark.Write", SUITES).isEmpty());
        assertTrue(BenchmarkId.parse("io.blit.benchmarks.SizeSweepBenchmark.rewrite", SUITES).isEmpty());
    }

    @Test
    void ignoresClassesOutsideTheSuite() {
        assertTrue(BenchmarkId.parse("io.blit.benchmarks.MarketDataCopyBenchmark.blitWrite", SUITES).isEmpty());
    }
}
