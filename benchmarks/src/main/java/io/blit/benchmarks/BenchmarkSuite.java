package io.blit.benchmarks;

import io.blit.cli.CliSupport;
import io.blit.cli.ToolVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * Runs the published benchmark suite through JMH's Java API and writes its results:
 * {@code jmh-result.json} (JMH's own JSON), {@code summary.json} ({@link SummaryWriter}) and
 * {@code marketdata.svg} ({@link SvgChart}); prints the summary ({@link SummaryTable}).
 *
 * <pre>
 * java --sun-misc-unsafe-memory-access=allow -cp benchmarks/target/benchmarks.jar \
 *     io.blit.benchmarks.BenchmarkSuite [--quick] [--out DIR]
 * </pre>
 *
 * <ul>
 *   <li>full (default): every setting from the benchmark classes' annotations, the published
 *       configuration; output in {@code benchmarks/results}.
 *   <li>{@code --only A,B}: only these classes of the suite (simple names), e.g. the cross-layout
 *       reads alone; an unknown name is a usage error listing the suite's classes.
 *   <li>{@code --quick}: 1 × 100 ms warm-up, 3 × 100 ms measurement (three, the fewest for which JMH
 *       computes a score error), 1 fork, sweep sizes 144 and 4096 only; output in
 *       {@code benchmarks/target/quick-results}. A smoke test, not a measurement: it exits with status
 *       1 if any benchmark of the included classes produced no number. It asserts nothing about speed,
 *       and it ignores JMH's one-run-per-machine lock, which a full run respects.
 * </ul>
 * Default output directories are relative to the working directory, meant to be the repository root
 * (where {@code benchmarks/run.sh} and the Maven executions start it).
 *
 * <p>The included classes are matched by regex, so a class that does not exist matches nothing and the
 * suite runs whatever does exist; variants come from the method names ({@link BenchmarkId}). The options
 * set no JVM arguments: each fork gets its class's {@code @Fork(jvmArgsAppend = ...)} (Chronicle's forks
 * need flags the others must not get) plus the flags of the JVM that runs this class, which JMH passes on.
 */
public final class BenchmarkSuite {
    /** Included benchmark classes (simple names, in {@code io.blit.benchmarks}) and their suite. */
    private static final Map<String, String> INCLUDED = included();
    private static final List<String> QUICK_SWEEP_SIZES = List.of("144", "4096");
    private static final String SWEEP_PARAM = "blockBytes";

    private BenchmarkSuite() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the suite; returns the process exit status (0 ok, 1 failed, 2 bad arguments). */
    static int run(String[] args) {
        return CliSupport.execute(CliSupport.configure(new CommandLine(new Arguments()), System.out, System.err),
                args, System.out, System.err);
    }

    /** The command line of the suite, parsed by picocli. */
    @Command(name = "BenchmarkSuite", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
            description = "Runs Blit's JMH benchmark suite and writes jmh-result.json, summary.json and marketdata.svg.",
            footer = {"", "Exit codes: 0 ok, 1 JMH failed (or, with --quick, a benchmark gave no number), "
                    + "2 usage error."})
    private static final class Arguments implements Callable<Integer> {
        @Option(names = "--quick", description = "short smoke run (exit 1 if any benchmark gives no number); "
                + "default: full run")
        private boolean quick;

        @Spec
        private CommandSpec spec;

        @Option(names = "--only", paramLabel = "CLASS", split = ",",
                description = "run only these benchmark classes of the suite (simple names, e.g. "
                        + "CrossLayoutReadBenchmark,CrossLayoutReadFfmBenchmark); default: all")
        private List<String> only = List.of();

        @Option(names = "--out", paramLabel = "DIR", description = "output directory; default benchmarks/results "
                + "(full), benchmarks/target/quick-results (quick)")
        private Path out;

        @Override
        public Integer call() throws IOException {
            for (String name : only) {
                if (!INCLUDED.containsKey(name)) {
                    throw new ParameterException(spec.commandLine(),
                            "--only: " + name + " is not a class of the suite; its classes: " + new TreeSet<>(INCLUDED.keySet()));
                }
            }
            return suite(quick, out, only.isEmpty() ? INCLUDED.keySet() : Set.copyOf(only));
        }
    }

