package io.blit.benchmarks;

import io.blit.core.CopyEngine;

/**
 * {@link CrossLayoutReadBenchmark}'s methods with {@link CopyEngine#GENERATED_FFM} copiers: the bulk and
 * the translated reads both go through the {@code MemorySegment} accessors, the engine and code path that
 * a JVM with {@code --sun-misc-unsafe-memory-access=deny} selects. Measured in an allow fork because JMH
 * 1.37 itself needs {@code sun.misc.Unsafe} ({@code Unsafe.objectFieldOffset} in its own classes fails
 * under deny). Reported beside the default engine by the suite.
 */
public class CrossLayoutReadFfmBenchmark extends CrossLayoutReadBenchmark {
    @Override
    protected CopyEngine engine() {
        return CopyEngine.GENERATED_FFM;
    }
}
