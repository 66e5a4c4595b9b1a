package io.blit.cli;

import io.blit.queue.replica.QueueTerms;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code replicate fence}: raises a queue directory's fence to a term, by hand (docs/failover.md, "Fencing"). */
@Command(name = "fence", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Raise the fence of a queue directory to a term, and print on one line:",
                "",
                "  fenced queue <id> at term <t>            (the fence rose to t)",
                "  queue <id> already fenced at term <f>    (the fence was at t or above: f; nothing changed)",
                "",
                "From then on every appender of the queue in a term below t, in every process and including those "
                        + "open now, refuses to append (QueueFencedException), and status says role fenced. Run it "
                        + "on the old primary's directory after promoting a replica to term t. The fence never "
                        + "falls. Refused as bad input (exit 2, nothing written): a directory without a queue, a "
                        + "term outside 0 to 4294967295.",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
final class FenceCommand implements Callable<Integer> {
    private final PrintStream out;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "the queue directory to fence")
    private Path dir;

    @Option(names = "--term", required = true, paramLabel = "T",
            description = "the term learnt of: 0 to 4294967295, typically the new primary's")
    private long term;

    FenceCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        if (term < 0 || term > QueueTerms.MAX_TERM) {
            throw new BadInputException("--term " + term + " is outside 0 to " + QueueTerms.MAX_TERM);
        }
        QueueFiles.existingQueue(dir);
        boolean raised = QueueTerms.fence(dir, term);
        QueueTerms.Status status = QueueTerms.status(dir);
        String id = status.queueId() == null ? "-" : status.queueId().toString();
        out.println(raised ? "fenced queue " + id + " at term " + term
                : "queue " + id + " already fenced at term " + status.fenceTerm());
        out.flush();
        return CliSupport.OK;
    }
}
