package io.blit.benchmarks.queue;

import io.blit.cli.CliSupport;
import io.blit.cli.ToolVersion;
import io.blit.queue.WaitStrategy;
import io.blit.tools.messages.MarketData;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReferenceArray;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * What a memory-mapped, file-backed queue of {@code MarketData} can reach on this machine at best: the floor of
 * {@link QueueThroughput}, measured with the same message count, record size (160 bytes: an 8-byte header word, the
 * 8 bytes of the record's time, which the floor leaves unwritten, and the 144-byte block), segment files (64 MiB, fresh, in a new directory) and tailer wait ({@link WaitStrategy#PARK}).
 *
 * <p>Everything a real queue needs beyond the bytes is left out, so that what remains is the cost of the storage
 * and of passing the bytes between two threads: one writer thread, no claim (a plain release store of the header
 * word publishes each record), no file header, no {@code force}, no checkpoints, no fault checks, no bounds or
 * liveness checks beyond {@link MemorySegment}'s own; the payload is one {@link MemorySegment#copy} from a
 * {@code long[]}; the next file is handed to the reader through an in-process array instead of the directory. The
 * files are prepared the way the queue prepares them ({@code --prepare zero-fill}: a background thread writes
 * zeros over the next file under a temporary name and renames it) or not at all ({@code --prepare none}: sparse
 * files, each page's first touch allocates it). If this harness cannot reach a rate, no queue built on mapped files
 * can reach it here, whatever its code.
 *
 * <p>{@code --protocol queue} adds two per-message costs the queue cannot drop: the claim (a compare-and-set of the
 * header word from 0, as several appenders need) and Blit's copy of a {@link MarketData} object instead of a
 * {@code long[]}. (A third, the call that surfaces a deferred fault of the mapping after each copy, is internal to
 * the queue; measured at about 4–5 ns a message in this harness, docs/queue-performance.md.) The gap between
 * {@code queue} and {@link QueueThroughput} is what the queue's own code costs.
 *
 * <pre>
 * java --sun-misc-unsafe-memory-access=allow -cp benchmarks/target/benchmarks.jar io.blit.benchmarks.queue.QueueThroughputFloor \
 *     [--messages N] [--runs R] [--segment-size BYTES[k|m|g]] [--dir DIR] [--prepare zero-fill|none] [--mode both|append|tail]
 *     [--protocol bare|queue]
 * </pre>
 */
@Command(name = "QueueThroughputFloor", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = "What a memory-mapped, file-backed queue of MarketData can reach on this machine at best: the "
                + "floor of QueueThroughput.",
        footer = {"", "Exit codes: 0 ok, 2 usage error or bad input."})
public final class QueueThroughputFloor implements Callable<Integer> {
    private static final com.sun.management.ThreadMXBean THREADS = ThroughputOptions.THREADS;
    private static final int PAYLOAD = 144;
    /** A queue record's bytes: header word, time (not written here: the floor stores less), payload. */
    private static final int RECORD = 8 + 8 + PAYLOAD;
    private static final long COMMITTED = 1L << 62;
    private static final long CLAIMED = 1L << 61;
    private static final int ZERO_CHUNK = 1 << 20;
    private static final VarHandle HEADER = ValueLayout.JAVA_LONG.varHandle();

    @Mixin
    private ThroughputOptions options;

    @Option(names = "--prepare", paramLabel = "zero-fill|none", converter = PrepareConverter.class,
            description = "zero-fill (default): a background thread zero-fills the next file, as the queue does; "
                    + "none: sparse files")
    private Prepare prepare = Prepare.ZERO_FILL;

    @Option(names = "--protocol", paramLabel = "bare|queue", converter = ProtocolConverter.class,
            description = "bare (default): a release store publishes each record; queue: adds the claim and Blit's copy")
    private Protocol protocolOption = Protocol.BARE;

    private boolean zeroFill;
    private boolean protocol;
    private long messages;
    private long segmentSize;

    private QueueThroughputFloor() {
    }

    public static void main(String[] args) {
        System.exit(CliSupport.execute(CliSupport.configure(new CommandLine(new QueueThroughputFloor()), System.out,
                System.err), args, System.out, System.err));
    }

    /** How the next segment file is prepared. */
    enum Prepare { ZERO_FILL, NONE }

    /** What publishes a record: a bare release store, or the queue's claim and Blit's copy too. */
    enum Protocol { BARE, QUEUE }

    static final class PrepareConverter implements ITypeConverter<Prepare> {
        @Override
        public Prepare convert(String value) {
            return switch (value) {
                case "zero-fill" -> Prepare.ZERO_FILL;
                case "none" -> Prepare.NONE;
                default -> throw new TypeConversionException("must be zero-fill or none, got '" + value + "'");
            };
        }
    }

    static final class ProtocolConverter implements ITypeConverter<Protocol> {
        @Override
        public Protocol convert(String value) {
            return switch (value) {
                case "queue" -> Protocol.QUEUE;
                case "bare" -> Protocol.BARE;
                default -> throw new TypeConversionException("must be bare or queue, got '" + value + "'");
            };
        }
    }

    @Override
    public Integer call() throws Exception {
        options.validate();
        zeroFill = prepare == Prepare.ZERO_FILL;
        protocol = protocolOption == Protocol.QUEUE;
        messages = options.messages();
        segmentSize = options.segmentSize();
        run();
        return CliSupport.OK;
    }

    private void run() throws Exception {
        System.out.printf(Locale.ROOT, "queue throughput FLOOR: %,d 160-byte records, segment %,d bytes, dir %s,"
                + " prepare %s, protocol %s, %d run(s), JDK %s, %d CPUs%n", messages, segmentSize, options.parent(),
                zeroFill ? "zero-fill" : "none", protocol ? "queue" : "bare", options.runs(), Runtime.version(), Runtime.getRuntime().availableProcessors());
        long warmup = options.warmup();
        boolean append = options.appendAlone();
        boolean tail = options.withTailer();
        List<Double> alone = new ArrayList<>();
        List<Double> withReader = new ArrayList<>();
        if (append) {
            once(warmup, false, "warm-up append");
        }
        if (tail) {
            once(warmup, true, "warm-up append+tail");
        }
        for (int r = 1; r <= options.runs(); r++) {
            if (append) {
                alone.add(once(messages, false, "run " + r + " append"));
            }
            if (tail) {
                withReader.add(once(messages, true, "run " + r + " append+tail"));
            }
        }
        if (append) {
            System.out.printf(Locale.ROOT, "median floor append alone: %6.2f M msg/s%n", ThroughputOptions.median(alone));
        }
        if (tail) {
            System.out.printf(Locale.ROOT, "median floor append+tail:  %6.2f M msg/s%n", ThroughputOptions.median(withReader));
        }
    }

    private double once(long n, boolean withReader, String label) throws Exception {
        Path dir = Files.createTempDirectory(options.parent(), "blit-qfloor-");
        int recordsPerFile = (int) (segmentSize / RECORD);
        int fileCount = (int) ((n + recordsPerFile - 1) / recordsPerFile);
        AtomicReferenceArray<Path> published = new AtomicReferenceArray<>(fileCount);
        ExecutorService preparer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "qfloor-preparer");
            t.setDaemon(true);
            return t;
        });
        try {
            Reader reader = withReader ? new Reader(published, n, recordsPerFile, segmentSize) : null;
            if (reader != null) {
                reader.start();
            }
            long cpu = THREADS.getCurrentThreadCpuTime();
            long user = THREADS.getCurrentThreadUserTime();
            long start = System.nanoTime();
            write(dir, n, recordsPerFile, fileCount, published, preparer);
            long end = System.nanoTime();
            cpu = THREADS.getCurrentThreadCpuTime() - cpu;
            user = THREADS.getCurrentThreadUserTime() - user;
            String readerPart = "";
            if (reader != null) {
                reader.join();
                if (reader.failure != null) {
                    throw new IllegalStateException("reader failed", reader.failure);
                }
                end = reader.finishedAt;
                readerPart = String.format(Locale.ROOT, " | reader CPU %5.1f ns/msg", reader.cpu / (double) n);
            }
            double mps = n * 1e3 / (end - start);
            System.out.printf(Locale.ROOT, "%-20s %,11d msgs in %7.1f ms: %6.2f M msg/s | writer CPU %5.1f ns/msg (user %5.1f)%s%n",
                    label, n, (end - start) / 1e6, mps, cpu / (double) n, user / (double) n, readerPart);
            return mps;
        } finally {
            preparer.shutdownNow();
            ThroughputOptions.deleteTree(dir);
        }
    }

    private void write(Path dir, long n, int recordsPerFile, int fileCount, AtomicReferenceArray<Path> published,
                       ExecutorService preparer) throws Exception {
        long[] block = new long[PAYLOAD / 8];
        MemorySegment source = MemorySegment.ofArray(block);
        MarketData md = new MarketData().fillFor(0, 0);
        Future<Path> next = zeroFill ? preparer.submit(() -> prepare(dir, 0)) : null;
        long written = 0;
        for (int file = 0; file < fileCount; file++) {
            Path path;
            if (zeroFill) {
                path = next.get();
                if (file + 1 < fileCount) {
                    int following = file + 1;
                    next = preparer.submit(() -> prepare(dir, following));
                }
            } else {
                path = create(dir, file, false);
            }
            try (Arena arena = Arena.ofConfined(); FileChannel channel = FileChannel.open(path,
                    StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                MemorySegment segment = channel.map(FileChannel.MapMode.READ_WRITE, 0, segmentSize, arena);
                published.set(file, path);
                long inFile = Math.min(recordsPerFile, n - written);
                long position = 0;
                for (long r = 0; r < inFile; r++) {
                    long index = written + r;
                    if (protocol && (long) HEADER.compareAndExchange(segment, position, 0L, CLAIMED | PAYLOAD) != 0L) {
                        throw new IllegalStateException("record " + index + " was claimed by someone else");
                    }
                    if (protocol) {
                        md.securityId = index;
                        md.time = index;
                        md.writeTo(segment, position + 8);
                    } else {
                        block[0] = index;
                        block[1] = index;
                        MemorySegment.copy(source, 0, segment, position + 8, PAYLOAD);
                    }
                    HEADER.setRelease(segment, position, COMMITTED | PAYLOAD);
                    position += RECORD;
                }
                written += inFile;
            }
        }
    }

    private Path prepare(Path dir, int file) throws IOException {
        return create(dir, file, true);
    }

    private Path create(Path dir, int file, boolean fill) throws IOException {
        Path target = dir.resolve("segment-" + file + ".floor");
        Path temporary = dir.resolve("segment-" + file + ".floor.tmp");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (fill) {
                ByteBuffer zeros = ByteBuffer.allocateDirect(ZERO_CHUNK);
                for (long at = 0; at < segmentSize; at += ZERO_CHUNK) {
                    zeros.clear().limit((int) Math.min(ZERO_CHUNK, segmentSize - at));
                    long position = at;
                    while (zeros.hasRemaining()) {
                        position += channel.write(zeros, position);
                    }
                }
            } else {
                channel.write(ByteBuffer.allocate(1), segmentSize - 1);
            }
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        return target;
    }

    /** Reads every record through its own mapping of each file, as a tailer in another thread does. */
    private static final class Reader extends Thread {
        private final AtomicReferenceArray<Path> published;
        private final long n;
        private final int recordsPerFile;
        private final long segmentSize;
        volatile long finishedAt;
        volatile long cpu;
        volatile Throwable failure;

        Reader(AtomicReferenceArray<Path> published, long n, int recordsPerFile, long segmentSize) {
            super("qfloor-reader");
            this.published = published;
            this.n = n;
            this.recordsPerFile = recordsPerFile;
            this.segmentSize = segmentSize;
            setDaemon(true);
        }

        @Override
        public void run() {
            long cpuAtStart = THREADS.getCurrentThreadCpuTime();
            long[] block = new long[PAYLOAD / 8];
            MemorySegment into = MemorySegment.ofArray(block);
            long read = 0;
            try {
                for (int file = 0; read < n; file++) {
                    Path path;
                    int attempt = 0;
                    while ((path = published.get(file)) == null) {
                        WaitStrategy.PARK.idle(attempt++);
                    }
                    try (Arena arena = Arena.ofConfined();
                         FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
                        MemorySegment segment = channel.map(FileChannel.MapMode.READ_ONLY, 0, segmentSize, arena);
                        long inFile = Math.min(recordsPerFile, n - read);
                        long position = 0;
                        for (long r = 0; r < inFile; r++) {
                            attempt = 0;
                            while (((long) HEADER.getAcquire(segment, position) & COMMITTED) == 0) {
                                WaitStrategy.PARK.idle(attempt++);
                            }
                            MemorySegment.copy(segment, position + 8, into, 0, PAYLOAD);
                            if (block[0] != read + r) {
                                throw new IllegalStateException("record " + (read + r) + " holds " + block[0]);
                            }
                            position += RECORD;
                        }
                        read += inFile;
                    }
                }
                finishedAt = System.nanoTime();
                cpu = THREADS.getCurrentThreadCpuTime() - cpuAtStart;
            } catch (Throwable t) {
                failure = t;
            }
        }
    }
}
