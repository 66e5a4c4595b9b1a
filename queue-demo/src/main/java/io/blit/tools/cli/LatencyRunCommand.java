package io.blit.tools.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What {@code bench} and {@code demo} share: the latency options and the run ({@link LatencyCommand#run}). The two
 * subclasses differ only in their {@code @Command} (name, help) and in whether the demo's defaults apply.
 */
abstract sealed class LatencyRunCommand implements Callable<Integer> permits BenchCommand, DemoCommand {
    private final PrintStream out;
    private final PrintStream err;
    private final boolean demo;
    @Spec
    private CommandSpec spec;
    @Mixin
    private LatencyOptions options;

    LatencyRunCommand(boolean demo, PrintStream out, PrintStream err) {
        this.demo = demo;
        this.out = out;
        this.err = err;
    }

    @Override
    public final Integer call() {
        return LatencyCommand.run(demo, options, spec.commandLine(), out, err);
    }
}
