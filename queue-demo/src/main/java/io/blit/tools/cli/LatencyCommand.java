package io.blit.tools.cli;

import io.blit.tools.messages.BookUpdate;
import io.blit.tools.messages.MarketData;

import io.blit.queue.WaitStrategy;
import io.blit.tools.latency.IntervalLog;
import io.blit.tools.latency.LatencyChart;
import io.blit.tools.latency.LatencyJson;
import io.blit.tools.latency.LatencyResult;
import io.blit.tools.latency.MessageKind;
import io.blit.tools.latency.ProcessMode;
import io.blit.tools.latency.ReportTable;
import io.blit.tools.latency.RunPlan;
import io.blit.tools.latency.ThreadMode;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The {@code bench} and {@code demo} commands: the end-to-end latency harness ({@code io.blit.tools.latency}) on
 * the command line. Both take the same options; {@code demo} has defaults that show the published comparison
 * (both BookUpdate kinds, producer and consumer processes) in a few seconds. Every queue lives in a new temporary
 * directory that is deleted at the end, on failure, and on Ctrl-C (shutdown hook, which also destroys child JVMs).
 */
final class LatencyCommand {
    static final String BENCH_HELP = """
            Usage: bench [--kind tc|normal|md|floor[,...]] [--mode thread|process] [--rate R] [--count N] [--runs K]
                         [--warmup W] [--wait busy|yield|park] [--pin] [--json FILE] [--dir D] [--segment-size B]

            End-to-end latency through a queue: a producer sends messages at a fixed rate, each carrying the
            time it was meant to be sent; the consumer records (receive time - intended time), so a stalled
            producer or consumer shows in the figures (coordinated omission accounted). W warm-up messages
            are sent first and not recorded; then K runs of N messages, all on one schedule. Prints per kind
            a table of the percentiles 50, 90, 99, 99.7, 99.9, 99.99 and worst, one column per run and a
            "% Variation" column (100*(max-min)/(max+min/2), as the published tables), in microseconds;
            with tc and normal, the ratio of their median p50s.

              --kind K       tc: trivially copyable BookUpdate (one Blit copy each way, default)
                             normal: the same content as a normal object (Strings, Lists) via ObjectOutputStream
                             md: trivially copyable MarketData
                             floor: no queue, one shared cache line per message through the same send and
                             receive loops: what the harness and the machine cost by themselves
                             several kinds comma-separated, or "both" = tc,normal
              --mode M       thread (default): producer and consumer threads in this JVM
                             process: a producer JVM and a consumer JVM (same java binary and class path)
              --rate R       messages per second (default 100000)
              --count N      messages per measured run (default 200000)
              --runs K       measured runs (default 5)
              --warmup W     warm-up messages, not recorded (default 200000: at 100,000 msg/s the JIT was
                             still compiling the send and receive paths 0.7 s after the first message)
              --wait S       consumer's wait between empty polls: busy (spin, default), yield, park
              --pin          process mode: pin producer and consumer to CPUs 0 and 1 with taskset, where
                             available (Java threads cannot be pinned without native code: thread mode ignores it)
              --json FILE    also write every figure as JSON to FILE, the percentile chart as SVG next to it
                             (FILE with .json replaced by .svg) and every run's histogram as an HdrHistogram
                             interval log (.hlog, tagged with the kind)
              --dir D        where to create the temporary queue directory (default: java.io.tmpdir)
              --segment-size B   queue file size; default: large enough for the whole run (up to 1 GiB), so no
                             file is created while measuring""";

    static final String DEMO_HELP = """
            Usage: demo [bench options]

            Runs the published end-to-end latency comparison on this machine: a producer process and a
            consumer process on a queue in a temporary directory, first trivially copyable BookUpdates, then
            the same content as normal objects through ObjectOutputStream; prints both tables and the ratio of
            the median latencies, then deletes its files. Before them it measures the floor: the same send and
            receive loops with no queue, one shared cache line per message, i.e. what the harness and the
            machine cost by themselves, and prints what each kind adds to it. Takes about 20 seconds. It is
            "bench" with the defaults --kind floor,tc,normal --mode process --rate 20000 --warmup 60000 --runs 5
            --count 10000: a rate both kinds sustain on a small machine (decoding a normal object costs ~10 us
            here), so the tables compare one message's trip, not a backlog; every bench option may be given to change them (bench --help).""";

