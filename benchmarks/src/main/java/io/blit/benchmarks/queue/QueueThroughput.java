package io.blit.benchmarks.queue;

import io.blit.cli.CliSupport;
import io.blit.cli.ToolVersion;
import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.Tailer;
import io.blit.queue.WaitStrategy;
import io.blit.tools.messages.MarketData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/**
 * Throughput harness of the persisted queue: how many {@link MarketData} messages per second one
 * appender thread sustains into a fresh queue, alone and with one tailer thread reading every message.
 *
 * <p>Each run creates a new queue in a new temporary directory (fresh, sparse segment files: the first touch of
 * every page is part of the cost, as in production), and deletes it afterwards.
 * <ul>
 *   <li><b>append</b>: one thread appends {@code --messages} messages; the time is from the first append to the
 *       return of the last.</li>
 *   <li><b>append+tail</b>: the same appender, and one tailer thread started first that reads every message with
 *       {@link Tailer#next} with the {@code --wait} strategy ({@link WaitStrategy#PARK} unless told) and checks that message
 *       {@code n} has {@code securityId == n}; the time is from the first append until the tailer has read the
 *       last message. The tailer's lag when the appender finished is printed too.</li>
 * </ul>
 * Beside the wall-clock rate each line gives the CPU time and the heap allocation per message of the appender thread
 * (and of the tailer thread): on a shared machine the wall clock also counts the time other processes held the cores,
 * the CPU time does not (it still counts the page faults, which the kernel handles in the faulting thread). The
 * allocation shows that the hot paths allocate nothing: what remains is the rolls to new files, amortised.
 * A JIT warm-up run of each kind (a tenth of the messages, at least 1 M) precedes the measured runs; the median of
 * the measured runs is printed last. Run it with a JDK 25 {@code java} (see {@code benchmarks/README.md}):
 * <pre>
 * java --sun-misc-unsafe-memory-access=allow -cp benchmarks/target/benchmarks.jar \
 *     io.blit.benchmarks.queue.QueueThroughput [--messages N] [--runs R] [--segment-size BYTES] [--dir DIR]
 *     [--mode both|append|tail] [--wait back-off|busy-spin|yield|park] [--stream single|mixed|both|all]
 *     [--checksums off|on|both]
 * </pre>
 */
@Command(name = "QueueThroughput", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = "How many MarketData messages per second one appender sustains into a fresh queue, alone and "
                + "with one tailer reading every message.",
        footer = {"", "Exit codes: 0 ok, 2 usage error or bad input."})
public final class QueueThroughput implements Callable<Integer> {
    private static final com.sun.management.ThreadMXBean THREADS = ThroughputOptions.THREADS;
    /** A tailer that sees no message for this long fails the run (the appender died). */
    private static final long TAILER_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    @Mixin
    private ThroughputOptions options;

    // PARK: measured on a quiet host, two rounds: 5.97-7.75 M msg/s with the tailer at 60-69 ns of CPU a message,
    // against 5.05-6.15 M msg/s and 126-161 ns for BACK_OFF: a parked tailer leaves the second core to the
    // background file preparation and reads in larger batches (docs/queue-performance.md).
    @Option(names = "--wait", paramLabel = "back-off|busy-spin|yield|park", converter = WaitConverter.class,
            description = "the tailer's wait strategy (default park)")
    private WaitStrategy wait = WaitStrategy.PARK;

    @Option(names = "--stream", paramLabel = "single|mixed|both|all", converter = StreamConverter.class,
            description = {"single (default): MarketData in a queue of one class; mixed: MarketData and BookUpdate in "
                    + "one typed queue (message n a BookUpdate when n %% 3 == 2), read by type; both: each kind of run "
                    + "for single, then mixed, in one run, with the ratios of the medians; all: single, then only "
                    + "MarketData in the typed queue of mixed (the cost of the types alone), then mixed"})
    private List<ThroughputStream> streams = List.of(ThroughputStream.SINGLE);

