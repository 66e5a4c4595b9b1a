package io.blit.cli;

import io.blit.queue.BlitQueue;
import io.blit.queue.ConsumerPosition;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code consumers}: one line per named consumer of a queue, with its committed index and lag; its subcommands
 * {@code remove} ({@link ConsumerRemoveCommand}) and {@code move} ({@link ConsumerMoveCommand}) change one.
 */
@Command(name = "consumers", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"List the named consumers of a queue.",
                "",
                "Prints one line per named consumer, in the order they were created:",
                "  NAME committed C lag L holder PID|none last-commit TIME|never",
                "C is the index of the last message NAME committed (-1: none yet), L the number of indices after C up "
                        + "to the end of the queue (what NAME has still to read), PID the live process that holds NAME "
                        + "(none if no process does: closed, or its process died), TIME its last commit in ISO-8601 UTC. "
                        + "Prints nothing if the queue has no named consumer. Reads the queue's positions file "
                        + "(consumers.blitc) and creates nothing.",
                "",
                "Example: risk committed 1234 lag 56 holder 4711 last-commit 2026-11-26T10:15:30.123Z",
                "",
                "With --json, one JSON object instead: {\"consumers\": [{\"name\", \"committed\", \"lag\", "
                        + "\"holder_pid\" (null: none), \"last_commit\" (null: never)}, ...]} (docs/operations.md, "
                        + "\"JSON output\").",
                "",
                "consumers remove and consumers move change one consumer (see their --help).",
                ""},
        commandListHeading = "%nCommands:%n",
        footer = {"", CliSupport.EXIT_CODES})
public final class ConsumersCommand implements Callable<Integer> {
    private final PrintStream out;

    @Spec
    private CommandSpec spec;

    // Not required by picocli, which would then ask for it before remove and move too: call() requires it.
    @Option(names = "--dir", paramLabel = "D", description = "queue directory (required)")
    private Path dir;

    @Option(names = "--json", description = "print one JSON object instead of the lines")
    private boolean json;

    /** @param out where the command prints */
    public ConsumersCommand(PrintStream out) {
        this.out = out;
    }

    /**
     * The {@code consumers} command with its subcommands {@code remove} and {@code move}, not yet configured
     * ({@link CliSupport#configure}).
     *
     * @param out where the commands print
     * @param err where remove and move report a refusal
     * @return the command line of {@code consumers}
     */
    public static picocli.CommandLine commandLine(PrintStream out, PrintStream err) {
        return new picocli.CommandLine(new ConsumersCommand(out)).addSubcommand(new ConsumerRemoveCommand(out, err))
                .addSubcommand(new ConsumerMoveCommand(out, err));
    }

    @Override
    public Integer call() {
        if (dir == null) {
            throw new ParameterException(spec.commandLine(), "Missing required option: '--dir=D'");
        }
        QueueFiles.existingQueue(dir);
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, QueueFiles.READ_ONLY)) {
            java.util.List<ConsumerPosition> consumers = queue.consumers();
            if (json) {
                out.println(json(consumers));
            } else {
                for (ConsumerPosition consumer : consumers) {
                    out.println(line(consumer));
                }
            }
        }
        return CliSupport.OK;
    }

    /** {@code NAME committed C lag L holder PID|none last-commit TIME|never}. */
    static String line(ConsumerPosition consumer) {
        return consumer.name() + " committed " + consumer.committedIndex() + " lag " + consumer.lag()
                + " holder " + (consumer.holderPid().isPresent() ? Long.toString(consumer.holderPid().getAsLong()) : "none")
                + " last-commit " + consumer.lastCommit().map(Object::toString).orElse("never");
    }

    /** The {@code --json} object of {@code consumers}. */
    static String json(java.util.List<ConsumerPosition> consumers) {
        JsonWriter json = new JsonWriter().beginObject().name("consumers").beginArray();
        for (ConsumerPosition consumer : consumers) {
            json.beginObject().member("name", consumer.name()).member("committed", consumer.committedIndex())
                    .member("lag", consumer.lag()).name("holder_pid");
            if (consumer.holderPid().isPresent()) {
                json.value(consumer.holderPid().getAsLong());
            } else {
                json.nullValue();
            }
            json.member("last_commit", consumer.lastCommit().map(Object::toString).orElse(null)).endObject();
        }
        return json.endArray().endObject().toString();
    }
}
