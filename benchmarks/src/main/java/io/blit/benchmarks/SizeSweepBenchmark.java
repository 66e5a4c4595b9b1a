package io.blit.benchmarks;

import io.blit.core.BlockCopier;
import io.blit.core.CopyEngine;
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
 * Hypothesis: Blit's cost over the floor (one {@link MemorySegment#copy(MemorySegment, long,
 * MemorySegment, long, long)} of the same bytes from a heap {@code long[]}) is a few nanoseconds at
 * small blocks and shrinks relative to the copy as the block grows; in GB/s, Blit approaches the floor
 * at 4 KiB.
 *
 * <p>The messages are the generated {@link SweepBlocks} classes of only {@code long} fields, with
 * blocks of 16, 64, 144 (MarketData's size), 1024 and 4096 bytes. Every op copies one block between
 * the object (or the {@code long[]} for the floor) and offset 0 of a confined native segment of exactly
 * {@code blockBytes}, allocated once. {@link #setUp} checks that Blit and the floor store the same
 * image, that it reads back into a fresh object unchanged, and that Blit uses its default engine.
 * Chronicle Bytes on the same classes is in {@link SizeSweepChronicleBenchmark}, a separate class
 * because its forks need extra JVM flags.
 *
 * <p>Defaults match the published configuration; forks get {@code --sun-misc-unsafe-memory-access=allow}.
 * Measured on JDK 25.0.3: that warm-up (1 s) is too short for {@code blit*} at 4096 bytes. C1 gives up
 * on the generated copy methods of the 512-field class ("out of virtual registers"), so they run
 * interpreted until C2 compiles them, some 5 s into the fork; add {@code -wi}/{@code -w} to see the
 * steady state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--sun-misc-unsafe-memory-access=allow")
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class SizeSweepBenchmark {
    @Param({"16", "64", "144", "1024", "4096"})
    public int blockBytes;

    // Non-final, so that the JIT cannot fold the inputs into constants.
    private Arena arena;
    private MemorySegment segment;
    private MemorySegment heapLongSegment;
    private TriviallyCopyable block;
    private long offset;
    private long length;

    /** Allocates the segment once and checks the round trip. */
    @Setup
    public void setUp() {
        arena = Arena.ofConfined();
        segment = arena.allocate(blockBytes, Long.BYTES);
        heapLongSegment = SweepImages.pattern(blockBytes);
        block = SweepBlocks.newBlock(blockBytes);
        offset = 0;
        length = blockBytes;
        CopyEngine engine = BlockCopier.of(block.getClass()).engine();
        if (engine != CopyEngine.GENERATED || block.byteSize() != blockBytes) {
            throw new IllegalStateException(block.getClass().getName() + ": engine " + engine + ", block "
                    + block.byteSize() + " bytes; expected GENERATED and " + blockBytes);
        }
        // Blit touches only the confined segment here: one copy to a heap segment in the same JVM
        // changes the JIT's profile of the copy path (docs/copy-engine.md, "Known effect: one use of the checked path slows the confined path").
        MemorySegment.copy(heapLongSegment, 0, segment, offset, blockBytes);
        block.readFrom(segment, offset);
        SweepImages.requireFieldsInOrder(block, heapLongSegment, blockBytes);
        segment.fill((byte) 0);
        block.writeTo(segment, offset);
        SweepImages.requireSameImage(heapLongSegment, segment, blockBytes, "blit write");
        TriviallyCopyable back = SweepBlocks.newBlock(blockBytes);
        back.readFrom(segment, offset);
        segment.fill((byte) 0);
        back.writeTo(segment, offset);
        SweepImages.requireSameImage(heapLongSegment, segment, blockBytes, "blit read back");
    }

    /** Frees the native segment. */
    @TearDown
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public MemorySegment blitWrite() {
        block.writeTo(segment, offset);
        return segment;
    }

    @Benchmark
    public TriviallyCopyable blitRead() {
        block.readFrom(segment, offset);
        return block;
    }

    /** Floor: one bulk copy of the same bytes from a heap {@code long[]}. */
    @Benchmark
    public MemorySegment floorWrite() {
        MemorySegment.copy(heapLongSegment, 0, segment, offset, length);
        return segment;
    }

    /** Floor: one bulk copy of the same bytes into a heap {@code long[]}. */
    @Benchmark
    public MemorySegment floorRead() {
        MemorySegment.copy(segment, offset, heapLongSegment, 0, length);
        return heapLongSegment;
    }
}
