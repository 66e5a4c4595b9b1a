package io.blit.benchmarks;

import io.blit.tools.messages.MarketData;

import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesUtil;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Hypothesis: Blit's default engine ({@code blit*} in {@link MarketDataFormatsBenchmark}) copies a
 * MarketData at or below the cost of Chronicle Bytes' trivially-copyable path, the implementation of
 * the published comparison (7.9 / 7.4 ns on JDK 8). Chronicle and Blit's {@code WORD_LOOP} engine
 * both copy the object side with a {@code sun.misc.Unsafe} word loop; Chronicle's memory side is raw
 * too, Blit's goes through {@code MemorySegment} checks, so the gap between the two shows what those
 * checks cost in a word loop.
 *
 * <p>Written as Chronicle documents it: the block's start and length from
 * {@link BytesUtil#triviallyCopyableStart}/{@link BytesUtil#triviallyCopyableLength} held in
 * {@code static final} constants, {@code unsafeWriteObject}/{@code unsafeReadObject} on a reused
 * elastic direct {@link Bytes}, write/read position reset to 0 per op. {@link #setUp} checks that a
 * filled message round-trips and throws otherwise.
 *
 * <p>A class of its own because Chronicle, on JDK 25, prints warnings when its classes initialise
 * unless the JVM opens and exports what it reaches into; only this class's forks get those four flags
 * (see {@code @Fork}). No other benchmark class may touch Chronicle classes. Note that
 * {@code -jvmArgsAppend} on the command line replaces the annotation's flags.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {
        "--sun-misc-unsafe-memory-access=allow",
        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED"})
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class MarketDataChronicleBenchmark {
    private static final int INITIAL_CAPACITY = 256;

    // Non-final, so that the JIT cannot fold the inputs into constants.
    private MarketData md;
    private Bytes<?> bytes;

    /** Allocates the reused buffer, writes the read's image and checks the round trip. */
    @Setup
    public void setUp() {
        md = new MarketData().fillFor(42, 42_000);
        bytes = Bytes.allocateElasticDirect(INITIAL_CAPACITY);
        chronicleWrite();
        if (bytes.writePosition() != Block.LENGTH) {
            throw new IllegalStateException("Chronicle wrote " + bytes.writePosition() + " bytes, expected " + Block.LENGTH);
        }
        MarketData back = new MarketData();
        bytes.readPosition(0);
        bytes.unsafeReadObject(back, Block.START, Block.LENGTH);
        RoundTrip.check("chronicle", md, back);
    }

    /** Releases the direct memory. */
    @TearDown
    public void tearDown() {
        bytes.releaseLast();
    }

    @Benchmark
    public Bytes<?> chronicleWrite() {
        bytes.writePosition(0);
        bytes.unsafeWriteObject(md, Block.START, Block.LENGTH);
        return bytes;
    }

    @Benchmark
    public MarketData chronicleRead() {
        bytes.readPosition(0);
        bytes.unsafeReadObject(md, Block.START, Block.LENGTH);
        return md;
    }

    /** MarketData's block as Chronicle computes it, once per class, as constants (Chronicle's own usage). */
    private static final class Block {
        static final int START = BytesUtil.triviallyCopyableStart(MarketData.class);
        static final int LENGTH = BytesUtil.triviallyCopyableLength(MarketData.class);

        private Block() {
        }
    }
}