    @Option(names = "--checksums", paramLabel = "off|on|both", converter = ChecksumsConverter.class, arity = "1",
            description = {"record checksums (QueueOptions.recordChecksums): off (default), on, or both: every run "
                    + "once without and once with them, in turn, with the ratios of the medians"})
    private List<Boolean> checksums = List.of(false);
    /** Whether the queue of the run being measured writes record checksums. */
    private boolean checksumsOn;

    private long messages;
    private long segmentSize;
    private Path parent;
    private ThroughputStream stream = ThroughputStream.SINGLE;

    private QueueThroughput() {
    }

    /**
     * One measured append+tail run of {@code n} messages (tailer waits {@link WaitStrategy#PARK}), for harnesses that
     * report the local figure beside their own in the same run; prints its line like a run of this harness.
     *
     * @return millions of messages per second
     */
    static double appendAndTailOnce(long n, long segmentSize, Path parent, String label) throws Exception {
        QueueThroughput harness = new QueueThroughput();
        harness.segmentSize = segmentSize;
        harness.parent = parent;
        return harness.appendAndTail(n, label);
    }

    public static void main(String[] args) {
        System.exit(CliSupport.execute(CliSupport.configure(new CommandLine(new QueueThroughput()), System.out, System.err),
                args, System.out, System.err));
    }

    /** {@code single}, {@code mixed} or {@code both}. */
    static final class StreamConverter implements ITypeConverter<List<ThroughputStream>> {
        @Override
        public List<ThroughputStream> convert(String value) {
            return switch (value) {
                case "single" -> List.of(ThroughputStream.SINGLE);
                case "mixed" -> List.of(ThroughputStream.MIXED);
                case "both" -> List.of(ThroughputStream.SINGLE, ThroughputStream.MIXED);
                case "all" -> List.of(ThroughputStream.SINGLE, ThroughputStream.TYPED_MD, ThroughputStream.MIXED);
                default -> throw new TypeConversionException("must be single, mixed, both or all, got '" + value + "'");
            };
        }
    }

    /** {@code back-off}, {@code busy-spin}, {@code yield}, {@code park}: the {@link WaitStrategy} of that name. */
    static final class WaitConverter implements ITypeConverter<WaitStrategy> {
        @Override
        public WaitStrategy convert(String value) {
            for (WaitStrategy strategy : WaitStrategy.values()) {
                if (strategy.name().toLowerCase(Locale.ROOT).replace('_', '-').equals(value)) {
                    return strategy;
                }
            }
            throw new TypeConversionException("must be back-off, busy-spin, yield or park, got '" + value + "'");
        }
    }

    @Override
    public Integer call() throws Exception {
        options.validate();
        messages = options.messages();
        segmentSize = options.segmentSize();
        parent = options.parent();
        System.out.printf(Locale.ROOT, "queue throughput: %,d messages a run, segment %,d bytes, dir %s, %d run(s) of "
                + "each stream, interleaved, tailer waits %s, JDK %s, %d CPUs%n", messages, segmentSize, parent,
                options.runs(), wait, Runtime.version(), Runtime.getRuntime().availableProcessors());
        List<Variant> variants = new ArrayList<>();
        for (ThroughputStream each : streams) {
            System.out.println("  " + each + ": " + each.description());
            for (boolean crc : checksums) {
                variants.add(new Variant(each, crc));
            }
        }
        boolean append = options.appendAlone();
        boolean tail = options.withTailer();
        int kinds = variants.size();
        List<List<Double>> appendOnly = new ArrayList<>();
        List<List<Double>> withTailer = new ArrayList<>();
        for (Variant each : variants) { // a JIT warm-up of every variant first: they share the code
            use(each);
            appendOnly.add(new ArrayList<>());
            withTailer.add(new ArrayList<>());
            if (append) {
                appendAlone(options.warmup(), "warm-up append " + each);
            }
            if (tail) {
                appendAndTail(options.warmup(), "warm-up append+tail " + each);
            }
        }
        for (int r = 1; r <= options.runs(); r++) { // side by side: drift of the machine hits every variant alike
            for (int k = 0; k < kinds; k++) {
                Variant each = variants.get(k);
                use(each);
                if (append) {
                    appendOnly.get(k).add(appendAlone(messages, "run " + r + " append " + each));
                }
                if (tail) {
                    withTailer.get(k).add(appendAndTail(messages, "run " + r + " append+tail " + each));
                }
            }
        }
        for (int k = 0; k < kinds; k++) {
            if (append) {
                System.out.printf(Locale.ROOT, "median append alone:      %6.2f M msg/s (%s)%n",
                        ThroughputOptions.median(appendOnly.get(k)), variants.get(k));
            }
            if (tail) {
                System.out.printf(Locale.ROOT, "median append+tail:       %6.2f M msg/s (%s)%n",
                        ThroughputOptions.median(withTailer.get(k)), variants.get(k));
            }
        }
        for (int k = 1; k < kinds; k++) {
            System.out.printf(Locale.ROOT, "%s / %s, medians of this run: append alone %s, append+tail %s%n",
                    variants.get(k), variants.get(0), ratio(appendOnly, k), ratio(withTailer, k));
        }
        return CliSupport.OK;
    }

