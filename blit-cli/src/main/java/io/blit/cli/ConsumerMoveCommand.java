package io.blit.cli;

import io.blit.queue.BlitQueue;
import io.blit.queue.ConsumerHeldException;
import io.blit.queue.ConsumerPosition;
import io.blit.queue.NamedTailer;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code consumers move}: sets where a named consumer that no live process holds reads next. */
@Command(name = "move", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Move a named consumer so that it reads next the message at an index, or the first appended "
                + "at or after an instant, and print on one line:",
                "",
                "  moved consumer <name> to index <i> (committed <c>, was <before>)",
                "",
                "i: the index its next read returns; c = i - 1, the committed index stored now; before: the committed "
                        + "index it had. Moving back re-delivers messages, moving forward skips them. Refused with "
                        + "exit code 1 and one line naming the holder's pid, changing nothing, while a live process "
                        + "holds the name. Bad input (exit 2, nothing changed): a name the queue does not have, an "
                        + "index beyond the queue's end or deleted by retention.",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
final class ConsumerMoveCommand implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "queue directory")
    private Path dir;

    @Option(names = "--name", required = true, paramLabel = "NAME", description = "the consumer's name")
    private String name;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Target target;

    /** Exactly one of {@code --to} and {@code --to-time}. */
    static final class Target {
        @Option(names = "--to", paramLabel = "INDEX", description = "the index the consumer reads next")
        private Long index;

        @Option(names = "--to-time", paramLabel = "TIME", converter = IndexOrTime.InstantConverter.class,
                description = "an ISO-8601 instant: the consumer reads next the first message appended at or after "
                        + "it (the queue's end if none)")
        private Instant time;
    }

    ConsumerMoveCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        try (BlitQueue<Void> queue = ConsumerChange.open(dir)) {
            ConsumerPosition before = ConsumerChange.existing(queue, name);
            long next = target.index != null ? target.index : queue.firstIndexAtOrAfter(target.time);
            if (next < 0 || next > queue.endIndex()) {
                throw new BadInputException("--to " + next + " is outside the queue: 0 to its end "
                        + queue.endIndex());
            }
            try (NamedTailer<Void> consumer = queue.tailer(name)) {
                consumer.seek(next);
                consumer.commit();
            } catch (ConsumerHeldException held) {
                return ConsumerChange.refused(held, "move", err);
            }
            out.println("moved consumer " + name + " to index " + next + " (committed " + (next - 1) + ", was "
                    + before.committedIndex() + ")");
            out.flush();
            return CliSupport.OK;
        }
    }
}
