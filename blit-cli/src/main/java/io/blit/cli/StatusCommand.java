package io.blit.cli;

import io.blit.queue.replica.QueueTerms;
import io.blit.queue.replica.ServingReport;
import io.blit.replication.NodeStatus;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;
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
                "",
                "With --json, one JSON object instead: {\"queue_id\": id or null, \"term\": t, \"term_start\": the "
                        + "index where t began, \"fence_term\": the highest term the directory knows of, \"end\": "
                        + "index, \"role\": role, \"serving\": the group (below) or null} (docs/operations.md, "
                        + "\"JSON output\").",
                "",
                "On a directory a replication source serves (replicate serve, or a failover node's primary), the "
                        + "group follows, from the report the source rewrites every second (" + ServingReport.FILE_NAME
                        + "):",
                "",
                "  served on <control> by pid <p>, end <index>, <n> replicas",
                "  replica <id> <endpoint>: term <t>, end <e>, lag <r> records <ms> ms[, sync][ (disconnected)]",
                "",
                "e: the end the replica acknowledged holding; r: the records of the queue it lacks; ms: how old "
                        + "the first of them is. A report older than 5 s is marked stale.",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
final class StatusCommand implements Callable<Integer> {
    private final PrintStream out;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "the queue directory")
    private Path dir;

    @Option(names = "--json", description = "print one JSON object instead of the line")
    private boolean json;

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
        Optional<ServingReport> serving = ServingReport.read(dir);
        long now = System.currentTimeMillis();
        if (json) {
            out.println(json(QueueTerms.status(dir), serving, now));
        } else {
            out.println(status.line());
            serving.ifPresent(report -> ServingLines.lines(report, now).forEach(out::println));
        }
        out.flush();
        return CliSupport.OK;
    }

    /** The {@code --json} object of {@code status}, {@code serving} the directory's serving report read at {@code now}. */
    static String json(QueueTerms.Status status, Optional<ServingReport> serving, long now) {
        JsonWriter json = new JsonWriter().beginObject()
                .member("queue_id", status.queueId() == null ? null : status.queueId().toString())
                .member("term", status.term()).member("term_start", status.termStart())
                .member("fence_term", status.fenceTerm()).member("end", status.endIndex())
                .member("role", status.role().name().toLowerCase(java.util.Locale.ROOT)).name("serving");
        ServingLines.json(json, serving, now);
        return json.endObject().toString();
    }
}
