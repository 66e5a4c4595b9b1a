package io.blit.tools.cli;

import io.blit.cli.ToolVersion;
import java.io.PrintStream;
import picocli.CommandLine.Command;

/** {@code bench}: the end-to-end latency harness with all its options ({@link LatencyCommand}). */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"The latency harness: producer and consumer at a fixed rate, percentiles per kind.",
                "",
                "End-to-end latency through a queue: a producer sends messages at a fixed rate, each carrying the "
                        + "time it was meant to be sent; the consumer records (receive time - intended time), so a "
                        + "stalled producer or consumer shows in the figures (coordinated omission accounted). W "
                        + "warm-up messages are sent first and not recorded; then K runs of N messages, all on one "
                        + "schedule. Prints per kind a table of the percentiles 50, 90, 99, 99.7, 99.9, 99.99 and "
                        + "worst, one column per run and a \"%% Variation\" column (100*(max-min)/(max+min/2), as the "
                        + "published tables), in microseconds; with tc and normal, the ratio of their median p50s.",
                ""},
        footer = {"", QueueCli.EXIT_CODES})
final class BenchCommand extends LatencyRunCommand {
    BenchCommand(PrintStream out, PrintStream err) {
        super(false, out, err);
    }
}
