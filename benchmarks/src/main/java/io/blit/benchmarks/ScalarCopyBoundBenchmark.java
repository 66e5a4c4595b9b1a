package io.blit.benchmarks;

import io.blit.core.TriviallyCopyable;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How many 8-byte stores a cycle would Blit need to reach half the floor's GB/s at 4096 bytes? Every copy of an
 * object's fields is made of 8-byte loads and stores, since JDK 25 has no bulk copy from an object that is not an
 * array ({@code docs/copy-engine.md}, large blocks); this measures the floor, Blit and the core's clock side by side.
 * Not part of the published suite ({@code run.sh}); the evidence behind the documented gap of large blocks to the
 * floor.
 *
 * <p>Per op, one block of {@code blockBytes} between a heap {@code long[]} (or Blit's generated class of as many
 * {@code long} fields, {@link SweepBlocks}) and a confined native segment:
 * <ul>
 *   <li>{@code floor*}: {@link MemorySegment#copy} — the JDK's arraycopy stub (AVX-512 here), the sweep's floor;</li>
 *   <li>{@code blit*}: Blit's default engine, as in {@link SizeSweepBenchmark}: 8-byte moves;</li>
 *   <li>{@link #scalarArrayCopy}: the same bytes copied by C2's own scalar loop between two arrays, for reference;</li>
 *   <li>{@link #clockMultiplyChain}: the core's clock, to turn nanoseconds into cycles.</li>
 * </ul>
 * Run it with a longer warm-up than the published one (the 512-field class compiles late):
 * {@code java --sun-misc-unsafe-memory-access=allow -jar benchmarks/target/benchmarks.jar ScalarCopyBound -wi 10 -w 1s}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--sun-misc-unsafe-memory-access=allow")
@Warmup(iterations = 10, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class ScalarCopyBoundBenchmark {
    @Param({"1024", "4096"})
    public int blockBytes;

    private Arena arena;
    private MemorySegment segment;
    private long[] words;
    private long[] scratch;
    private MemorySegment heapLongSegment;
    private TriviallyCopyable block;
    private long length;

    @Setup
    public void setUp() {
        arena = Arena.ofConfined();
        segment = arena.allocate(blockBytes, Long.BYTES);
        words = new long[blockBytes / Long.BYTES];
        scratch = new long[blockBytes / Long.BYTES];
        heapLongSegment = MemorySegment.ofArray(words);
        MemorySegment.copy(SweepImages.pattern(blockBytes), 0, heapLongSegment, 0, blockBytes);
        block = SweepBlocks.newBlock(blockBytes);
        length = blockBytes;
        // Blit touches only the confined segment (as in SizeSweepBenchmark: a heap segment changes the JIT's profile)
        MemorySegment.copy(heapLongSegment, 0, segment, 0, blockBytes);
        block.readFrom(segment, 0);
        SweepImages.requireFieldsInOrder(block, heapLongSegment, blockBytes);
        segment.fill((byte) 0);
        block.writeTo(segment, 0);
        SweepImages.requireSameImage(heapLongSegment, segment, blockBytes, "blit write");
    }

    @TearDown
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public MemorySegment floorWrite() {
        MemorySegment.copy(heapLongSegment, 0, segment, 0, length);
        return segment;
    }

    @Benchmark
    public MemorySegment floorRead() {
        MemorySegment.copy(segment, 0, heapLongSegment, 0, length);
        return heapLongSegment;
    }

    @Benchmark
    public MemorySegment blitWrite() {
        block.writeTo(segment, 0);
        return segment;
    }

    @Benchmark
    public TriviallyCopyable blitRead() {
        block.readFrom(segment, 0);
        return block;
    }

    /**
     * What 8-byte moves give on this machine when nothing else is in the way: C2's own loop between two
     * {@code long[]} (no aliasing question, range checks hoisted, unrolled), in a fork with auto-vectorisation off so
     * that every move stays a scalar 8-byte load and store — the only width a copy out of an object's fields has on
     * JDK 25. The same bytes as the floor, heap to heap; only the instruction width differs.
     */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"--sun-misc-unsafe-memory-access=allow", "-XX:-UseSuperWord"})
    public long[] scalarArrayCopy() {
        long[] from = words;
        long[] to = scratch;
        for (int i = 0; i < from.length; i++) {
            to[i] = from[i];
        }
        return to;
    }

    /**
     * The core's clock, for turning ns into cycles (the VM exposes no performance counters): 1,000 dependent steps
     * {@code x = x * x + 1}, a 64-bit multiplication (3 cycles of latency on x86-64 cores since Sandy Bridge, Agner
     * Fog's tables) and an addition (1 cycle) each, which the JIT cannot fold or reorder; so ns/op ÷ 4,000 is the
     * cycle time.
     */
    @Benchmark
    public long clockMultiplyChain() {
        long x = length;
        for (int i = 0; i < 1_000; i++) {
            x = x * x + 1;
        }
        return x;
    }
}
