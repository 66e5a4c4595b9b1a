package io.blit.cli;

import io.blit.queue.QueueCorruptedException;
import io.blit.queue.replica.QueueTerms;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code replicate promote}: makes a replica the primary of a new term, by hand (docs/failover.md). */
@Command(name = "promote", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Make a replica the primary of a new term, and print on one line:",
                "",
                "  promoted queue <id> to term <t> at index <index>",
                "",
                "Stop the replica's follower first. The new term begins at the replica's end index (the index "
                        + "its next append gets) and is one above both its term and the highest term it knows of, "
                        + "unless --term gives one above them. Appenders may write the queue once this returns; an "
                        + "old primary that learns of the new term refuses appends (status: role fenced). Refused, "
                        + "with exit code 1 and one line saying why, changing nothing: a directory that is not a "
                        + "replica, a replica that never followed (it holds no queue id), one a follower holds. "
                        + "Run it again after a crash: it completes the promotion in the next term.",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
final class PromoteCommand implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "the replica's queue directory")
    private Path dir;

    @Option(names = "--term", paramLabel = "T", description = "the new term: above the replica's term and fence, "
            + "at most 4294967295 (default: the next one)")
    private Long term;

    PromoteCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        long promoted;
        try {
            promoted = term == null ? QueueTerms.promote(dir) : QueueTerms.promote(dir, term);
        } catch (IllegalStateException | IllegalArgumentException refused) {
            if (refused instanceof QueueCorruptedException corrupt) {
                throw corrupt; // CliSupport's one-line error, exit 2, as every command's
            }
            err.println("error: " + CliSupport.oneLine(refused.getMessage()));
            err.flush();
            return CliSupport.FAILED;
        }
        QueueTerms.Status status = QueueTerms.status(dir);
        out.println("promoted queue " + status.queueId() + " to term " + promoted + " at index " + status.termStart());
        out.flush();
        return CliSupport.OK;
    }
}
