package io.blit.tools.cli;

import io.blit.cli.ToolVersion;
import java.io.PrintStream;
import picocli.CommandLine.Command;

/** {@code demo}: {@code bench} with the defaults of the published comparison ({@link LatencyCommand}). */
@Command(name = "demo", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"End-to-end latency: BookUpdate as trivially copyable vs normal objects, producer and "
                        + "consumer processes.",
                "",
                "Runs the end-to-end latency comparison on this machine: a producer process and a consumer "
                        + "process on a queue in a temporary directory, first trivially copyable BookUpdates, then "
                        + "the same content as normal objects through ObjectOutputStream; prints both tables and "
                        + "the ratio of the median latencies, then deletes its files. Before them it measures the "
                        + "floor: the same send and receive loops with no queue, one shared cache line per message, "
                        + "i.e. what the harness and the machine cost by themselves, and prints what each kind adds "
                        + "to it. Takes about 20 seconds. It is \"bench\" with the defaults --kind floor,tc,normal "
                        + "--mode process --rate 20000 --warmup 60000 --runs 5 --count 10000: a rate both kinds "
                        + "sustain on a small machine (decoding a normal object costs ~10 us here), so the tables "
                        + "compare one message's trip, not a backlog; every bench option may be given to change "
                        + "them.",
                "",
                "Takes the bench options:"},
        footer = {"", QueueCli.EXIT_CODES})
final class DemoCommand extends LatencyRunCommand {
    DemoCommand(PrintStream out, PrintStream err) {
        super(true, out, err);
    }
}
