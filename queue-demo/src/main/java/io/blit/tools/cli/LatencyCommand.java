package io.blit.tools.cli;

import io.blit.cli.BadInputException;
import io.blit.queue.WaitStrategy;
import io.blit.tools.latency.IntervalLog;
import io.blit.tools.latency.LatencyChart;
import io.blit.tools.latency.LatencyJson;
import io.blit.tools.latency.LatencyKind;
import io.blit.tools.latency.LatencyResult;
import io.blit.tools.latency.MessageKind;
import io.blit.tools.latency.ProcessMode;
import io.blit.tools.latency.ReportTable;
import io.blit.tools.latency.RunPlan;
import io.blit.tools.latency.ThreadMode;
import io.blit.tools.messages.BookUpdate;
import io.blit.tools.messages.MarketData;
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
import picocli.CommandLine.ParameterException;
import picocli.CommandLine;

/**
 * What {@code bench} and {@code demo} run: the end-to-end latency harness ({@code io.blit.tools.latency}) on
 * the command line. Both take the same options ({@link LatencyOptions}); {@code demo} has defaults that show the
 * published comparison (both BookUpdate kinds, producer and consumer processes) in a few seconds. Every queue
 * lives in a new temporary directory that is deleted at the end, on failure, and on Ctrl-C (shutdown hook,
 * which also destroys child JVMs). Stateless.
 */
final class LatencyCommand {
    private static final long MAX_AUTO_SEGMENT = 1L << 30;
    private static final long MAX_SEGMENT = 1L << 31;

    private LatencyCommand() {
    }

    /**
     * Runs {@code bench} or {@code demo}. A failed run (a child JVM that died, a message out of order or with
     * wrong content, a consumer that gave up) is reported on {@code err} with its cause and exit code
     * {@value QueueCli#CHECK_FAILED}.
     *
     * @throws ParameterException for a value out of range (exit {@value QueueCli#USAGE})
     * @throws BadInputException  if {@code --dir} is no directory
     */
    static int run(boolean demo, LatencyOptions options, CommandLine cli, PrintStream out, PrintStream err) {
        List<LatencyKind> kinds = options.kinds != null ? options.kinds.list()
                : demo ? List.<LatencyKind>of(MessageKind.FLOOR, MessageKind.TC, MessageKind.NORMAL)
                        : List.<LatencyKind>of(MessageKind.TC);
        LatencyOptions.Mode mode = options.mode != null ? options.mode : demo ? LatencyOptions.Mode.PROCESS
                : LatencyOptions.Mode.THREAD;
        // The demo's rate is one both kinds sustain here (a new ObjectInputStream costs ~10 us of CPU a message), so
        // that its tables compare per-message latency; at 100,000/s the normal-object figures are a growing backlog.
        long rate = positive(cli, "--rate", options.rate, demo ? 20_000 : 100_000);
        long count = positive(cli, "--count", options.count, demo ? 10_000 : 200_000);
        long runs = positive(cli, "--runs", options.runs, 5);
        long warmup = options.warmup != null ? options.warmup : demo ? 60_000 : 200_000;
        if (warmup < 0) {
            throw new ParameterException(cli, "--warmup must be >= 0");
        }
        if (runs > 1000) {
            throw new ParameterException(cli, "--runs must be <= 1000");
        }
        long rounds = positive(cli, "--rounds", options.rounds, 1);
        if (rounds * runs > 1000) {
            throw new ParameterException(cli, "--rounds x --runs must be <= 1000");
        }
        WaitStrategy wait = options.wait != null ? options.wait : WaitStrategy.BUSY_SPIN;
        Path parent = options.dir != null ? options.dir : Path.of(System.getProperty("java.io.tmpdir"));
        if (!Files.isDirectory(parent)) {
            throw new BadInputException("--dir: no such directory: " + parent);
        }
        List<RunPlan> plans = new ArrayList<>();
        for (LatencyKind kind : kinds) {
            long total = warmup + count * runs;
            long segmentSize = options.segmentSize != null ? options.segmentSize : autoSegmentSize(kind, total);
            if (segmentSize > MAX_SEGMENT) {
                throw new ParameterException(cli, "--segment-size must be at most " + MAX_SEGMENT
                        + " (2 GiB: the queue's checkpoints hold 32-bit positions)");
            }
            try {
                plans.add(new RunPlan(kind, rate, warmup, count, (int) runs, wait, segmentSize, options.checksums));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(cli, e.getMessage());
            }
        }
        try {
            return execute(demo, mode, options.pin, plans, (int) rounds, parent, options.json, out);
        } catch (IllegalStateException e) {
            out.println();
            out.flush();
            err.println("error: " + cli.getCommandName() + " failed: " + e.getMessage());
            return QueueCli.CHECK_FAILED;
        }
    }

