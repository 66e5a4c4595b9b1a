package io.blit.benchmarks;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import io.blit.core.BlockCopier;
import io.blit.core.CopyEngine;
import io.blit.tools.messages.MarketData;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
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
 * Hypothesis: copying one {@link MarketData} (a 144-byte block of 18 eight-byte fields) between the
 * heap object and a confined native segment with Blit costs no more than hand-written per-field
 * {@code MemorySegment} access, and stays within a few nanoseconds of the floor, a single
 * {@link MemorySegment#copy(MemorySegment, long, MemorySegment, long, long)} of 144 bytes between a
 * {@code long[]} heap segment and the native segment.
 *
 * <p>Baselines beside Blit's two entry points ({@code blit*} via {@link MarketData#writeTo}/{@link
 * MarketData#readFrom}, {@code blitCopier*} via {@link BlockCopier}): {@code floor*} (one bulk copy,
 * the same bytes without the object's field layout) and {@code perField*} (18 {@code seg.set}/
 * {@code seg.get} calls, what a user writes without Blit). Every write stores the same 144 bytes at the
 * same offset ({@link #setUp} checks it); every op works at {@link #offset}, 0, of a 4 KiB segment
 * allocated once. Writes return the target segment and reads the target object, for JMH to consume.
 *
 * <p>Defaults match the published configuration; {@code -f -wi -w -i -r -bm -tu} override them.
 * Forks get {@code --sun-misc-unsafe-memory-access=allow}: Blit and JMH both use
 * {@code sun.misc.Unsafe}, which would otherwise print the JDK's deprecation warning.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--sun-misc-unsafe-memory-access=allow")
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class MarketDataCopyBenchmark {
    private static final int SEGMENT_BYTES = 4096;
    private static final int BLOCK_BYTES = 144;

    // Non-final, so that the JIT cannot fold the inputs into constants.
    private Arena arena;
    private MemorySegment segment;
    private MemorySegment heapLongSegment;
    private MarketData md;
    private BlockCopier<MarketData> copier;
    private BlockCopier<MarketData> wordLoopCopier;
    private long offset;

    /** Allocates the segment once and checks that every write way stores the same image. */
    @Setup
    public void setUp() {
        arena = Arena.ofConfined();
        segment = arena.allocate(SEGMENT_BYTES, Long.BYTES);
        heapLongSegment = MemorySegment.ofArray(new long[BLOCK_BYTES / Long.BYTES]);
        md = new MarketData().fillFor(42, 42_000);
        copier = BlockCopier.of(MarketData.class);
        wordLoopCopier = BlockCopier.of(MarketData.class, CopyEngine.WORD_LOOP);
        if (copier.engine() != CopyEngine.GENERATED) {
            throw new IllegalStateException("expected the GENERATED engine by default, got " + copier.engine());
        }
        offset = 0;
        if (copier.byteSize() != BLOCK_BYTES) {
            throw new IllegalStateException("MarketData block is " + copier.byteSize() + " bytes, expected " + BLOCK_BYTES
                    + ":\n" + copier.layout().describe());
        }
        // Blit writes only to the benchmark's confined segment, so that no other segment kind shapes
        // the JIT's profile of its copy path; the floor's source image is copied from there.
        md.writeTo(segment, offset);
        MemorySegment.copy(segment, offset, heapLongSegment, 0, BLOCK_BYTES);
        segment.fill((byte) 0);
        writeFields(md, segment, offset);
        long mismatch = MemorySegment.mismatch(segment, 0, BLOCK_BYTES, heapLongSegment, 0, BLOCK_BYTES);
        if (mismatch != -1) {
            throw new IllegalStateException("per-field image differs from Blit's at byte " + mismatch
                    + "; the baselines would not store the same bytes:\n" + copier.layout().describe());
        }
    }

    /** Frees the native segment. */
    @TearDown
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public MemorySegment blitWrite() {
        md.writeTo(segment, offset);
        return segment;
    }

    @Benchmark
    public MarketData blitRead() {
        md.readFrom(segment, offset);
        return md;
    }

    @Benchmark
    public MemorySegment blitCopierWrite() {
        copier.writeTo(md, segment, offset);
        return segment;
    }

    @Benchmark
    public MarketData blitCopierRead() {
        copier.readFrom(segment, offset, md);
        return md;
    }

    /** The fallback engine, {@link CopyEngine#WORD_LOOP}: Unsafe word loop on the object side. */
    @Benchmark
    public MemorySegment blitWordLoopWrite() {
        wordLoopCopier.writeTo(md, segment, offset);
        return segment;
    }

    @Benchmark
    public MarketData blitWordLoopRead() {
        wordLoopCopier.readFrom(segment, offset, md);
        return md;
    }

    /** Floor: one bulk copy of the same 144 bytes from a heap {@code long[]}. */
    @Benchmark
    public MemorySegment floorWrite() {
        MemorySegment.copy(heapLongSegment, 0, segment, offset, BLOCK_BYTES);
        return segment;
    }

    /** Floor: one bulk copy of the same 144 bytes into a heap {@code long[]}. */
    @Benchmark
    public MemorySegment floorRead() {
        MemorySegment.copy(segment, offset, heapLongSegment, 0, BLOCK_BYTES);
        return heapLongSegment;
    }

    @Benchmark
    public MemorySegment perFieldWrite() {
        writeFields(md, segment, offset);
        return segment;
    }

    @Benchmark
    public MarketData perFieldRead() {
        readFields(segment, offset, md);
        return md;
    }

    /** The hand-written alternative to Blit: one unaligned store per field, in block order. */
    static void writeFields(MarketData m, MemorySegment seg, long off) {
        seg.set(JAVA_LONG_UNALIGNED, off, m.securityId);
        seg.set(JAVA_LONG_UNALIGNED, off + 8, m.time);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 16, m.bidQty0);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 24, m.bidQty1);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 32, m.bidQty2);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 40, m.bidQty3);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 48, m.askQty0);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 56, m.askQty1);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 64, m.askQty2);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 72, m.askQty3);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 80, m.bidPrice0);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 88, m.bidPrice1);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 96, m.bidPrice2);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 104, m.bidPrice3);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 112, m.askPrice0);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 120, m.askPrice1);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 128, m.askPrice2);
        seg.set(JAVA_DOUBLE_UNALIGNED, off + 136, m.askPrice3);
    }

    /** The hand-written alternative to Blit: one unaligned load per field, in block order. */
    static void readFields(MemorySegment seg, long off, MarketData m) {
        m.securityId = seg.get(JAVA_LONG_UNALIGNED, off);
        m.time = seg.get(JAVA_LONG_UNALIGNED, off + 8);
        m.bidQty0 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 16);
        m.bidQty1 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 24);
        m.bidQty2 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 32);
        m.bidQty3 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 40);
        m.askQty0 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 48);
        m.askQty1 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 56);
        m.askQty2 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 64);
        m.askQty3 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 72);
        m.bidPrice0 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 80);
        m.bidPrice1 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 88);
        m.bidPrice2 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 96);
        m.bidPrice3 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 104);
        m.askPrice0 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 112);
        m.askPrice1 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 120);
        m.askPrice2 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 128);
        m.askPrice3 = seg.get(JAVA_DOUBLE_UNALIGNED, off + 136);
    }
}
