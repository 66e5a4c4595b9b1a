package io.blit.cli;

import io.blit.queue.BlitQueue;
import io.blit.queue.Tailer;
import io.blit.queue.replica.SourceFiles;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dump}: prints every record of a queue using only the layout stored in its file header. */
@Command(name = "dump", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Print every record using only the stored layout.",
                "",
                "Prints every record of the queue in D (or those from --from to --to, both included: each an index, "
                        + "or an ISO-8601 instant such as 2026-11-26T09:30:00Z for the messages appended at or after "
                        + "--from and at or before --to, by the times the records carry) "
                        + "(index=I type=NAME, then name=value for every field, then appended=TIME: when the record was "
                        + "appended, ISO-8601 UTC to the nanosecond, or - in a file of format 1, which records no time) "
                        + "decoding the raw payloads with nothing but the layout each file header stores for the "
                        + "record's type (field names, types and offsets; native byte order), so it needs no message "
                        + "class. A raw queue (no descriptor) is printed as hex. Damage the queue's API exposes is flagged: a payload whose "
                        + "length differs from the descriptor's block length is printed as \"index=I DAMAGED ...\" "
                        + "(and dump exits 1 at the end), indices the queue skipped (abandoned records) as "
                        + "\"# indices A..B abandoned\", a claim of a dead writer stepped over (after the abandon grace, 1 s) "
                        + "as \"# index N: abandoned by a writer that died\". A record still claimed by a live writer after "
                        + "the grace and a second ends the dump with \"# stopped at index N: claimed by live writer W ...\" "
                        + "naming the queue's end (exit 1). The API does not expose the contents of abandoned records, "
                        + "nor a record whose header is invalid: such a header stops the dump with an error naming "
                        + "the file and byte offset (exit 2).",
                "",
                "With --json, each record is one JSON object on its own line: {\"index\", \"type\" (null: raw), "
                        + "\"appended\" (null: format 1), \"damaged\", then \"fields\": {name: value, ...} or "
                        + "\"length\" and \"bytes\" (hex)}; the # lines go to stderr, the exit codes are the same "
                        + "(docs/operations.md, \"JSON output\").",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
public final class DumpCommand implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "queue directory")
    private Path dir;

    @Option(names = "--from", paramLabel = "INDEX|TIME", converter = IndexOrTime.Converter.class,
            description = "the first index to print, or the first message appended at or after TIME (default: the "
                    + "queue's first)")
    private IndexOrTime fromOption;

    @Option(names = "--to", paramLabel = "INDEX|TIME", converter = IndexOrTime.Converter.class,
            description = "the last index to print, included, or the last message appended at or before TIME "
                    + "(default: the end)")
    private IndexOrTime toOption;

    @Option(names = "--json", description = "print each record as one JSON object on one line (JSON lines); the "
            + "lines starting with # go to stderr")
    private boolean json;

    /** @param out where the command prints; with --json, its # lines go to the JVM's stderr */
    public DumpCommand(PrintStream out) {
        this(out, System.err);
    }

    /**
     * @param out where the command prints
     * @param err where its # lines go with --json, so that {@code out} holds only JSON lines
     */
    public DumpCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        QueueFiles.existingQueue(dir);
        boolean damaged = false;
        boolean cutShort = false;
        PrintStream notes = json ? err : out;
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, QueueFiles.READ_ONLY); Arena arena = Arena.ofConfined()) {
            long[] firsts = queue.fileFirstIndices();
            notes.println("# queue " + dir + ": "
                    + describeTypes(SourceFiles.fileHeader(queue, firsts[firsts.length - 1])));
            long capacity = 1 << 16;
            MemorySegment buffer = arena.allocate(capacity, 8);
            StringBuilder line = new StringBuilder(512);
            long records = 0;
            checkOrder();
            Long from = fromOption == null ? null : fromOption.fromIndex(queue);
            Long to = toOption == null ? null : toOption.toIndex(queue);
            try (Tailer<Void> tailer = from == null ? queue.tailer() : tailerFrom(queue, from)) {
                long expected = tailer.index();
                ClaimStops stops = new ClaimStops(notes, "# ", QueueFiles.READ_ONLY.abandonGrace());
                while (to == null || tailer.index() <= to) {
                    long length;
                    try {
                        length = tailer.readNextBytes(buffer);
                    } catch (IllegalArgumentException e) {
                        // A payload longer than the buffer: grow and retry (the message was not consumed).
                        capacity = Math.max(capacity * 2, 1L << 24);
                        buffer = arena.allocate(capacity, 8);
                        continue;
                    }
                    if (length < 0) {
                        ClaimStops.Outcome outcome = stops.atStop(tailer::pendingClaim, queue::endIndex, expected,
                                to == null ? tailer.index() : Math.min(tailer.index(), to + 1));
                        if (outcome == ClaimStops.Outcome.READ_ON) {
                            continue;
                        }
                        cutShort = outcome == ClaimStops.Outcome.CUT_SHORT;
                        break;
                    }
                    long index = tailer.index() - 1;
                    if (to != null && index > to) {
                        stops.reportGap(expected, to + 1);
                        break; // abandoned records skipped up to a message after --to
                    }
                    stops.reportGap(expected, index);
                    expected = index + 1;
                    records++;
                    damaged |= !(json ? RecordJson.append(new JsonWriter(line), index, tailer.lastTypeLayout(),
                            buffer, length, tailer.lastTimeNanos()) : RecordLine.append(line, index,
                            tailer.lastTypeLayout(), buffer, length, tailer.lastTimeNanos()));
                    out.println(line);
                    line.setLength(0);
                }
            }
            notes.println("# " + records + " records" + (damaged ? ", some DAMAGED" : ""));
            notes.flush();
        }
        return damaged || cutShort ? CliSupport.FAILED : CliSupport.OK;
    }

    /** Two indices, or two times, given in the wrong order are a mistake (an index and a time are not compared). */
    private void checkOrder() {
        if (fromOption == null || toOption == null) {
            return;
        }
        boolean indices = fromOption.index() != null && toOption.index() != null;
        boolean times = fromOption.time() != null && toOption.time() != null;
        if ((indices && toOption.index() < fromOption.index()) || (times && toOption.time().isBefore(fromOption.time()))) {
            throw new BadInputException("--to " + toOption + " is before --from " + fromOption);
        }
    }

    private Tailer<Void> tailerFrom(BlitQueue<Void> queue, long index) {
        try {
            return queue.tailerFrom(index);
        } catch (IllegalArgumentException | io.blit.queue.MessagesDeletedException e) {
            throw new BadInputException("--from " + fromOption + ": " + CliSupport.oneLine(e.getMessage()));
        }
    }

    /** The newest file's types: {@code MarketData, fingerprint F, 144-byte blocks, fields [...]} or a type table. */
    private static String describeTypes(byte[] newestHeader) {
        String header = SourceFiles.describe(newestHeader);
        int at = header.indexOf(", messages ");
        if (at < 0) {
            at = header.indexOf(", message types ");
        }
        if (at < 0) {
            at = header.indexOf(", raw payloads");
        }
        return at < 0 ? header : header.substring(at + 2) + " (the newest file; each record is printed with its type)";
    }
}