    static final List<String> VALUED = List.of("--kind", "--mode", "--rate", "--count", "--runs", "--warmup",
            "--wait", "--json", "--dir", "--segment-size");
    static final List<String> FLAGS = List.of("--pin");

    private static final long MAX_AUTO_SEGMENT = 1L << 30;
    private static final long MAX_SEGMENT = 1L << 31;

    private LatencyCommand() {
    }

    /**
     * Runs {@code bench} or {@code demo}. A failed run (a child JVM that died, a message out of order or with
     * wrong content, a consumer that gave up) is reported on {@code err} with its cause and exit code
     * {@value QueueCli#CHECK_FAILED}; usage errors are thrown as {@link QueueCli.UsageException}.
     */
    static int run(String command, QueueCli.Options options, PrintStream out, PrintStream err) {
        boolean demo = command.equals("demo");
        List<MessageKind> kinds = kinds(options.value("--kind", demo ? "floor,tc,normal" : "tc"));
        String mode = options.value("--mode", demo ? "process" : "thread");
        if (!mode.equals("thread") && !mode.equals("process")) {
            throw new QueueCli.UsageException("--mode must be thread or process, got '" + mode + "'");
        }
        // The demo's rate is one both kinds sustain here (a new ObjectInputStream costs ~10 us of CPU a message), so
        // that its tables compare per-message latency; at 100,000/s the normal-object figures are a growing backlog.
        long rate = positive(options, "--rate", demo ? 20_000 : 100_000);
        long count = positive(options, "--count", demo ? 10_000 : 200_000);
        long runs = positive(options, "--runs", 5);
        long warmup = options.longValue("--warmup", demo ? 60_000 : 200_000);
        if (warmup < 0) {
            throw new QueueCli.UsageException("--warmup must be >= 0");
        }
        if (runs > 1000) {
            throw new QueueCli.UsageException("--runs must be <= 1000");
        }
        WaitStrategy wait = switch (options.value("--wait", "busy")) {
            case "busy" -> WaitStrategy.BUSY_SPIN;
            case "yield" -> WaitStrategy.YIELD;
            case "park" -> WaitStrategy.PARK;
            default -> throw new QueueCli.UsageException("--wait must be busy, yield or park, got '"
                    + options.value("--wait", "") + "'");
        };
        Path json = options.has("--json") ? Path.of(options.value("--json", "")) : null;
        Path parent = Path.of(options.value("--dir", System.getProperty("java.io.tmpdir")));
        if (!Files.isDirectory(parent)) {
            throw new QueueCli.BadInputException("--dir: no such directory: " + parent);
        }
        boolean pin = options.has("--pin");
        List<RunPlan> plans = new ArrayList<>();
        for (MessageKind kind : kinds) {
            long total = warmup + count * runs;
            long segmentSize = options.has("--segment-size") ? options.longValue("--segment-size", 0)
                    : autoSegmentSize(kind, total);
            if (segmentSize > MAX_SEGMENT) {
                throw new QueueCli.UsageException("--segment-size must be at most " + MAX_SEGMENT
                        + " (2 GiB: the queue's checkpoints hold 32-bit positions)");
            }
            try {
                plans.add(new RunPlan(kind, rate, warmup, count, (int) runs, wait, segmentSize));
            } catch (IllegalArgumentException e) {
                throw new QueueCli.UsageException(e.getMessage());
            }
        }
        try {
            return execute(demo, mode, pin, plans, parent, json, out);
        } catch (IllegalStateException e) {
            out.println();
            out.flush();
            err.println("error: " + command + " failed: " + e.getMessage());
            return QueueCli.CHECK_FAILED;
        }
    }