    /** One kind of run: a stream, with record checksums or without. */
    private record Variant(ThroughputStream stream, boolean checksums) {
        @Override
        public String toString() {
            return stream + (checksums ? " checksums" : "");
        }
    }

    private void use(Variant variant) {
        stream = variant.stream();
        checksumsOn = variant.checksums();
    }

    /** {@code off}, {@code on}, {@code both}: runs without record checksums, with them, or each in turn. */
    static final class ChecksumsConverter implements ITypeConverter<List<Boolean>> {
        @Override
        public List<Boolean> convert(String value) {
            return switch (value) {
                case "off" -> List.of(false);
                case "on" -> List.of(true);
                case "both" -> List.of(false, true);
                default -> throw new TypeConversionException("must be off, on or both, got '" + value + "'");
            };
        }
    }

    private static String ratio(List<List<Double>> rates, int k) {
        return rates.get(k).isEmpty() ? "-" : String.format(Locale.ROOT, "%.3f",
                ThroughputOptions.median(rates.get(k)) / ThroughputOptions.median(rates.get(0)));
    }

    /** Appends {@code n} messages with no tailer; returns millions of messages per second. */
    private double appendAlone(long n, String label) throws IOException {
        Path dir = Files.createTempDirectory(parent, "blit-qperf-");
        try (BlitQueue<Object> queue = stream.open(dir, segmentSize, checksumsOn)) {
            long nanos;
            long cpu = THREADS.getCurrentThreadCpuTime();
            long user = THREADS.getCurrentThreadUserTime();
            long allocated = THREADS.getCurrentThreadAllocatedBytes();
            try (Appender<Object> appender = queue.appender()) {
                nanos = appendAll(appender, n);
            }
            cpu = THREADS.getCurrentThreadCpuTime() - cpu;
            user = THREADS.getCurrentThreadUserTime() - user;
            allocated = THREADS.getCurrentThreadAllocatedBytes() - allocated;
            return report(label, n, nanos, cpu, user, allocated, null);
        } finally {
            ThroughputOptions.deleteTree(dir);
        }
    }

