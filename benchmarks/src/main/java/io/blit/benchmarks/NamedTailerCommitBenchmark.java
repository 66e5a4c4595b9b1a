package io.blit.benchmarks;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueClock;
import io.blit.queue.QueueOptions;
import io.blit.queue.NamedTailer;
import io.blit.tools.messages.MarketData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * Hypothesis: a named consumer's {@link NamedTailer#commit()} costs what its parts cost — a read of the wall clock, a
 * load of the holder word, an opaque and a release store into the mapped positions file — tens of nanoseconds and
 * no system call, while {@link NamedTailer#sync()} after it (an {@code msync} of the slot's page) costs a write to the
 * device, orders of magnitude more.
 *
 * <p>Baselines beside {@code commit}: {@code releaseStoreFloor}, a release store of a changing value into a mapped
 * file (a commit without the clock and the holder check), {@code clock}, {@link System#currentTimeMillis()}, and
 * {@code cachedClock}, the queue's default clock ({@code QueueClock.cached()}) that an append reads instead.
 * {@code commitAndSync} depends on the file system of {@code java.io.tmpdir}, where the queue is created (on tmpfs an
 * msync writes nothing). The tailer has read one message, so every commit stores index 0 again: the stores are the
 * same whatever the index.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--sun-misc-unsafe-memory-access=allow")
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class NamedTailerCommitBenchmark {
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private Path dir;
    private BlitQueue<MarketData> queue;
    private NamedTailer<MarketData> tailer;
    private Appender<MarketData> appender;
    private Arena arena;
    private MemorySegment mapped;
    private long value;

    @Setup
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("blit-commit-bench");
        queue = BlitQueue.open(dir, MarketData.class, QueueOptions.defaults().segmentSize(1 << 20));
        appender = queue.appender(); // open for the whole run: it keeps the cached clock's ticker running
        appender.append(new MarketData().fillFor(0, 0));
        tailer = queue.tailer("bench");
        if (!tailer.readNext(new MarketData())) {
            throw new IllegalStateException("the message appended is not read");
        }
        arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(dir.resolve("floor"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, 4096, arena);
        }
    }

    @TearDown
    public void tearDown() throws IOException {
        tailer.commit();
        if (tailer.committedIndex() != 0 || mapped.get(ValueLayout.JAVA_LONG, 0) != value) {
            throw new IllegalStateException("commits or floor stores missing");
        }
        tailer.close();
        appender.close();
        queue.close();
        arena.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> {
                try {
                    Files.delete(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    @Benchmark
    public void commit() {
        tailer.commit();
    }

    @Benchmark
    public void releaseStoreFloor() {
        WORD.setRelease(mapped, 0L, ++value);
    }

    @Benchmark
    public long clock() {
        return System.currentTimeMillis();
    }

    /** What an append reads instead of {@link #clock}: the queue's default clock, its ticker running (an open appender). */
    @Benchmark
    public long cachedClock() {
        return QueueClock.cached().epochNanos();
    }

    @Benchmark
    public void commitAndSync() {
        tailer.commit();
        tailer.sync();
    }
}
