package io.blit.tools.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code replicate}: the replication of a queue to other machines over Aeron (docs/replication.md), with the
 * subcommands {@code serve} ({@link ServeCommand}) and {@code follow} ({@link FollowCommand}).
 */
@Command(name = "replicate", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Replicate a queue to other machines over Aeron.",
                "",
                "serve on the source machine, follow on each replica machine; both run until stopped (Ctrl-C) "
                        + "and print progress once a second. Both need the same secret file (at least 16 bytes).",
                ""},
        commandListHeading = "%nCommands:%n",
        footer = {"", QueueCli.EXIT_CODES})
final class ReplicateCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    /** No subcommand given: a usage error. */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "serve or follow expected");
    }

    /**
     * The secret in {@code file}: its bytes as they are (a trailing newline included), at least 16.
     *
     * @throws BadInputException if the file cannot be read or is too short
     */
    static byte[] secret(Path file) {
        try {
            byte[] secret = Files.readAllBytes(file);
            if (secret.length < 16) {
                throw new BadInputException("the secret file " + file + " holds " + secret.length
                        + " bytes; a replication secret needs at least 16");
            }
            return secret;
        } catch (IOException e) {
            throw new BadInputException("cannot read the secret file " + file + ": " + e);
        }
    }
}