    /** Appends {@code n} messages while a tailer thread reads them; returns millions of messages per second. */
    private double appendAndTail(long n, String label) throws Exception {
        Path dir = Files.createTempDirectory(parent, "blit-qperf-");
        try (BlitQueue<Object> queue = stream.open(dir, segmentSize, checksumsOn)) {
            TailerThread reader = new TailerThread(stream.sink(queue.tailer()), n, wait);
            reader.start();
            long nanos;
            long lagAtEnd;
            long cpu = THREADS.getCurrentThreadCpuTime();
            long user = THREADS.getCurrentThreadUserTime();
            long allocated = THREADS.getCurrentThreadAllocatedBytes();
            try (Appender<Object> appender = queue.appender()) {
                long start = System.nanoTime();
                appendAll(appender, n);
                lagAtEnd = n - reader.read;
                cpu = THREADS.getCurrentThreadCpuTime() - cpu;
                user = THREADS.getCurrentThreadUserTime() - user;
                allocated = THREADS.getCurrentThreadAllocatedBytes() - allocated;
                reader.join();
                if (reader.failure != null) {
                    throw new IllegalStateException("tailer failed after " + reader.read + " messages", reader.failure);
                }
                nanos = reader.finishedAt - start;
            }
            reader.lagAtEnd = lagAtEnd;
            return report(label, n, nanos, cpu, user, allocated, reader);
        } finally {
            ThroughputOptions.deleteTree(dir);
        }
    }

    private long appendAll(Appender<Object> appender, long n) {
        ThroughputStream.Source source = stream.source();
        long start = System.nanoTime();
        for (long i = 0; i < n; i++) {
            appender.append(source.message(i));
        }
        return System.nanoTime() - start;
    }

    private static double report(String label, long n, long nanos, long appenderCpu, long appenderUser,
                                 long appenderAllocated, TailerThread tailer) {
        double mps = n * 1e3 / nanos;
        System.out.printf(Locale.ROOT, "%-20s %,11d msgs in %7.1f ms: %6.2f M msg/s (%5.1f ns/msg) | appender CPU"
                + " %5.1f ns/msg (user %5.1f), %.3f B/msg allocated%s%n", label, n, nanos / 1e6, mps,
                nanos / (double) n, appenderCpu / (double) n, appenderUser / (double) n,
                appenderAllocated / (double) n, tailer == null ? ""
                        : String.format(Locale.ROOT, " | tailer CPU %5.1f ns/msg, %.3f B/msg, %,d behind at the last append",
                        tailer.cpu / (double) n, tailer.allocated / (double) n, tailer.lagAtEnd));
        return mps;
    }

    /** Reads {@code n} messages, checking each one's number, then records when it finished. */
    private static final class TailerThread extends Thread {
        private final ThroughputStream.Sink sink;
        private final long n;
        private final WaitStrategy wait;
        volatile long read;
        volatile long finishedAt;
        volatile long cpu;
        volatile long allocated;
        long lagAtEnd;
        volatile Throwable failure;

        TailerThread(ThroughputStream.Sink sink, long n, WaitStrategy wait) {
            super("qperf-tailer");
            this.sink = sink;
            this.n = n;
            this.wait = wait;
            setDaemon(true);
        }

        @Override
        public void run() {
            long count = 0;
            long cpuAtStart = THREADS.getCurrentThreadCpuTime();
            long allocatedAtStart = THREADS.getCurrentThreadAllocatedBytes();
            try (Tailer<Object> tailer = sink.tailer()) {
                while (count < n) {
                    long number = sink.next();
                    if (number < 0) { // as Tailer.next does: idle with the strategy, up to the time-out
                        long since = System.nanoTime();
                        for (int attempt = 0; number < 0; attempt++) {
                            if (System.nanoTime() - since > TAILER_TIMEOUT_NANOS) {
                                throw new IllegalStateException("no message " + count + " within 60 s");
                            }
                            wait.idle(attempt);
                            number = sink.next();
                        }
                    }
                    if (number != count) {
                        throw new IllegalStateException("message " + count + " has number " + number);
                    }
                    count++;
                    if ((count & 0x3FF) == 0) {
                        read = count;
                    }
                }
                finishedAt = System.nanoTime();
                cpu = THREADS.getCurrentThreadCpuTime() - cpuAtStart;
                allocated = THREADS.getCurrentThreadAllocatedBytes() - allocatedAtStart;
            } catch (Throwable t) {
                failure = t;
            } finally {
                read = count;
            }
        }
    }
}
