package io.blit.cli;

import io.blit.queue.BlitQueue;
import io.blit.queue.ConsumerHeldException;
import io.blit.queue.ConsumerPosition;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code consumers remove}: forgets a named consumer that no live process holds. */
@Command(name = "remove", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Forget a named consumer, and print on one line:",
                "",
                "  removed consumer <name> (committed <c>)",
                "",
                "c: the index it had committed (-1: none). It then holds no file back from retention; opening the "
                        + "name again starts it anew. Refused with exit code 1 and one line naming the holder's pid, "
                        + "changing nothing, while a live process holds the name; a name the queue does not have is "
                        + "bad input (exit 2).",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
final class ConsumerRemoveCommand implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "queue directory")
    private Path dir;

    @Option(names = "--name", required = true, paramLabel = "NAME", description = "the consumer's name")
    private String name;

    ConsumerRemoveCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        try (BlitQueue<Void> queue = ConsumerChange.open(dir)) {
            ConsumerPosition before = ConsumerChange.existing(queue, name);
            try {
                queue.removeConsumer(name);
            } catch (ConsumerHeldException held) {
                return ConsumerChange.refused(held, "remove", err);
            }
            out.println("removed consumer " + name + " (committed " + before.committedIndex() + ")");
            out.flush();
            return CliSupport.OK;
        }
    }
}
