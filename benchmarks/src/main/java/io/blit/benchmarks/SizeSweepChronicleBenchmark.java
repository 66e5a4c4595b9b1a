package io.blit.benchmarks;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.blit.core.TriviallyCopyable;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesUtil;
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
 * The block-size sweep of {@link SizeSweepBenchmark} for Chronicle Bytes' trivially copyable copy
 * ({@code unsafeWriteObject}/{@code unsafeReadObject}, a getLong/putLong word loop over the range
 * {@link BytesUtil#triviallyCopyableStart}/{@link BytesUtil#triviallyCopyableLength} computes), on the
 * same generated {@link SweepBlocks} classes. Compare it with {@code SizeSweepBenchmark.blit*} at the
 * same {@code blockBytes}.
 *
 * <p>Every op copies one block between the object and position 0 of a direct elastic {@link Bytes}
 * allocated once: writes reset the write position, reads the read position. {@link #setUp} checks that
 * Chronicle's range is the whole block, that its bytes equal Blit's image word for word, and that they
 * read back into a fresh object unchanged.
 *
 * <p>A class of its own because Chronicle's forks need extra flags on JDK 25 (Unsafe memory access
 * and the JDK internals it opens); the other benchmark classes' forks do not get them.
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
public class SizeSweepChronicleBenchmark {
    @Param({"16", "64", "144", "1024", "4096"})
    public int blockBytes;

    // Non-final, so that the JIT cannot fold the inputs into constants.
    private Bytes<?> bytes;
    private TriviallyCopyable block;
    private int start;
    private int length;

    /** Allocates the buffer once and checks the round trip against Blit's image. */
    @Setup
    public void setUp() {
        block = SweepBlocks.newBlock(blockBytes);
        start = BytesUtil.triviallyCopyableStart(block.getClass());
        length = BytesUtil.triviallyCopyableLength(block.getClass());
        if (length != blockBytes) {
            throw new IllegalStateException(block.getClass().getName() + ": Chronicle's range is " + length
                    + " bytes from offset " + start + ", expected " + blockBytes);
        }
        bytes = Bytes.allocateElasticDirect(blockBytes);
        MemorySegment pattern = SweepImages.pattern(blockBytes);
        block.readFrom(pattern, 0);
        bytes.writePosition(0);
        bytes.unsafeWriteObject(block, start, length);
        for (int i = 0; i < blockBytes; i += Long.BYTES) {
            long expected = pattern.get(JAVA_LONG, i);
            if (bytes.readLong(i) != expected) {
                throw new IllegalStateException("chronicle write: " + blockBytes + "-byte block differs from Blit's image"
                        + " at byte " + i);
            }
        }
        TriviallyCopyable back = SweepBlocks.newBlock(blockBytes);
        bytes.readPosition(0);
        bytes.unsafeReadObject(back, start, length);
        MemorySegment image = MemorySegment.ofArray(new long[blockBytes / Long.BYTES]);
        back.writeTo(image, 0);
        SweepImages.requireSameImage(pattern, image, blockBytes, "chronicle read back");
    }

    /** Frees the direct buffer. */
    @TearDown
    public void tearDown() {
        bytes.releaseLast();
    }

    @Benchmark
    public Bytes<?> chronicleWrite() {
        bytes.writePosition(0);
        bytes.unsafeWriteObject(block, start, length);
        return bytes;
    }

    @Benchmark
    public TriviallyCopyable chronicleRead() {
        bytes.readPosition(0);
        bytes.unsafeReadObject(block, start, length);
        return block;
    }
}
