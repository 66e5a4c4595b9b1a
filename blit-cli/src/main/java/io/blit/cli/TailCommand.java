package io.blit.cli;

import io.blit.layout.LayoutDescriptor;
import io.blit.queue.BlitQueue;
import io.blit.queue.NamedTailer;
import io.blit.queue.QueueOptions;
import io.blit.queue.QueueReader;
import io.blit.queue.Tailer;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code tail}: prints the messages of a queue, one line each with its type name, optionally following it; with
 * {@code --consumer}, as a named consumer that commits each message it printed.
 */
@Command(name = "tail", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Print messages.",
                "",
                "Prints one line per message: index=I type=NAME then name=value for every field, in layout "
                        + "(offset) order, then appended=TIME (when the message was appended, ISO-8601 UTC to the "
                        + "nanosecond, e.g. 2026-11-28T04:50:12.123456789Z; - in a file of format 1, which records no "
                        + "time), decoded with the layout the file stores for the record's type (any message "
                        + "class, several types in one queue; raw payloads as hex). Indices skipped by the queue "
                        + "(records abandoned by a failed or dead writer) are reported as a line "
                        + "\"# indices A..B abandoned\", a claim of a writer that died (stepped over after the abandon "
                        + "grace, 1 s) as \"# index N: abandoned by a writer that died\". Without --follow, a record still "
                        + "claimed by a live writer after the grace and a second ends the output with \"# stopped at index "
                        + "N: claimed by live writer W ...\" naming the queue's end (exit 1).",
                "",
                "With --consumer NAME it reads as that named consumer: it starts after the index NAME last committed "
                        + "(a new NAME starts where --from says) and commits each message once its line is printed and "
                        + "flushed, so the next tail --consumer NAME goes on after it. Killed between the two, it prints "
                        + "that message again next time (at least once). One process at a time holds a NAME.",
                "",
                "With --json, each message is one JSON object on its own line, as dump --json prints it; the # lines "
                        + "go to stderr (docs/operations.md, \"JSON output\").",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
public final class TailCommand implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;
    @Spec
    private CommandSpec spec;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "queue directory")
    private Path dir;

    @Option(names = "--from", paramLabel = "start|end|INDEX", defaultValue = "start", converter = From.Converter.class,
            description = "start, end or a message index (default start); with --consumer, where a new NAME starts")
    private From from;

    @Option(names = "--from-time", paramLabel = "INSTANT", converter = IndexOrTime.InstantConverter.class,
            description = {"start at the first message appended at or after this ISO-8601 instant "
                    + "(2026-11-26T09:30:00Z), by the times the records carry; messages appended before it are not "
                    + "printed, even with --follow. Not with --from. With --consumer, where a new NAME starts (an "
                    + "existing NAME resumes after its last commit)"})
    private Instant fromTime;

    @Option(names = "--consumer", paramLabel = "NAME", description = {"read as named consumer NAME (1 to 32 characters "
            + "of A-Z a-z 0-9 . _ -), resuming after its last commit, and commit each message printed"})
    private String consumer;

    @Option(names = "--count", paramLabel = "N", description = "stop after N messages (default: all)")
    private long count = Long.MAX_VALUE;

    @Option(names = "--follow", description = {"wait for new messages instead of stopping at the end of the queue "
            + "(until --count messages were printed, or forever)"})
    private boolean follow;

    @Option(names = "--type", paramLabel = "NAME|ID", description = {"print only messages of this type: its class's "
            + "simple name as the files record it (BookUpdate) or its type id; must be a type of the queue's newest "
            + "file. With --consumer, the messages of other types are committed too (read, not printed)"})
    private String type;

    @Option(names = "--json", description = "print each message as one JSON object on one line (JSON lines); the "
            + "lines starting with # go to stderr")
    private boolean json;

    /** @param out where the command prints; with --json, its # lines go to the JVM's stderr */
    public TailCommand(PrintStream out) {
        this(out, System.err);
    }

    /**
     * @param out where the command prints
     * @param err where its # lines go with --json, so that {@code out} holds only JSON lines
     */
    public TailCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Where {@code --from} starts: the first message, the end, or an index ({@code index} is used only then). */
    record From(Where where, long index) {
        enum Where { START, END, INDEX }

        /** {@code start}, {@code end} or an integer; anything else is a conversion error. */
        static final class Converter implements ITypeConverter<From> {
            @Override
            public From convert(String value) {
                return switch (value) {
                    case "start" -> new From(Where.START, 0);
                    case "end" -> new From(Where.END, 0);
                    default -> {
                        try {
                            yield new From(Where.INDEX, Long.parseLong(value));
                        } catch (NumberFormatException e) {
                            throw new TypeConversionException("expects an integer, got '" + value + "'");
                        }
                    }
                };
            }
        }
    }

    @Override
    public Integer call() {
        if (count < 0) {
            throw new ParameterException(spec.commandLine(), "--count must be >= 0");
        }
        if (fromTime != null && spec.commandLine().getParseResult().hasMatchedOption("--from")) {
            throw new ParameterException(spec.commandLine(), "--from and --from-time exclude each other");
        }
        QueueFiles.existingQueue(dir);
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir,
                consumer == null ? QueueFiles.READ_ONLY : QueueOptions.defaults()); Arena arena = Arena.ofConfined()) {
            if (fromTime != null) {
                from = new From(From.Where.INDEX, queue.firstIndexAtOrAfter(fromTime));
            }
            if (type != null && !QueueFiles.typeNamesOf(queue).contains(type)) {
                throw new BadInputException("--type " + type + ": the queue's newest file holds no such type (it holds "
                        + io.blit.queue.TypeLayouts.ofNewestFile(queue) + ")");
            }
            if (consumer != null) {
                try (NamedTailer<Void> named = named(queue)) {
                    return print(named, arena, queue);
                }
            }
            try (Tailer<Void> tailer = tailer(queue)) {
                return print(tailer, arena, queue);
            }
        }
    }

    private NamedTailer<Void> named(BlitQueue<Void> queue) {
        try {
            NamedTailer.Options options = switch (from.where()) {
                case START -> NamedTailer.Options.defaults();
                case END -> NamedTailer.Options.defaults().fromEnd();
                case INDEX -> NamedTailer.Options.defaults().from(from.index());
            };
            return queue.tailer(consumer, options);
        } catch (IllegalArgumentException e) {
            String option = e.getMessage().startsWith("consumer name") ? "--consumer" : "--from " + from.index();
            throw new ParameterException(spec.commandLine(), option + ": " + CliSupport.oneLine(e.getMessage()));
        }
    }

    private Tailer<Void> tailer(BlitQueue<Void> queue) {
        return switch (from.where()) {
            case START -> queue.tailer();
            case END -> queue.tailerFromEnd();
            case INDEX -> {
                try {
                    yield queue.tailerFrom(from.index());
                } catch (IllegalArgumentException e) {
                    throw new ParameterException(spec.commandLine(),
                            "--from " + from.index() + ": " + CliSupport.oneLine(e.getMessage()));
                }
            }
        };
    }

    /**
     * Whether a message of {@code time} was appended before {@code --from-time}: possible only with --follow, for a time
     * still to come (0: a file of format 1, whose records carry no time, is not filtered). A named consumer is never
     * filtered: it reads from its own position, and --from-time only says where a new name starts.
     */
    private boolean beforeFromTime(long time) {
        return fromTime != null && consumer == null && time != 0 && time < fromTime.getEpochSecond() * 1_000_000_000L + fromTime.getNano();
    }

    /**
     * Prints until --count messages, or the end of the queue without --follow: {@link CliSupport#OK}, or 1 if cut short.
     * Each message is committed once printed (a named consumer stores its position; a plain tailer has none), its line
     * flushed first when it is committed: at least once.
     */
    private int print(QueueReader<Void> reader, Arena arena, BlitQueue<Void> queue) {
        boolean commits = consumer != null;
        long capacity = 1 << 16;
        MemorySegment buffer = arena.allocate(capacity, 8);
        StringBuilder line = new StringBuilder(512);
        long expected = reader.index();
        ClaimStops stops = new ClaimStops(json ? err : out, "# ", QueueFiles.READ_ONLY.abandonGrace());
        for (long printed = 0; printed < count; ) {
            long length;
            try {
                length = reader.readNextBytes(buffer);
            } catch (IllegalArgumentException longer) { // not consumed: grow and read it again
                capacity = Math.max(capacity * 2, 1L << 24);
                buffer = arena.allocate(capacity, 8);
                continue;
            }
            if (length < 0) {
                if (!follow) {
                    ClaimStops.Outcome outcome = stops.atStop(reader::pendingClaim, queue::endIndex, expected,
                            reader.index());
                    if (outcome == ClaimStops.Outcome.READ_ON) {
                        continue;
                    }
                    return outcome == ClaimStops.Outcome.END ? CliSupport.OK : CliSupport.FAILED;
                }
                out.flush();
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
                continue;
            }
            long index = reader.lastReadIndex();
            LayoutDescriptor layout = reader.lastTypeLayout();
            long time = reader.lastTimeNanos();
            if ((type != null && !QueueFiles.isType(layout, reader.lastTypeId(), type)) || beforeFromTime(time)) {
                expected = index + 1;
                reader.commit(); // a named consumer has read it: committed, not printed
                continue;
            }
            stops.reportGap(expected, index);
            expected = index + 1;
            if (json) {
                line.setLength(0);
                RecordJson.append(new JsonWriter(line), index, layout, buffer, length, time);
            } else {
                RecordLine.append(line, index, layout, buffer, length, time);
            }
            out.println(line);
            if (commits) {
                out.flush(); // the line is out before the commit: at least once
            }
            reader.commit();
            printed++;
        }
        return CliSupport.OK;
    }
}
