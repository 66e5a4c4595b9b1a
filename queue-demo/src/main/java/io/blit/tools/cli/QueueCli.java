package io.blit.tools.cli;

import io.blit.cli.CliSupport;
import io.blit.cli.ConsumersCommand;
import io.blit.cli.DumpCommand;
import io.blit.cli.QuarantineCommand;
import io.blit.cli.ReplicateCommand;
import io.blit.cli.StatsCommand;
import io.blit.cli.TailCommand;
import io.blit.cli.ToolVersion;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The queue command-line tool, the {@code Main-Class} of {@code queue-demo.jar}: {@code produce} and the content
 * {@code check} of what it wrote, the latency harness's {@code bench} and {@code demo} ({@link LatencyCommand}), and
 * the operations commands of {@code blit.jar} ({@code tail}, {@code consumers}, {@code stats}, {@code dump},
 * {@code replicate serve|follow|keygen}; {@code follow} with {@code --type}, {@link TypedFollowCommand}), parsed by
 * picocli. Runs in-process through {@link #run}, which returns the exit code:
 * {@value #OK} ok, {@value #CHECK_FAILED} check failed, {@value #USAGE} usage error or bad input (missing
 * directory, corrupt or foreign files), each reported in one line on the error stream ({@link CliSupport}).
 * Not thread-safe: one instance runs one command line; {@link #run} makes a new one each time.
 */
@Command(name = "queue-demo", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"The command-line tool of Blit's persisted queue, and its end-to-end latency harness.",
                "Run as: java -jar queue-demo.jar <command> [options]; <command> --help for details."},
        commandListHeading = "%nCommands:%n",
        footer = {"", QueueCli.EXIT_CODES})
public final class QueueCli implements Callable<Integer> {
    public static final int OK = CliSupport.OK;
    /** Exit code of a failed check, or of a latency run that failed (a child died, a message arrived wrong). */
    public static final int CHECK_FAILED = CliSupport.FAILED;
    public static final int USAGE = CliSupport.USAGE;

    static final String EXIT_CODES = "Exit codes: 0 ok, 1 check (or latency run) failed, 2 usage error or bad input "
            + "(missing directory, corrupt files).";

    @Spec
    private CommandSpec spec;

    private QueueCli() {
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false);
        int code;
        try {
            code = run(args, out, System.err);
        } finally {
            out.flush();
        }
        System.exit(code);
    }

    /** Runs one command; returns the exit code. Expected errors are reported in one line on {@code err}. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return CliSupport.execute(commandLine(out, err), args, out, err);
    }

    /** The command line of every command, configured ({@link CliSupport#configure}) to print on {@code out}, {@code err}. */
    static CommandLine commandLine(PrintStream out, PrintStream err) {
        CommandLine cli = new CommandLine(new QueueCli())
                .addSubcommand(new ProduceCommand(out))
                .addSubcommand(new TailCommand(out, err))
                .addSubcommand(ConsumersCommand.commandLine(out, err))
                .addSubcommand(new StatsCommand(out))
                .addSubcommand(new DumpCommand(out, err))
                .addSubcommand(new CheckCommand(out))
                .addSubcommand(new io.blit.cli.LayoutCommand(out))
                .addSubcommand(new DemoCommand(out, err))
                .addSubcommand(new BenchCommand(out, err))
                .addSubcommand(ReplicateCommand.commandLine(out, err, new TypedFollowCommand(out, err)))
                .addSubcommand(QuarantineCommand.commandLine(out))
                .addSubcommand(new HelpCommand());
        withFooter(cli, EXIT_CODES);
        return CliSupport.configure(cli, out, err);
    }

    /** Ends the help of {@code command} and of all its subcommands with {@code exitCodes}, the codes of this jar. */
    private static void withFooter(CommandLine command, String exitCodes) {
        command.getCommandSpec().usageMessage().footer("", exitCodes);
        command.getSubcommands().values().forEach(sub -> withFooter(sub, exitCodes));
    }

    /** No command given: a usage error. */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "no command given");
    }
}
