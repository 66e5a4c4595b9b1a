package io.blit.benchmarks;

import io.blit.core.BlockCopier;
import io.blit.core.CopyEngine;
import io.blit.core.TriviallyCopyable;
import io.blit.tools.messages.BookUpdate;
import io.blit.tools.messages.MarketData;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The copy engines side by side in one invocation, for three blocks (MarketData, 144 bytes; BookUpdate; a 4096-byte
 * block) on every kind of segment (confined native, shared native, global native, a mapped file mapped with a
 * confined arena):
 * <ul>
 *   <li>{@code generated*}: the default engine through {@code sun.misc.Unsafe} (fork: {@code allow});</li>
 *   <li>{@code internal*}: the same engine through the JDK's {@code jdk.internal.misc.Unsafe} (fork: {@code allow}
 *       and {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED});</li>
 *   <li>{@code ffm*}: {@code GENERATED_FFM}, no Unsafe (fork: {@code allow}, which only JMH itself needs).</li>
 * </ul>
 * Each through a {@link BlockCopier} of the block's class. {@code jvmArgs} (not {@code jvmArgsAppend}) so that a
 * launcher's own flags do not reach the forks: start the jar with no {@code --add-exports}. {@link #setUp} throws if a
 * fork runs on another Unsafe or engine than its method's name says. Only on confined and mapped segments do the
 * engines differ in what they do; on shared and global ones all three take the checked accessors.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 250, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 400, timeUnit = TimeUnit.MILLISECONDS)
public class EngineComparisonBenchmark {
    private static final String ALLOW = "--sun-misc-unsafe-memory-access=allow";
    private static final String EXPORT = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";
    private static final long SEGMENT_BYTES = 8192;
    private static final long OFFSET = 64;

    @Param({"MarketData", "BookUpdate", "Longs512"})
    public String block;

    @Param({"confined", "shared", "global", "mapped"})
    public String segmentKind;

    private TriviallyCopyable object;
    private BlockCopier<TriviallyCopyable> copier;
    private Arena arena;
    private MemorySegment segment;
    private Path file;

    @Setup
    @SuppressWarnings("unchecked")
    public void setUp(BenchmarkParams params) throws IOException {
        String method = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
        String expectedUnsafe = method.startsWith("internal") ? "jdk.internal.misc.Unsafe" : "sun.misc.Unsafe";
        if (!CopyEngine.unsafeAccess().equals(expectedUnsafe)) {
            throw new IllegalStateException(method + " runs on " + CopyEngine.unsafeAccess() + ", not "
                    + expectedUnsafe + ": start the benchmark jar without --add-exports");
        }
        object = switch (block) {
            case "MarketData" -> new MarketData();
            case "BookUpdate" -> new BookUpdate();
            case "Longs512" -> SweepBlocks.newBlock(4096);
            default -> throw new IllegalArgumentException("unknown block " + block);
        };
        CopyEngine engine = method.startsWith("ffm") ? CopyEngine.GENERATED_FFM : CopyEngine.GENERATED;
        copier = (BlockCopier<TriviallyCopyable>) BlockCopier.of(object.getClass(), engine);
        if (copier.engine() != engine) {
            throw new IllegalStateException(method + " copies with " + copier.engine() + ", not " + engine);
        }
        switch (segmentKind) {
            case "confined" -> {
                arena = Arena.ofConfined();
                segment = arena.allocate(SEGMENT_BYTES, Long.BYTES);
            }
            case "shared" -> {
                arena = Arena.ofShared();
                segment = arena.allocate(SEGMENT_BYTES, Long.BYTES);
            }
            case "global" -> segment = Arena.global().allocate(SEGMENT_BYTES, Long.BYTES);
            case "mapped" -> {
                arena = Arena.ofConfined();
                file = Files.createTempFile("blit-engines", ".bin");
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    segment = channel.map(FileChannel.MapMode.READ_WRITE, 0, SEGMENT_BYTES, arena);
                }
            }
            default -> throw new IllegalArgumentException("unknown segment kind " + segmentKind);
        }
        copier.writeTo(object, segment, OFFSET);
        copier.readFrom(segment, OFFSET, object);
    }

    /** Closes the arena (the global segment goes with the fork) and deletes the mapped file. */
    @TearDown
    public void tearDown() throws IOException {
        if (arena != null) {
            arena.close();
        }
        if (file != null) {
            Files.deleteIfExists(file);
        }
    }

    @Benchmark
    @Fork(value = 2, jvmArgs = {ALLOW})
    public MemorySegment generatedWrite() {
        copier.writeTo(object, segment, OFFSET);
        return segment;
    }

    @Benchmark
    @Fork(value = 2, jvmArgs = {ALLOW})
    public TriviallyCopyable generatedRead() {
        copier.readFrom(segment, OFFSET, object);
        return object;
    }

    @Benchmark
    @Fork(value = 2, jvmArgs = {ALLOW, EXPORT})
    public MemorySegment internalWrite() {
        copier.writeTo(object, segment, OFFSET);
        return segment;
    }

    @Benchmark
    @Fork(value = 2, jvmArgs = {ALLOW, EXPORT})
    public TriviallyCopyable internalRead() {
        copier.readFrom(segment, OFFSET, object);
        return object;
    }

    @Benchmark
    @Fork(value = 2, jvmArgs = {ALLOW})
    public MemorySegment ffmWrite() {
        copier.writeTo(object, segment, OFFSET);
        return segment;
    }

    @Benchmark
    @Fork(value = 2, jvmArgs = {ALLOW})
    public TriviallyCopyable ffmRead() {
        copier.readFrom(segment, OFFSET, object);
        return object;
    }
}
