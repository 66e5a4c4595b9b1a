package io.blit.cli;

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
 * Blit's operations tool, the {@code Main-Class} of {@code blit.jar}: {@code tail}, {@code consumers}, {@code stats},
 * {@code dump}, {@code check} (a queue's integrity) and {@code replicate serve|follow|keygen}, parsed by picocli. Runs
 * in-process through {@link #run}, which returns the exit code: {@value CliSupport#OK} ok, {@value CliSupport#FAILED}
 * check failed or a read cut short, {@value CliSupport#USAGE} usage error or bad input (missing directory, corrupt or
 * foreign files), each reported in one line on the error stream ({@link CliSupport}). Not thread-safe: one instance
 * runs one command line; {@link #run} makes a new one each time.
 */
@Command(name = "blit", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"The operations tool of Blit's persisted queue: read, watch, check and replicate a queue.",
                "Run as: blit <command> [options] (or java -jar blit.jar); <command> --help for details."},
        commandListHeading = "%nCommands:%n",
        footer = {"", CliSupport.EXIT_CODES})
public final class BlitCli implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    private BlitCli() {
    }

    /**
     * Runs one command line and exits the JVM with its exit code.
     *
     * @param args the command line
     */
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

    /**
     * Runs one command; expected errors are reported in one line on {@code err}.
     *
     * @param args the command line
     * @param out  where the command prints
     * @param err  where errors go
     * @return the exit code
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return CliSupport.execute(commandLine(out, err), args, out, err);
    }

    /** The command line of every command, configured ({@link CliSupport#configure}) to print on {@code out}, {@code err}. */
    static CommandLine commandLine(PrintStream out, PrintStream err) {
        CommandLine cli = new CommandLine(new BlitCli())
                .addSubcommand(new TailCommand(out, err))
                .addSubcommand(ConsumersCommand.commandLine(out, err))
                .addSubcommand(new StatsCommand(out))
                .addSubcommand(new DumpCommand(out, err))
                .addSubcommand(new IntegrityCheckCommand(out))
                .addSubcommand(new RepairCommand(out))
                .addSubcommand(new LayoutCommand(out))
                .addSubcommand(ReplicateCommand.commandLine(out, err, new FollowCommand(out, err)))
                .addSubcommand(QuarantineCommand.commandLine(out))
                .addSubcommand(new HelpCommand());
        return CliSupport.configure(cli, out, err);
    }

    /** No command given: a usage error. */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "no command given");
    }
}
