package io.blit.benchmarks;

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
 * The default engine's copy through {@code sun.misc.Unsafe} against the same code through the JDK's
 * {@code jdk.internal.misc.Unsafe} (quiet in every mode), in one invocation: the {@code *SunMisc} methods fork with
 * {@code --sun-misc-unsafe-memory-access=allow} only, the {@code *Internal} ones add
 * {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}. {@code jvmArgs} (not {@code jvmArgsAppend}) so that a
 * launcher's own flags do not reach the forks: start the jar with no {@code --add-exports}. {@link #setUp} throws if a
 * fork runs on the other Unsafe than its name says. Blocks: MarketData (144 bytes), BookUpdate and a 4096-byte block;
 * segments: a confined native one and a confined mapped file (both addressed directly by the default engine).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class UnsafeBackendBenchmark {
    private static final String ALLOW = "--sun-misc-unsafe-memory-access=allow";
    private static final String EXPORT = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";
    private static final long SEGMENT_BYTES = 8192;

    @Param({"MarketData", "BookUpdate", "Longs512"})
    public String block;

    @Param({"native", "mapped"})
    public String segmentKind;

    private TriviallyCopyable object;
    private Arena arena;
    private MemorySegment segment;
    private Path file;

    @Setup
    public void setUp(BenchmarkParams params) throws IOException {
        String expected = params.getBenchmark().endsWith("Internal") ? "jdk.internal.misc.Unsafe" : "sun.misc.Unsafe";
        if (!CopyEngine.unsafeAccess().equals(expected)) {
            throw new IllegalStateException(params.getBenchmark() + " runs on " + CopyEngine.unsafeAccess()
                    + ", not " + expected + ": start the benchmark jar without --add-exports");
        }
        object = switch (block) {
            case "MarketData" -> new MarketData();
            case "BookUpdate" -> new BookUpdate();
            case "Longs512" -> SweepBlocks.newBlock(4096);
            default -> throw new IllegalArgumentException("unknown block " + block);
        };
        arena = Arena.ofConfined();
        if (segmentKind.equals("mapped")) {
            file = Files.createTempFile("blit-backend", ".bin");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                segment = channel.map(FileChannel.MapMode.READ_WRITE, 0, SEGMENT_BYTES, arena);
            }
        } else {
            segment = arena.allocate(SEGMENT_BYTES, Long.BYTES);
        }
        object.writeTo(segment, 64);
        object.readFrom(segment, 64);
    }

    @TearDown
    public void tearDown() throws IOException {
        arena.close();
        if (file != null) {
            Files.deleteIfExists(file);
        }
    }

    @Benchmark
    @Fork(value = 3, jvmArgs = {ALLOW})
    public MemorySegment writeSunMisc() {
        object.writeTo(segment, 64);
        return segment;
    }

    @Benchmark
    @Fork(value = 3, jvmArgs = {ALLOW})
    public TriviallyCopyable readSunMisc() {
        object.readFrom(segment, 64);
        return object;
    }

    @Benchmark
    @Fork(value = 3, jvmArgs = {ALLOW, EXPORT})
    public MemorySegment writeInternal() {
        object.writeTo(segment, 64);
        return segment;
    }

    @Benchmark
    @Fork(value = 3, jvmArgs = {ALLOW, EXPORT})
    public TriviallyCopyable readInternal() {
        object.readFrom(segment, 64);
        return object;
    }
}
