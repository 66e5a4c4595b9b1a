package io.blit.cli;

import io.blit.replication.NodeStatus;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code replicate status}: one line saying what a queue directory is in replication. */
@Command(name = "status", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Print what a queue directory is in replication, on one line:",
                "",
                "  queue <id> term <t> end <index> role <primary|replica|fenced|quarantine>",
                "",
                "id: the queue's id (- if it has none yet); t: its newest term; index: the index its next record "
                        + "will have; role: primary (appenders may write), replica (only replication writes), "
                        + "fenced (a former primary that knows of a newer term: appenders are refused; follow the "
                        + "new primary) or quarantine (records an old primary set aside when it rejoined, or a copy "
                        + "of them: kept to be read, appenders are refused). "
                        + "Compare the lines of a queue's nodes to pick the replica to promote: the same queue id, "
                        + "the highest term, then the highest end. Reads only; changes nothing.",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
final class StatusCommand implements Callable<Integer> {
    private final PrintStream out;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "the queue directory")
    private Path dir;

    StatusCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        NodeStatus status;
        try {
            status = NodeStatus.of(dir);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        } // a corrupt file: CliSupport's one-line error, as every command's
        out.println(status.line());
        out.flush();
        return CliSupport.OK;
    }
}
