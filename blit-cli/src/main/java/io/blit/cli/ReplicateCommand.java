package io.blit.cli;

import io.blit.replication.SecretFile;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code replicate}: the replication of a queue to other machines over Aeron (docs/replication.md), with the
 * subcommands {@code serve} ({@link ServeCommand}), {@code follow} ({@link FollowCommand}), {@code keygen}
 * ({@link KeygenCommand}), {@code status} ({@link StatusCommand}), {@code promote} ({@link PromoteCommand}) and
 * {@code fence} ({@link FenceCommand}).
 */
@Command(name = "replicate", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Replicate a queue to other machines over Aeron.",
                "",
                "serve on the source machine, follow on each replica machine; both run until stopped (Ctrl-C) "
                        + "and print progress once a second. Both need the same secret file: 32 to 1024 bytes that "
                        + "only its owner may read and write (keygen writes one).",
                ""},
        commandListHeading = "%nCommands:%n",
        footer = {"", CliSupport.EXIT_CODES})
public final class ReplicateCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    private ReplicateCommand() {
    }

    /**
     * The {@code replicate} command with its subcommands {@code serve}, {@code follow}, {@code keygen},
     * {@code status}, {@code promote} and {@code fence}, in that order, not yet configured
     * ({@link CliSupport#configure}).
     *
     * @param out    where the subcommands print
     * @param err    where follow and promote report a refusal
     * @param follow the follow command: a {@link FollowCommand}, or a subclass that adds expectations
     * @return the command line of {@code replicate}
     */
    public static CommandLine commandLine(PrintStream out, PrintStream err, FollowCommand follow) {
        return new CommandLine(new ReplicateCommand())
                .addSubcommand(new ServeCommand(out))
                .addSubcommand(follow)
                .addSubcommand(new KeygenCommand(out))
                .addSubcommand(new StatusCommand(out))
                .addSubcommand(new PromoteCommand(out, err))
                .addSubcommand(new FenceCommand(out));
    }

    /** No subcommand given: a usage error. */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "serve, follow, keygen, status, promote or fence expected");
    }

    /**
     * The secret in {@code file} ({@link SecretFile#read}): its bytes as they are (a trailing newline included), 32 to
     * 1024 of them, in a file that neither group nor others may read or write.
     *
     * @throws BadInputException naming the file and the problem
     */
    static byte[] secret(Path file) {
        try {
            return SecretFile.read(file);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        } catch (UncheckedIOException e) {
            throw new BadInputException(e.getMessage() + ": " + e.getCause());
        }
    }
}
