package io.blit.benchmarks.queue;

import io.blit.cli.CliSupport;
import io.blit.cli.ToolVersion;
import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.Tailer;
import io.blit.replication.IdleStrategies;
import io.blit.replication.ReplicaStatus;
import io.blit.replication.ReplicationSource;
import io.blit.replication.SecretFile;
import io.blit.replication.SourceOptions;
import io.blit.tools.cli.QueueCli;
import io.blit.tools.messages.MarketData;
import java.io.IOException;
import java.net.DatagramSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * Throughput of replication: MarketData appended on a source queue in this JVM, served by a
 * {@link ReplicationSource} over UDP on the loopback to a replica that {@code replicate follow} runs in another JVM,
 * counted when the replica acknowledges it (committed in its files). One appender appends as fast as it can while it
 * stays at most {@code --window} messages ahead of the replica's acknowledgement, for {@code --seconds}; the rate is
 * the messages acknowledged in that time over that time. Each replicated run is preceded by the same loop with a
 * local tailer in place of the replica ({@code local sustained}: same window, same seconds, so both write the same
 * volume of fresh files for as long) and by a {@link QueueThroughput} append+tail burst of {@code --local-messages}
 * ({@code local burst}: the queue's own throughput figure), so all three come from the same run of the same machine;
 * a shorter warm-up run of each kind comes first and is not counted; each replicated run starts a new replica JVM,
 * which {@code --replica-warm-up S} lets replicate for S seconds before the run measures. The replicated run is made once per batch
 * protection of {@code --protection}, in turn within each round: {@code authenticated} (the default protection: a tag
 * on every batch) and {@code encrypted} (AES-256-GCM). There is no unprotected kind to compare with: a source and a
 * replica have no mode without a tag, so none can be negotiated by a peer (docs/replication.md, "Throughput"):
 * <pre>
 * java --sun-misc-unsafe-memory-access=allow --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
 *     -cp benchmarks/target/benchmarks.jar io.blit.benchmarks.queue.ReplicationThroughput [--seconds S] [--runs R]
 * </pre>
 */
@Command(name = "ReplicationThroughput", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = "MarketData per second from a source append to a replica's commit, beside the local "
                + "append+tail figure of the same run.",
        footer = {"", "Exit codes: 0 ok, 2 usage error or bad input."})
public final class ReplicationThroughput implements Callable<Integer> {
    private static final List<String> CHILD_FLAGS = List.of("--sun-misc-unsafe-memory-access=allow",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED");

    @Option(names = "--seconds", paramLabel = "S", description = "measured seconds of each replicated run (default 10)")
    private int seconds = 10;

    @Option(names = "--runs", paramLabel = "R", description = "runs of each kind (default 3)")
    private int runs = 3;

    @Option(names = "--window", paramLabel = "N",
            description = "most messages the appender runs ahead of the replica's acknowledgement (default 4000000)")
    private long window = 4_000_000;

    @Option(names = "--local-messages", paramLabel = "N",
            description = "messages of each local append+tail run (default 20000000)")
    private long localMessages = 20_000_000;

    @Option(names = "--segment-size", paramLabel = "BYTES", converter = CliSupport.ByteSize.class,
            description = "segment file size of source, replica and local queue (default 256m)")
    private long segmentSize = 256L << 20;

    @Option(names = "--mtu", paramLabel = "BYTES", description = "MTU of the source's stream (default 1408, Aeron's)")
    private int mtu = 1408;

    @Option(names = "--batch-bytes", paramLabel = "BYTES", description = "record bytes per Aeron message (default 61440)")
    private int batchBytes = 60 << 10;

    @Option(names = "--idle", paramLabel = "yield|backoff",
            description = "replication's idle strategy on both sides (system property blit.replication.idle; default backoff)")
    private String idle = "backoff";

    @Option(names = "--replica-warm-up", paramLabel = "S",
            description = "seconds each replicated run replicates, unmeasured, before it measures, so that its new replica"
                    + " JVM is compiled (default 0: measure from its start)")
    private int replicaWarmUp = 0;

    /** The index after the last one the last loop appended. */
    private long appendedUpTo;

    @Option(names = "--protection", paramLabel = "P,...", split = ",",
            description = "batch protections of the replicated runs, in turn: authenticated, encrypted (default both)")
    private List<String> protections = List.of("authenticated", "encrypted");

    @Option(names = "--dir", paramLabel = "DIR", description = "where the temporary queues go (default java.io.tmpdir)")
    private Path parent = Path.of(System.getProperty("java.io.tmpdir"));

    public static void main(String[] args) {
        System.exit(CliSupport.execute(CliSupport.configure(new CommandLine(new ReplicationThroughput()), System.out,
                System.err), args, System.out, System.err));
    }

    @Override
    public Integer call() throws Exception {
        if (seconds < 1 || runs < 1 || window < 1_000 || localMessages < 1_000 || replicaWarmUp < 0) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "--seconds and --runs must be >= 1, --window and --local-messages >= 1000, --replica-warm-up >= 0");
        }
        System.setProperty(IdleStrategies.PROPERTY, idle);
        System.out.printf(Locale.ROOT, "replication throughput: MarketData, %d s per run, window %,d, segment %,d bytes,"
                + " mtu %d, batches of %,d bytes, idle %s, %d run(s), JDK %s, %d CPUs%n", seconds, window, segmentSize,
                mtu, batchBytes, idle, runs, Runtime.version(),
                Runtime.getRuntime().availableProcessors());
        List<Double> burst = new ArrayList<>();
        List<Double> sustained = new ArrayList<>();
        for (String protection : protections) {
            if (!List.of("authenticated", "encrypted").contains(protection)) {
                throw new CommandLine.ParameterException(new CommandLine(this),
                        "--protection takes authenticated, encrypted; got " + protection);
            }
        }
        java.util.Map<String, List<Double>> replicated = new java.util.LinkedHashMap<>();
        protections.forEach(protection -> replicated.put(protection, new ArrayList<>()));
        QueueThroughput.appendAndTailOnce(Math.max(1_000_000, localMessages / 10), segmentSize, parent,
                "warm-up local burst");
        int measured = seconds;
        seconds = Math.min(3, seconds); // a JIT warm-up of both sides, not counted
        localSustained("warm-up local sustained");
        for (String protection : protections) {
            replicated("warm-up replicated " + protection, protection);
        }
        seconds = measured;
        for (int r = 1; r <= runs; r++) {
            burst.add(QueueThroughput.appendAndTailOnce(localMessages, segmentSize, parent, "run " + r + " local burst"));
            sustained.add(localSustained("run " + r + " local sustained"));
            for (String protection : protections) {
                replicated.get(protection).add(replicated("run " + r + " replicated " + protection, protection));
            }
        }
        double burstMedian = ThroughputOptions.median(burst);
        double sustainedMedian = ThroughputOptions.median(sustained);
        System.out.printf(Locale.ROOT, "median local burst:     %6.2f M msg/s (append+tail of %,d)%n", burstMedian,
                localMessages);
        System.out.printf(Locale.ROOT, "median local sustained: %6.2f M msg/s (append+tail, window %,d, %d s)%n",
                sustainedMedian, window, seconds);
        for (var entry : replicated.entrySet()) {
            double median = ThroughputOptions.median(entry.getValue());
            System.out.printf(Locale.ROOT, "median replicated %-13s %6.2f M msg/s = %.0f %% of local sustained, %.0f %%"
                    + " of local burst%n", entry.getKey() + ":", median, 100 * median / sustainedMedian,
                    100 * median / burstMedian);
        }
        return CliSupport.OK;
    }

    /** One replicated run; returns millions of messages per second acknowledged. */
    private double replicated(String label, String protection) throws Exception {
        Path work = Files.createTempDirectory(parent, "blit-replperf-");
        Path sourceDir = work.resolve("source");
        Path replicaDir = work.resolve("replica");
        Path secret = work.resolve("secret");
        SecretFile.create(secret);
        String control = loopback();
        Process replica = null;
        try (BlitQueue<MarketData> queue = BlitQueue.open(sourceDir, MarketData.class,
                QueueOptions.defaults().segmentSize(segmentSize));
             Appender<MarketData> appender = queue.appender();
             ReplicationSource source = ReplicationSource.start(sourceDir, SourceOptions.of(control,
                     SecretFile.read(secret)).mtu(mtu).batchBytes(batchBytes).encrypt(protection.equals("encrypted")))) {
            MarketData md = new MarketData().fillFor(0, 0);
            appender.append(md);
            replica = follow(replicaDir, control, secret, work.resolve("replica.log"));
            source.awaitReplicated(0, 1, Duration.ofSeconds(60));
            long first = 1;
            if (replicaWarmUp > 0) { // this run's replica JVM starts cold: its JIT compiles while this runs
                int measured = seconds;
                seconds = replicaWarmUp;
                appendWithin(appender, md, first, label + " (this replica's warm-up)", () -> acknowledged(source),
                        upTo -> source.awaitReplicated(upTo, 1, Duration.ofSeconds(60)), "acknowledged");
                seconds = measured;
                first = appendedUpTo;
                source.awaitReplicated(first - 1, 1, Duration.ofSeconds(60));
            }
            double rate = appendWithin(appender, md, first, label, () -> acknowledged(source),
                    upTo -> source.awaitReplicated(upTo, 1, Duration.ofSeconds(60)), "acknowledged");
            if (rate <= 0) { // the replica fell away: show why before its log is deleted with the run's files
                System.out.println("the replica's log:");
                Files.readAllLines(work.resolve("replica.log")).forEach(line -> System.out.println("  " + line));
            }
            return rate;
        } finally {
            if (replica != null) {
                replica.destroy(); // SIGTERM: the replica closes and its driver deletes its directory
                if (!replica.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)) {
                    replica.destroyForcibly().waitFor();
                }
            }
            ThroughputOptions.deleteTree(work);
        }
    }

    /**
     * The loop both kinds measure: appends MarketData from index {@code first} for {@code --seconds}, at most
     * {@code --window} ahead of what {@code done} reports consumed (every index below it); returns millions of messages consumed per second in that time.
     */
    private double appendWithin(Appender<MarketData> appender, MarketData md, long first, String label,
                                LongSupplier done, WaitFor waitFor, String doneName) throws Exception {
        long next = first;
        long startDone = done.getAsLong();
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            if (next - window > done.getAsLong()) {
                waitFor.await(next - window);
            }
            for (int i = 0; i < 1_000; i++, next++) {
                md.securityId = next;
                md.time = next;
                appender.append(md);
            }
        }
        appendedUpTo = next;
        long consumed = done.getAsLong() - startDone;
        double elapsed = (System.nanoTime() - start) / 1e9;
        double rate = consumed / elapsed / 1e6;
        System.out.printf(Locale.ROOT, "%-28s %,12d msgs %s in %5.2f s: %6.2f M msg/s | %,d appended, %,d not yet %s at"
                + " the end%n", label, consumed, doneName, elapsed, rate, next, next - done.getAsLong(), doneName);
        return rate;
    }

    /** Waits until {@code index} is consumed. */
    private interface WaitFor {
        void await(long index) throws Exception;
    }

    /** The loop of a replicated run with a tailer of the same queue in place of the replica. */
    private double localSustained(String label) throws Exception {
        Path dir = Files.createTempDirectory(parent, "blit-replperf-local-");
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class,
                QueueOptions.defaults().segmentSize(segmentSize));
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData().fillFor(0, 0);
            AtomicLong read = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            Thread tailer = Thread.ofPlatform().name("replperf-tailer").start(() -> {
                try (Tailer<MarketData> t = queue.tailer()) {
                    MarketData in = new MarketData();
                    while (!stop.get()) {
                        if (t.readNext(in)) {
                            read.lazySet(t.index());
                        } else {
                            Thread.onSpinWait();
                        }
                    }
                }
            });
            try {
                return appendWithin(appender, md, 0, label, read::get, upTo -> {
                    while (read.get() <= upTo) {
                        Thread.onSpinWait();
                    }
                }, "tailed");
            } finally {
                stop.set(true);
                tailer.join();
            }
        } finally {
            ThroughputOptions.deleteTree(dir);
        }
    }

    private static long acknowledged(ReplicationSource source) {
        long acked = Long.MAX_VALUE;
        for (ReplicaStatus status : source.replicas()) {
            if (status.serving()) {
                acked = Math.min(acked, status.committed());
            }
        }
        return acked == Long.MAX_VALUE ? 0 : acked;
    }

    private Process follow(Path replicaDir, String control, Path secret, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(CHILD_FLAGS);
        command.add("-D" + IdleStrategies.PROPERTY + "=" + idle);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), QueueCli.class.getName(),
                "replicate", "follow", "--dir", replicaDir.toString(), "--source", control, "--endpoint", loopback(),
                "--secret-file", secret.toString(), "--type", "marketdata"));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static String loopback() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return "127.0.0.1:" + socket.getLocalPort();
        }
    }
}