    private static int execute(boolean demo, String mode, boolean pin, List<RunPlan> plans, Path parent, Path json,
                               PrintStream out) {
        Path work = createTempDirectory(parent);
        List<Process> live = Collections.synchronizedList(new ArrayList<>());
        Thread cleanup = new Thread(() -> cleanUp(live, work), "blit-latency-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            RunPlan first = plans.getFirst();
            out.printf(Locale.ROOT, "%s: %s mode, %,d msg/s, %,d warm-up + %d runs x %,d messages per kind, consumer "
                            + "wait %s; JDK %s, %d CPUs%s%n", demo ? "Blit latency demo" : "bench", mode, first.rate(),
                    first.warmup(), first.runs(), first.count(), first.waitStrategy(), Runtime.version(),
                    Runtime.getRuntime().availableProcessors(), pinNote(mode, pin));
            out.println("queue files in " + work + " (deleted at the end)");
            List<LatencyResult> results = new ArrayList<>();
            for (int i = 0; i < plans.size(); i++) {
                RunPlan plan = plans.get(i);
                out.printf(Locale.ROOT, "[%d/%d] %s: %,d messages, about %.1f s ... ", i + 1, plans.size(),
                        plan.kind().description(), plan.total(), plan.durationNanos() / 1e9);
                out.flush();
                long start = System.nanoTime();
                Path dir = work.resolve("queue-" + plan.kind().cliName());
                LatencyResult result = mode.equals("thread") ? ThreadMode.run(plan, dir)
                        : ProcessMode.run(plan, dir, work, pin, live);
                deleteTree(dir);
                out.printf(Locale.ROOT, "done in %.1f s%n", (System.nanoTime() - start) / 1e9);
                out.flush();
                results.add(result);
            }
            out.println();
            for (LatencyResult result : results) {
                out.println(ReportTable.format(result.kind().description() + ", " + mode + " mode, "
                        + String.format(Locale.ROOT, "%,d", result.rate()) + " msg/s", result));
            }
            printRatio(results, out);
            for (LatencyResult result : results) {
                backlogNote(result).ifPresent(out::println);
            }
            if (json != null) {
                LatencyJson.write(json, results);
                Path svg = chartFile(json);
                LatencyChart.write(svg, mode + " mode, " + String.format(Locale.ROOT, "%,d", first.rate())
                        + " msg/s, " + first.runs() + " runs x " + String.format(Locale.ROOT, "%,d", first.count())
                        + " messages merged per kind; JDK " + Runtime.version(), results);
                Path hlog = IntervalLog.fileFor(json);
                IntervalLog.write(hlog, results);
                out.println("wrote " + json + ", " + svg + " and " + hlog);
            }
            return QueueCli.OK;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + json, e);
        } finally {
            cleanUp(live, work);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs (or ran) anyway
            }
        }
    }

    /**
     * Prints "median p50 ratio" lines: each queue kind's median p50 over the trivially copyable kind's (or the first
     * kind's), and with {@code floor}, what each queue kind adds to the floor's median p50.
     */
    private static void printRatio(List<LatencyResult> results, PrintStream out) {
        List<LatencyResult> queued = results.stream().filter(r -> r.kind() != MessageKind.FLOOR).toList();
        LatencyResult base = queued.stream().filter(r -> r.kind() == MessageKind.TC).findFirst()
                .orElse(queued.isEmpty() ? null : queued.getFirst());
        for (LatencyResult other : queued) {
            if (other != base) {
                out.printf(Locale.ROOT, "median p50: %s %s us / %s %s us = %.1fx%n", other.kind().cliName(),
                        ReportTable.micros(Math.round(other.medianP50())), base.kind().cliName(),
                        ReportTable.micros(Math.round(base.medianP50())), other.medianP50() / base.medianP50());
            }
        }
        results.stream().filter(r -> r.kind() == MessageKind.FLOOR).findFirst().ifPresent(floor -> {
            for (LatencyResult other : queued) {
                out.printf(Locale.ROOT, "median p50 over the floor: %s %s us - floor %s us = %s us added by the queue%n",
                        other.kind().cliName(), ReportTable.micros(Math.round(other.medianP50())),
                        ReportTable.micros(Math.round(floor.medianP50())),
                        signedMicros(Math.round(other.medianP50() - floor.medianP50())));
            }
        });
    }

    /** {@link ReportTable#micros} with a minus sign for a negative difference (a loaded machine can make one). */
    private static String signedMicros(long nanos) {
        return nanos < 0 ? "-" + ReportTable.micros(-nanos) : ReportTable.micros(nanos);
    }

    /**
     * A warning when a kind's median latency is over 100 send intervals: its messages waited in the queue, so the
     * figures measure a backlog (a consumer slower than the rate, or threads off their CPUs), not one message's trip.
     */
    static java.util.Optional<String> backlogNote(LatencyResult result) {
        double intervalNanos = 1e9 / result.rate();
        if (result.medianP50() <= 100 * intervalNanos) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(String.format(Locale.ROOT, "note: %s: the median latency (%s us) is over 100 send "
                        + "intervals (%s us): messages waited in the queue, because the consumer could not keep up with "
                        + "%,d msg/s or the threads were not on a CPU (a loaded machine); see docs/latency.md",
                result.kind().cliName(), ReportTable.micros(Math.round(result.medianP50())),
                ReportTable.micros(Math.round(intervalNanos)), result.rate()));
    }

    /** FILE.json -> FILE.svg; any other name gets ".svg" appended. */
    static Path chartFile(Path json) {
        String name = json.getFileName().toString();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return json.resolveSibling(base + ".svg");
    }

    private static String pinNote(String mode, boolean pin) {
        if (!pin) {
            return "; not pinned";
        }
        if (mode.equals("thread")) {
            return "; --pin ignored in thread mode (Java threads cannot be pinned without native code)";
        }
        return ProcessMode.canPin() ? "; producer pinned to CPU 0, consumer to CPU 1 (taskset)"
                : "; --pin unavailable here (no taskset or fewer than 2 CPUs): not pinned";
    }

    static List<MessageKind> kinds(String value) {
        List<MessageKind> kinds = new ArrayList<>();
        for (String name : value.equals("both") ? List.of("tc", "normal") : List.of(value.split(","))) {
            MessageKind kind;
            try {
                kind = MessageKind.parse(name.strip());
            } catch (IllegalArgumentException e) {
                throw new QueueCli.UsageException("--kind: " + e.getMessage());
            }
            if (kinds.contains(kind)) {
                throw new QueueCli.UsageException("--kind: " + name + " given twice");
            }
            kinds.add(kind);
        }
        return kinds;
    }

    /**
     * A segment size that holds the whole run in one file (so the producer never creates a file while measuring),
     * with 1/8 slack, rounded up to 4096, at most 1 GiB (a longer run rolls to further files).
     */
    static long autoSegmentSize(MessageKind kind, long totalMessages) {
        long record = (8 + kind.payloadBytes(totalMessages) + 7) & ~7L;
        double bytes = 64 * 1024 + totalMessages * (double) record * 1.125;
        long size = (long) Math.min(MAX_AUTO_SEGMENT, bytes);
        return Math.max(64 * 1024, (size + 4095) & ~4095L);
    }

    private static long positive(QueueCli.Options options, String name, long otherwise) {
        long value = options.longValue(name, otherwise);
        if (value < 1) {
            throw new QueueCli.UsageException(name + " must be >= 1");
        }
        return value;
    }

    private static Path createTempDirectory(Path parent) {
        try {
            return Files.createTempDirectory(parent, "blit-latency-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory in " + parent, e);
        }
    }

    private static void cleanUp(List<Process> live, Path work) {
        synchronized (live) {
            for (Process process : live) {
                process.destroyForcibly();
            }
            for (Process process : live) {
                try {
                    process.waitFor();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        deleteTree(work);
    }

    /** Deletes {@code root} and everything under it; what cannot be deleted is left (best effort, at exit). */
    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException | UncheckedIOException e) {
            System.err.println("warning: could not delete all of " + root + ": " + e);
        }
    }
}
