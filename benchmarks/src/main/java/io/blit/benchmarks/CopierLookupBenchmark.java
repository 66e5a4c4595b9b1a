package io.blit.benchmarks;

import io.blit.core.BlockCopier;
import io.blit.tools.messages.MarketData;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Hypothesis: the per-call class lookup behind {@link io.blit.core.TriviallyCopyable#writeTo} (a
 * {@code ClassValue} get for the object's class) costs a few nanoseconds, which is what separates
 * {@code MarketDataCopyBenchmark.blitWrite} from {@code blitCopierWrite}. Baselines: returning a copier held in
 * a field, and {@code TriviallyCopyable.byteSize()}, whose cost is its lookup (Blit's own cache in
 * front of the {@code ClassValue}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--sun-misc-unsafe-memory-access=allow")
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class CopierLookupBenchmark {
    private Object message = new MarketData();
    private BlockCopier<?> held = BlockCopier.of(MarketData.class);

    @Benchmark
    public BlockCopier<?> lookupByClass() {
        return BlockCopier.of(message.getClass());
    }

    @Benchmark
    public long viaTriviallyCopyable() {
        return ((MarketData) message).byteSize();
    }

    @Benchmark
    public BlockCopier<?> heldInField() {
        return held;
    }
}
