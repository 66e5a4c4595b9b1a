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

/**
 * Hypothesis: the engine without {@code sun.misc.Unsafe} ({@link CopyEngine#GENERATED_FFM}: generated
 * field code on a slice of exactly the block, every check through the FFM API) copies within 1.15× of
 * the Unsafe engine ({@link CopyEngine#GENERATED}: a confined segment checked once, then stores by
 * address), write and read, for every segment kind and block size that matters.
 *
 * <p>Both engines are measured through the same entry point, {@link TriviallyCopyable#writeTo} /
 * {@link TriviallyCopyable#readFrom} (the default engine's constant call site), each in its own forks:
 * {@code unsafe*} forks run with {@code -Dio.blit.core.engine=GENERATED}, {@code ffm*} forks with
 * {@code -Dio.blit.core.engine=GENERATED_FFM}; {@link #setUp} checks that the default copier is the
 * engine asked for. Segment kinds: {@code confined} ({@code Arena.ofConfined()}), {@code shared},
 * {@code global} and {@code mapped} (a 4 KiB file mapped with a confined arena, as the queue maps
 * its files); blocks: {@code MarketData} (144 bytes, 18 fields), {@code BookUpdate} (192 bytes, 24
 * fields) and {@code Longs512} (4096 bytes, 512 fields). Every op copies one block at offset 64 of an
 * 8 KiB segment allocated once; each fork touches one segment kind only (one JIT profile).
 *
 * <p>Defaults: 2 forks, 5 × 1 s warmup (the 512-field class's generated code takes seconds to reach
 * C2), 5 × 1 s measurement. Forks get {@code --sun-misc-unsafe-memory-access=allow}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
public class CopyEngineBenchmark {
    private static final String ALLOW = "--sun-misc-unsafe-memory-access=allow";
    private static final String UNSAFE = "-Dio.blit.core.engine=GENERATED";
    private static final String FFM = "-Dio.blit.core.engine=GENERATED_FFM";
    private static final int SEGMENT_BYTES = 8192;

    @Param({"MarketData", "BookUpdate", "Longs512"})
    public String block;

    @Param({"confined", "shared", "global", "mapped"})
    public String kind;

    // Non-final, so that the JIT cannot fold the inputs into constants.
    private Arena arena;
    private MemorySegment segment;
    private TriviallyCopyable message;
    private long offset;
    private Path file;

    /** Allocates or maps the segment, checks the engine and that the block reads back unchanged. */
    @Setup
    public void setUp(org.openjdk.jmh.infra.BenchmarkParams params) throws IOException {
        arena = switch (kind) {
            case "confined", "mapped" -> Arena.ofConfined();
            case "shared" -> Arena.ofShared();
            case "global" -> Arena.global();
            default -> throw new IllegalArgumentException("kind " + kind);
        };
        if (kind.equals("mapped")) {
            file = Files.createTempFile("blit-engine", ".bin");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                segment = channel.map(FileChannel.MapMode.READ_WRITE, 0, SEGMENT_BYTES, arena);
            }
        } else {
            segment = arena.allocate(SEGMENT_BYTES, Long.BYTES);
        }
        message = switch (block) {
            case "MarketData" -> new MarketData().fillFor(42, 42_000);
            case "BookUpdate" -> new BookUpdate().fillFor(42, 42_000);
            case "Longs512" -> SweepBlocks.newBlock(4096);
            default -> throw new IllegalArgumentException("block " + block);
        };
        offset = 64;
        boolean ffm = params.getBenchmark().endsWith(".ffmWrite") || params.getBenchmark().endsWith(".ffmRead");
        CopyEngine expected = ffm ? CopyEngine.GENERATED_FFM : CopyEngine.GENERATED;
        CopyEngine engine = BlockCopier.of(message.getClass()).engine();
        if (engine != expected) {
            throw new IllegalStateException(params.getBenchmark() + ": default engine " + engine + ", expected " + expected);
        }
        message.writeTo(segment, offset);
        TriviallyCopyable back = switch (block) {
            case "MarketData" -> new MarketData();
            case "BookUpdate" -> new BookUpdate();
            default -> SweepBlocks.newBlock(4096);
        };
        back.readFrom(segment, offset);
        long length = message.byteSize();
        back.writeTo(segment, offset + length);
        if (MemorySegment.mismatch(segment, offset, offset + length, segment, offset + length, offset + 2 * length) != -1) {
            throw new IllegalStateException(block + " does not read back to the same image");
        }
    }

    /** Closes the arena (not the global one) and deletes the mapped file. */
    @TearDown
    public void tearDown() throws IOException {
        if (!kind.equals("global")) {
            arena.close();
        }
        if (file != null) {
            Files.deleteIfExists(file);
        }
    }

    @Benchmark
    @Fork(value = 2, jvmArgsAppend = {ALLOW, UNSAFE})
    public MemorySegment unsafeWrite() {
        message.writeTo(segment, offset);
        return segment;
    }

    @Benchmark
    @Fork(value = 2, jvmArgsAppend = {ALLOW, UNSAFE})
    public TriviallyCopyable unsafeRead() {
        message.readFrom(segment, offset);
        return message;
    }

    @Benchmark
    @Fork(value = 2, jvmArgsAppend = {ALLOW, FFM})
    public MemorySegment ffmWrite() {
        message.writeTo(segment, offset);
        return segment;
    }

    @Benchmark
    @Fork(value = 2, jvmArgsAppend = {ALLOW, FFM})
    public TriviallyCopyable ffmRead() {
        message.readFrom(segment, offset);
        return message;
    }
}
