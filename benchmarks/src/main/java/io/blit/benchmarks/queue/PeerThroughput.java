package io.blit.benchmarks.queue;

import io.blit.benchmarks.peers.ChronicleQueueKind;
import io.blit.cli.CliSupport;
import io.blit.cli.ToolVersion;
import io.blit.tools.latency.Placement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * Blit's queue and Chronicle Queue side by side in one run: {@link QueueThroughput} and
 * {@link ChronicleQueueThroughput} alternately, each in a JVM of its own with its own flags (Chronicle's never reach
 * Blit's), {@code --runs} times, each invocation one warm-up and one measured run of each measurement (appender alone,
 * appender + tailer) of the same {@code --messages} MarketData. Prints every invocation's lines, then the medians and
 * the ratios:
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.blit.benchmarks.queue.PeerThroughput [--runs R] [--messages N] [--dir DIR]
 * </pre>
 */
@Command(name = "PeerThroughput", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = "Blit's queue and Chronicle Queue alternately, MarketData, appender alone and with a tailer.",
        footer = {"", "Exit codes: 0 ok, 1 a child failed, 2 usage error."})
public final class PeerThroughput implements Callable<Integer> {
    private static final Pattern MEDIAN = Pattern.compile("median (append alone|append\\+tail):\\s+([0-9.]+) M msg/s");

    @Option(names = "--runs", paramLabel = "R", description = "alternations (default 5)")
    private int runs = 5;

    @Option(names = "--messages", paramLabel = "N", description = "messages per measured run (default 20000000)")
    private long messages = 20_000_000;

    @Option(names = "--dir", paramLabel = "DIR", description = "where the temporary queues go (default java.io.tmpdir)")
    private Path parent = Path.of(System.getProperty("java.io.tmpdir"));

    public static void main(String[] args) {
        System.exit(CliSupport.execute(CliSupport.configure(new CommandLine(new PeerThroughput()), System.out,
                System.err), args, System.out, System.err));
    }

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || messages < 1_000) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--runs must be >= 1, --messages >= 1000");
        }
        System.out.printf(Locale.ROOT, "peer throughput: Blit queue and Chronicle Queue alternately, %,d MarketData per"
                + " run, %d run(s) each, JDK %s, %d CPUs, %s%n", messages, runs, Runtime.version(),
                Runtime.getRuntime().availableProcessors(), Placement.cpuModel());
        double[][] blit = new double[2][runs];
        double[][] chronicle = new double[2][runs];
        for (int r = 0; r < runs; r++) {
            measure("blit " + (r + 1), List.of(), QueueThroughput.class, blit, r);
            measure("chronicle " + (r + 1), ChronicleQueueKind.JVM_FLAGS, ChronicleQueueThroughput.class, chronicle, r);
        }
        String[] names = {"append alone", "append+tail"};
        System.out.printf(Locale.ROOT, "%n%-14s %10s %10s %16s%n", "median M msg/s", "blit", "chronicle", "blit/chronicle");
        for (int m = 0; m < 2; m++) {
            double b = median(blit[m]);
            double c = median(chronicle[m]);
            System.out.printf(Locale.ROOT, "%-14s %10.2f %10.2f %15.2fx%n", names[m], b, c, b / c);
        }
        return CliSupport.OK;
    }

    /** Runs one invocation of {@code harness} in a JVM of its own; stores its two medians at {@code [*][run]}. */
    private void measure(String label, List<String> flags, Class<?> harness, double[][] into, int run)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--sun-misc-unsafe-memory-access=allow"));
        command.addAll(flags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), harness.getName(), "--runs", "1",
                "--messages", Long.toString(messages), "--dir", parent.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = process.waitFor();
        for (String line : output.split("\n")) {
            if (line.startsWith("run ") || line.startsWith("warm-up")) {
                System.out.println(label + " | " + line);
            }
        }
        if (exit != 0) {
            throw new IllegalStateException(label + ": " + harness.getSimpleName() + " exited with " + exit + ":\n" + output);
        }
        Matcher m = MEDIAN.matcher(output);
        int found = 0;
        while (m.find()) {
            into[m.group(1).equals("append alone") ? 0 : 1][run] = Double.parseDouble(m.group(2));
            found++;
        }
        if (found != 2) {
            throw new IllegalStateException(label + ": no medians in the output of " + harness.getSimpleName() + ":\n" + output);
        }
    }

    private static double median(double[] values) {
        List<Double> list = new ArrayList<>();
        for (double v : values) {
            list.add(v);
        }
        return ThroughputOptions.median(list);
    }
}