    private static int execute(boolean demo, LatencyOptions.Mode mode, boolean pin, List<RunPlan> plans, int rounds, Path parent,
                               Path json, PrintStream out) {
        Path work = createTempDirectory(parent);
        List<Process> live = Collections.synchronizedList(new ArrayList<>());
        Thread cleanup = new Thread(() -> cleanUp(live, work), "blit-latency-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            RunPlan first = plans.getFirst();
            out.printf(Locale.ROOT, "%s: %s mode, %,d msg/s, %s%,d warm-up + %d runs x %,d messages per kind, consumer "
                            + "wait %s; JDK %s, %d CPUs%s%n", demo ? "Blit latency demo" : "bench", mode.cliName(), first.rate(),
                    rounds > 1 ? rounds + " rounds of " : "", first.warmup(), first.runs(), first.count(),
                    first.waitStrategy(), Runtime.version(), Runtime.getRuntime().availableProcessors(), pinNote(mode, pin));
            out.println("queue files in " + work + " (deleted at the end)");
            List<List<LatencyResult>> byKind = new ArrayList<>();
            plans.forEach(p -> byKind.add(new ArrayList<>()));
            int step = 0;
            for (int round = 0; round < rounds; round++) {
                for (int i = 0; i < plans.size(); i++) {
                    RunPlan plan = plans.get(i);
                    out.printf(Locale.ROOT, "[%d/%d] %s: %,d messages, about %.1f s ... ", ++step, plans.size() * rounds,
                            plan.kind().description(), plan.total(), plan.durationNanos() / 1e9);
                    out.flush();
                    long start = System.nanoTime();
                    Path dir = work.resolve("queue-" + plan.kind().cliName());
                    // A kind with JVM flags of its own (a peer's) runs its threads in a JVM with those flags.
                    LatencyResult result = mode == LatencyOptions.Mode.PROCESS ? ProcessMode.run(plan, dir, work, pin, live)
                            : plan.kind().childJvmFlags().isEmpty() ? ThreadMode.run(plan, dir)
                            : ProcessMode.runThreadsInOwnJvm(plan, dir, work, live);
                    deleteTree(dir);
                    out.printf(Locale.ROOT, "done in %.1f s%n", (System.nanoTime() - start) / 1e9);
                    out.flush();
                    byKind.get(i).add(result);
                }
            }
            List<LatencyResult> results = byKind.stream().map(LatencyCommand::merged).toList();
            out.println();
            for (LatencyResult result : results) {
                out.println(ReportTable.format(result.kind().description() + ", " + mode.cliName() + " mode, "
                        + String.format(Locale.ROOT, "%,d", result.rate()) + " msg/s", result));
                out.println(result.placement());
            }
            printRatio(results, out);
            for (LatencyResult result : results) {
                backlogNote(result).ifPresent(out::println);
            }
            if (json != null) {
                LatencyJson.write(json, results);
                Path svg = chartFile(json);
                LatencyChart.write(svg, mode.cliName() + " mode, " + String.format(Locale.ROOT, "%,d", first.rate())
                        + " msg/s, " + rounds * first.runs() + " runs x " + String.format(Locale.ROOT, "%,d", first.count())
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
                if (!(other.kind() instanceof MessageKind)) { // a peer: Blit's share of its figures
                    out.printf(Locale.ROOT, "%s / %s: p50 %.3g, p99 %.3g (medians of the runs)%n", base.kind().cliName(),
                            other.kind().cliName(), base.medianP50() / other.medianP50(),
                            base.medianOfRuns(99.0) / other.medianOfRuns(99.0));
                }
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

    /** One kind's rounds as one result: their runs in order, and where each round ran. */
    private static LatencyResult merged(List<LatencyResult> rounds) {
        LatencyResult first = rounds.getFirst();
        if (rounds.size() == 1) {
            return first;
        }
        List<org.HdrHistogram.Histogram> runs = new ArrayList<>();
        StringBuilder placement = new StringBuilder();
        for (int r = 0; r < rounds.size(); r++) {
            runs.addAll(rounds.get(r).runs());
            placement.append(r == 0 ? "" : "\n").append("round ").append(r + 1).append(' ')
                    .append(rounds.get(r).placement());
        }
        return new LatencyResult(first.kind(), first.mode(), first.rate(), runs, placement.toString());
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

    private static String pinNote(LatencyOptions.Mode mode, boolean pin) {
        if (!pin) {
            return "; not pinned";
        }
        if (mode == LatencyOptions.Mode.THREAD) {
            return "; --pin ignored in thread mode (Java threads cannot be pinned without native code)";
        }
        return ProcessMode.canPin() ? "; producer pinned to CPU 0, consumer to CPU 1 (taskset)"
                : "; --pin unavailable here (no taskset or fewer than 2 CPUs): not pinned";
    }

    /**
     * The kinds of a {@code --kind} value: {@code both}, or names comma-separated.
     *
     * @throws IllegalArgumentException for an unknown or repeated kind, worded to follow the option's name
     */
    static List<LatencyKind> kinds(String value) {
        List<LatencyKind> kinds = new ArrayList<>();
        for (String name : value.equals("both") ? List.of("tc", "normal") : List.of(value.split(","))) {
            LatencyKind kind;
            try {
                kind = LatencyKind.parse(name.strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("names an " + e.getMessage(), e);
            }
            if (kinds.contains(kind)) {
                throw new IllegalArgumentException("names " + name.strip() + " twice");
            }
            kinds.add(kind);
        }
        return kinds;
    }

    /**
     * A segment size that holds the whole run in one file (so the producer never creates a file while measuring),
     * with 1/8 slack, rounded up to 4096, at most 1 GiB (a longer run rolls to further files).
     */
    static long autoSegmentSize(LatencyKind kind, long totalMessages) {
        long record = io.blit.queue.BlitQueue.recordBytes(kind.payloadBytes(totalMessages));
        double bytes = 64 * 1024 + totalMessages * (double) record * 1.125;
        long size = (long) Math.min(MAX_AUTO_SEGMENT, bytes);
        return Math.max(64 * 1024, (size + 4095) & ~4095L);
    }

    private static long positive(CommandLine cli, String name, Long value, long otherwise) {
        long given = value != null ? value : otherwise;
        if (given < 1) {
            throw new ParameterException(cli, name + " must be >= 1");
        }
        return given;
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
