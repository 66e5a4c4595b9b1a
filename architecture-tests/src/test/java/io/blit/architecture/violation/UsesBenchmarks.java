package io.blit.architecture.violation;

import io.blit.benchmarks.MarketDataCopyBenchmark;

/** Fixture violating "nothing depends on benchmarks": a class outside io.blit.benchmarks uses one of its classes. */
public final class UsesBenchmarks {
    private UsesBenchmarks() {
    }

    public static Class<?> codec() {
        return MarketDataCopyBenchmark.class;
    }
}
