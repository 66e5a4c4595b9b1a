package io.blit.benchmarks;

import io.blit.tools.report.RunMetadata;
import java.util.List;

/** Synthetic scores for the summary tests: no JMH run needed. */
final class SummaryTestData {
    static final RunInfo INFO = new RunInfo("quick",
            new RunMetadata("25.0.3 (OpenJDK \"64-Bit\" VM)", "Test CPU", 2, "2026-01-02", "BenchmarkSuite --quick"));

    private SummaryTestData() {
    }

    static Score marketData(String variant, String op, int bytes, double ns, double error) {
        return new Score(new BenchmarkId(BenchmarkId.MARKETDATA, variant, op), 0, bytes, ns, error);
    }

    static Score sweep(String variant, String op, int blockBytes, double ns) {
        return new Score(new BenchmarkId(BenchmarkId.SWEEP, variant, op), blockBytes, blockBytes, ns, ns / 10);
    }

    /** blit 8/7 ns, floor 4/3.5 ns, default 80/70 ns (no size), no chronicle or explicit; a sweep at 4096. */
    static List<Score> sample() {
        return List.of(
                marketData("blit", "write", 144, 8, 0.5), marketData("blit", "read", 144, 7, Double.NaN),
                marketData("floor", "write", 144, 4, 0.1), marketData("floor", "read", 144, 3.5, 0.1),
                marketData("default", "write", 0, 80, 3), marketData("default", "read", 0, 70, 2),
                sweep("blit", "write", 4096, 200), sweep("blit", "read", 4096, 160),
                sweep("floor", "write", 4096, 100), sweep("floor", "read", 4096, 80));
    }
}
