package io.blit.benchmarks.queue;

import io.blit.benchmarks.peers.ChronicleMarketData;
import io.blit.cli.CliSupport;
import io.blit.cli.ToolVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.threads.Pauser;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine;

/**
 * {@link QueueThroughput}'s measurement for Chronicle Queue: one appender thread appends {@code --messages}
 * MarketData ({@link ChronicleMarketData}: {@code writeBytes} of the trivially copyable block) into a fresh queue,
 * alone and with one tailer thread that reads every message ({@code readBytes}) and checks {@code securityId == n},
 * waiting with Chronicle's own {@link Pauser#balanced()} when it has caught up. The queue has the builder's
 * defaults (FAST_DAILY roll cycle, 64 MiB blocks): what Chronicle documents, no roll while measuring. Same warm-up,
 * same output lines as {@link QueueThroughput}, so {@link PeerThroughput} reads both. Runs in a JVM with
 * {@link io.blit.benchmarks.peers.ChronicleQueueKind#JVM_FLAGS}:
 * <pre>
 * java --sun-misc-unsafe-memory-access=allow [ChronicleQueueKind.JVM_FLAGS] -cp benchmarks/target/benchmarks.jar \
 *     io.blit.benchmarks.queue.ChronicleQueueThroughput [--messages N] [--runs R] [--dir DIR] [--mode both|append|tail]
 * </pre>
 */
@Command(name = "ChronicleQueueThroughput", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = "QueueThroughput's measurement for Chronicle Queue (MarketData, appender alone and with a tailer).",
        footer = {"", "Exit codes: 0 ok, 2 usage error or bad input."})
public final class ChronicleQueueThroughput implements Callable<Integer> {
    private static final long TAILER_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    @Mixin
    private ThroughputOptions options;

    public static void main(String[] args) {
        System.exit(CliSupport.execute(CliSupport.configure(new CommandLine(new ChronicleQueueThroughput()), System.out,
                System.err), args, System.out, System.err));
    }

    @Override
    public Integer call() throws Exception {
        options.validate();
        System.out.printf(Locale.ROOT, "chronicle queue throughput: %,d MarketData (%d-byte blocks), Chronicle Queue"
                + " defaults, dir %s, %d run(s), tailer waits Pauser.balanced(), JDK %s, %d CPUs%n", options.messages(),
                ChronicleMarketData.LENGTH, options.parent(), options.runs(), Runtime.version(),
                Runtime.getRuntime().availableProcessors());
        List<Double> appendOnly = new ArrayList<>();
        List<Double> withTailer = new ArrayList<>();
        if (options.appendAlone()) {
            run(options.warmup(), false, "warm-up append");
        }
        if (options.withTailer()) {
            run(options.warmup(), true, "warm-up append+tail");
        }
        for (int r = 1; r <= options.runs(); r++) {
            if (options.appendAlone()) {
                appendOnly.add(run(options.messages(), false, "run " + r + " append"));
            }
            if (options.withTailer()) {
                withTailer.add(run(options.messages(), true, "run " + r + " append+tail"));
            }
        }
        if (options.appendAlone()) {
            System.out.printf(Locale.ROOT, "median append alone:      %6.2f M msg/s%n", ThroughputOptions.median(appendOnly));
        }
        if (options.withTailer()) {
            System.out.printf(Locale.ROOT, "median append+tail:       %6.2f M msg/s%n", ThroughputOptions.median(withTailer));
        }
        return CliSupport.OK;
    }

    /** One run of {@code n} messages, with or without a tailer; returns millions of messages per second. */
    private double run(long n, boolean tail, String label) throws Exception {
        Path dir = Files.createTempDirectory(options.parent(), "chronicle-qperf-");
        try (ChronicleQueue queue = SingleChronicleQueueBuilder.single(dir.toFile()).build()) {
            Reader reader = tail ? new Reader(queue, n) : null;
            if (reader != null) {
                reader.start();
            }
            long start = System.nanoTime();
            long appended;
            try (ExcerptAppender appender = queue.createAppender()) {
                ChronicleMarketData message = new ChronicleMarketData();
                message.data.fillFor(0, 0);
                for (long i = 0; i < n; i++) {
                    message.data.securityId = i;
                    message.data.time = i;
                    appender.writeBytes(message);
                }
                appended = System.nanoTime();
            }
            long end = appended;
            if (reader != null) {
                reader.join();
                if (reader.failure != null) {
                    throw new IllegalStateException("tailer failed after " + reader.read + " messages", reader.failure);
                }
                end = reader.finishedAt;
            }
            double mps = n * 1e3 / (end - start);
            System.out.printf(Locale.ROOT, "%-20s %,11d msgs in %7.1f ms: %6.2f M msg/s (%5.1f ns/msg)%n", label, n,
                    (end - start) / 1e6, mps, (end - start) / (double) n);
            return mps;
        } finally {
            ThroughputOptions.deleteTree(dir);
        }
    }

    /** Reads {@code n} messages, checking each one's {@code securityId}, then records when it finished. */
    private static final class Reader extends Thread {
        private final ChronicleQueue queue;
        private final long n;
        volatile long read;
        volatile long finishedAt;
        volatile Throwable failure;

        Reader(ChronicleQueue queue, long n) {
            super("chronicle-qperf-tailer");
            this.queue = queue;
            this.n = n;
            setDaemon(true);
        }

        @Override
        public void run() {
            ChronicleMarketData into = new ChronicleMarketData();
            Pauser pauser = Pauser.balanced();
            long count = 0;
            try (ExcerptTailer tailer = queue.createTailer()) {
                long idleSince = 0; // the clock is read only while there is nothing to read
                while (count < n) {
                    if (!tailer.readBytes(into)) {
                        long now = System.nanoTime();
                        if (idleSince == 0) {
                            idleSince = now;
                        } else if (now - idleSince > TAILER_TIMEOUT_NANOS) {
                            throw new IllegalStateException("no message " + count + " within 60 s");
                        }
                        pauser.pause();
                        continue;
                    }
                    if (idleSince != 0) {
                        idleSince = 0;
                        pauser.reset();
                    }
                    if (into.data.securityId != count) {
                        throw new IllegalStateException("message " + count + " has securityId " + into.data.securityId);
                    }
                    count++;
                }
                finishedAt = System.nanoTime();
            } catch (Throwable t) {
                failure = t;
            } finally {
                read = count;
            }
        }
    }
}
