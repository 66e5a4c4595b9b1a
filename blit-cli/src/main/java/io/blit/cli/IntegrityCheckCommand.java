package io.blit.cli;

import io.blit.layout.LayoutDescriptor;
import io.blit.queue.BlitQueue;
import io.blit.queue.Tailer;
import io.blit.queue.replica.QueueVerifier;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code check} of {@code blit.jar}: verifies every byte of a queue's segment files the format lets it verify
 * ({@link QueueVerifier}: headers, type tables, checkpoint slots, record header words, payload lengths against the
 * stored layouts, the zeros after the last record), then reads every record as {@code dump} does: no record left
 * claimed by a live writer. Not thread-safe: one instance runs one command line.
 */
@Command(name = "check", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Verify a queue's integrity.",
                "",
                "Verifies every segment file of the queue in D against the format (docs/format.md): each file "
                        + "header and type table (CRC), each record header word (state, padding word, type slot, "
                        + "length, a payload as long as the layout its file stores for the record's type), every "
                        + "checkpoint slot (it must point at the record of its index), that each file starts where "
                        + "the one before ends and that the file holds only zeros after its last record; then the "
                        + "sidecar files (terms, fence, consumers' positions, writer liveness, replica identity and "
                        + "marker: docs/format.md, \"What blit check verifies in the sidecar files\"). Each damage "
                        + "is printed as \"check failed: FILE at byte OFFSET (index I): WHAT\" (exit 1). In a file of "
                        + "format 5 (record checksums) every committed record's CRC32C too; in older files payloads "
                        + "and times cannot be verified: they hold no checksum of them. Then reads every record "
                        + "from the first index to the end and prints \"N records ok\" (exit 0). Indices without a message are named: \"indices A..B abandoned\" (records "
                        + "given up by a failed or dead writer), \"index N: abandoned by a writer that died\" (a claim "
                        + "of a dead writer, stepped over after the abandon grace, 1 s). A record still claimed by a "
                        + "live writer after the grace and a second stops the check with one line naming the index, "
                        + "the writer and the queue's end (exit 1): the queue is not called whole. A missing "
                        + "directory, or a directory that is not a queue, is reported in one line (exit 2). Opens the "
                        + "queue read-only and changes nothing.",
                "",
                "With --json, one JSON object instead of the lines, with the same exit code: {\"ok\": true or "
                        + "false, \"records\": N (null unless every record was read), \"problems\": [each damage, or "
                        + "the stop at a live writer's claim, as the lines say it after \"check failed: \"], "
                        + "\"abandoned\": [\"indices A..B abandoned\", \"index N: abandoned by a writer that died\", "
                        + "...]} (docs/operations.md, \"JSON output\").",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
final class IntegrityCheckCommand implements Callable<Integer> {
    /** The most problems listed: a file damaged throughout would otherwise print one line per checkpoint slot. */
    private static final int MAX_PROBLEMS = 100;
    private final PrintStream out;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "queue directory")
    private Path dir;

    @Option(names = "--json", description = "print one JSON object instead of the lines")
    private boolean json;

    IntegrityCheckCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        QueueFiles.existingQueue(dir);
        if (!json) {
            return check(out, problem -> out.println("check failed: " + problem), records -> out.println(records
                    + " records ok"));
        }
        ByteArrayOutputStream notes = new ByteArrayOutputStream();
        List<String> problems = new ArrayList<>();
        long[] read = {-1};
        int code;
        try (PrintStream noteLines = new PrintStream(notes, true, StandardCharsets.UTF_8)) {
            code = check(noteLines, problems::add, records -> read[0] = records);
        }
        List<String> abandoned = new ArrayList<>();
        for (String note : notes.toString(StandardCharsets.UTF_8).lines().toList()) {
            (note.startsWith("stopped at") ? problems : abandoned).add(note);
        }
        JsonWriter report = new JsonWriter().beginObject().member("ok", code == CliSupport.OK).name("records");
        if (read[0] < 0) {
            report.nullValue();
        } else {
            report.value(read[0]);
        }
        strings(report.name("problems"), problems);
        strings(report.name("abandoned"), abandoned);
        out.println(report.endObject());
        return code;
    }

    private static void strings(JsonWriter json, List<String> values) {
        json.beginArray();
        values.forEach(json::value);
        json.endArray();
    }

    /**
     * Verifies the files, then reads every record.
     *
     * @param notes    where the lines of abandoned indices and of a stop at a live writer's claim go
     * @param problems takes each damage found, without the {@code check failed: } of its line
     * @param ok       takes the number of records read, if every one was read whole
     * @return the exit code
     */
    private int check(PrintStream notes, Consumer<String> problems, LongConsumer ok) {
        List<QueueVerifier.Problem> found = QueueVerifier.verify(dir);
        if (!found.isEmpty()) {
            for (QueueVerifier.Problem problem : found.subList(0, Math.min(found.size(), MAX_PROBLEMS))) {
                problems.accept(problem.toString());
            }
            if (found.size() > MAX_PROBLEMS) {
                problems.accept((found.size() - MAX_PROBLEMS) + " more problems not listed");
            }
            return CliSupport.FAILED;
        }
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, QueueFiles.READ_ONLY); Arena arena = Arena.ofConfined();
             Tailer<Void> tailer = queue.tailer()) {
            long capacity = 1 << 16;
            MemorySegment buffer = arena.allocate(capacity, 8);
            long expected = tailer.index();
            long records = 0;
            ClaimStops stops = new ClaimStops(notes, "", QueueFiles.READ_ONLY.abandonGrace());
            while (true) {
                long length;
                try {
                    length = tailer.readNextBytes(buffer);
                } catch (IllegalArgumentException longer) { // not consumed: grow and read it again
                    capacity = Math.max(capacity * 2, 1L << 24);
                    buffer = arena.allocate(capacity, 8);
                    continue;
                }
                if (length < 0) {
                    ClaimStops.Outcome outcome = stops.atStop(tailer::pendingClaim, queue::endIndex, expected,
                            tailer.index());
                    if (outcome == ClaimStops.Outcome.READ_ON) {
                        continue;
                    }
                    if (outcome == ClaimStops.Outcome.CUT_SHORT) {
                        return CliSupport.FAILED;
                    }
                    break;
                }
                long index = tailer.index() - 1;
                stops.reportGap(expected, index);
                LayoutDescriptor layout = tailer.lastTypeLayout();
                if (layout != null && length != layout.length()) {
                    String name = layout.className();
                    problems.accept("record " + index + " (" + name.substring(name.lastIndexOf('.') + 1)
                            + ") has a payload of " + length + " bytes, its stored layout says " + layout.length());
                    return CliSupport.FAILED;
                }
                expected = index + 1;
                records++;
            }
            ok.accept(records);
            return CliSupport.OK;
        }
    }
}