    private static int suite(boolean quick, Path out, Set<String> classes) throws IOException {
        String mode = quick ? "quick" : "full";
        out = out != null ? out : Path.of(quick ? "benchmarks/target/quick-results" : "benchmarks/results");
        Files.createDirectories(out);
        Map<String, Integer> sizes = SerializedSizes.perVariant(); // before the long run: fail fast
        Options options = options(quick, out.resolve("jmh-result.json"), classes);

        if (quick) {
            // JMH allows one run per machine (a lock file) and fails at once if another holds it. A smoke
            // run measures nothing, so it must not fail a build because someone else is benchmarking;
            // it ignores the lock. Read once, when Runner is initialised: set it before the first use.
            System.setProperty("jmh.ignoreLock", "true");
        }
        long started = System.nanoTime();
        Collection<RunResult> runResults;
        try {
            runResults = new Runner(options).run();
        } catch (RunnerException e) {
            System.err.println("BenchmarkSuite: JMH failed: " + e.getMessage());
            return 1;
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);

        List<Score> results = scores(runResults, sizes);
        RunInfo info = RunInfo.of(mode, runResults);
        SummaryWriter.write(out.resolve("summary.json"), info, results);
        boolean chart = results.stream().anyMatch(m -> m.id().suite().equals(BenchmarkId.MARKETDATA));
        if (chart) { // the chart shows MarketData only: none without it (--only other classes)
            SvgChart.write(out.resolve("marketdata.svg"), info, results);
        }
        SummaryTable.print(System.out, info, results);
        System.out.printf("%n%d benchmarks in %d s; wrote jmh-result.json, summary.json%s to %s%n",
                results.size(), seconds, chart ? ", marketdata.svg" : "", out.toAbsolutePath().normalize());

        Set<String> missing = missing(options, results);
        if (!missing.isEmpty()) {
            System.err.println("BenchmarkSuite: no number for " + missing.size() + " benchmark(s): " + String.join(", ", missing));
            return quick ? 1 : 0;
        }
        return 0;
    }

    private static Options options(boolean quick, Path jmhResult, Set<String> classes) {
        ChainedOptionsBuilder builder = new OptionsBuilder()
                .mode(Mode.AverageTime)
                .timeUnit(TimeUnit.NANOSECONDS)
                .result(jmhResult.toString())
                .resultFormat(ResultFormatType.JSON);
        classes.forEach(name -> builder.include(includePattern(name)));
        if (quick) {
            builder.warmupIterations(1).warmupTime(TimeValue.milliseconds(100))
                    .measurementIterations(3).measurementTime(TimeValue.milliseconds(100))
                    .forks(1)
                    .param(SWEEP_PARAM, QUICK_SWEEP_SIZES.toArray(String[]::new));
        }
        // No jvmArgs/jvmArgsAppend/jvmArgsPrepend here: any of them would replace the per-class @Fork flags.
        return builder.build();
    }

    private static String includePattern(String simpleName) {
        return "^\\Qio.blit.benchmarks." + simpleName + ".\\E";
    }

    private static List<Score> scores(Collection<RunResult> runResults, Map<String, Integer> sizes) {
        List<Score> results = new ArrayList<>();
        for (RunResult run : runResults) {
            Optional<BenchmarkId> id = BenchmarkId.parse(run.getParams().getBenchmark(), INCLUDED);
            if (id.isEmpty()) {
                continue;
            }
            Result<?> primary = run.getPrimaryResult();
            if (!primary.getScoreUnit().equals("ns/op")) {
                throw new IllegalStateException(run.getParams().getBenchmark() + " reports " + primary.getScoreUnit() + ", not ns/op");
            }
            boolean sweep = id.get().suite().equals(BenchmarkId.SWEEP);
            int blockBytes = sweep ? Integer.parseInt(run.getParams().getParam(SWEEP_PARAM)) : 0;
            int bytes = sweep ? blockBytes : sizes.getOrDefault(id.get().variant(), 0);
            results.add(new Score(id.get(), blockBytes, bytes, primary.getScore(), primary.getScoreError()));
        }
        results.sort(Score.ORDER);
        return results;
    }

    /**
     * The benchmarks JMH was asked to run (its own list, as {@code -l} prints it, times the sweep sizes
     * in effect) that have no number among {@code results}, as {@code Class.method[blockBytes]}.
     */
    private static Set<String> missing(Options options, List<Score> results) {
        Set<String> missing = new TreeSet<>();
        var silent = OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT);
        for (BenchmarkListEntry entry : BenchmarkList.defaultList().find(silent, options.getIncludes(), List.of())) {
            String name = entry.getUsername();
            Optional<BenchmarkId> id = BenchmarkId.parse(name, INCLUDED);
            if (id.isEmpty()) {
                continue; // not a Write/Read method: not summarised, so not expected
            }
            List<String> blockSizes = List.of("0");
            if (id.get().suite().equals(BenchmarkId.SWEEP)) {
                blockSizes = options.getParameter(SWEEP_PARAM).hasValue()
                        ? List.copyOf(options.getParameter(SWEEP_PARAM).get())
                        : List.of(entry.getParams().get().get(SWEEP_PARAM));
            }
            for (String size : blockSizes) {
                int blockBytes = Integer.parseInt(size);
                if (Score.find(results, id.get().suite(), id.get().variant(), id.get().op(), blockBytes).isEmpty()) {
                    missing.add(name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1)
                            + (blockBytes > 0 ? "[" + blockBytes + "]" : ""));
                }
            }
        }
        return missing;
    }

    private static Map<String, String> included() {
        return Map.of(
                "MarketDataFormatsBenchmark", BenchmarkId.MARKETDATA,
                "MarketDataChronicleBenchmark", BenchmarkId.MARKETDATA,
                "SizeSweepBenchmark", BenchmarkId.SWEEP,
                "SizeSweepChronicleBenchmark", BenchmarkId.SWEEP,
                "CrossLayoutReadBenchmark", BenchmarkId.CROSS_LAYOUT,
                "CrossLayoutReadFfmBenchmark", BenchmarkId.CROSS_LAYOUT_FFM);
    }
}
