package io.blit.cli;

import io.blit.layout.LayoutDescriptor;
import io.blit.queue.BlitQueue;
import io.blit.queue.Tailer;
import io.blit.queue.replica.QueueVerifier;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
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
                        + "the one before ends and that the file holds only zeros after its last record. Each damage "
                        + "is printed as \"check failed: FILE at byte OFFSET (index I): WHAT\" (exit 1). Payloads and "
                        + "times cannot be verified: the format holds no checksum of them. Then reads every record "
                        + "from the first index to the end and prints \"N records ok\" (exit 0). Indices without a message are named: \"indices A..B abandoned\" (records "
                        + "given up by a failed or dead writer), \"index N: abandoned by a writer that died\" (a claim "
                        + "of a dead writer, stepped over after the abandon grace, 1 s). A record still claimed by a "
                        + "live writer after the grace and a second stops the check with one line naming the index, "
                        + "the writer and the queue's end (exit 1): the queue is not called whole. A missing "
                        + "directory, or a directory that is not a queue, is reported in one line (exit 2). Opens the "
                        + "queue read-only and changes nothing.",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
final class IntegrityCheckCommand implements Callable<Integer> {
    /** The most problems listed: a file damaged throughout would otherwise print one line per checkpoint slot. */
    private static final int MAX_PROBLEMS = 100;
    private final PrintStream out;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "queue directory")
    private Path dir;

    IntegrityCheckCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        QueueFiles.existingQueue(dir);
        List<QueueVerifier.Problem> problems = QueueVerifier.verify(dir);
        if (!problems.isEmpty()) {
            for (QueueVerifier.Problem problem : problems.subList(0, Math.min(problems.size(), MAX_PROBLEMS))) {
                out.println("check failed: " + problem);
            }
            if (problems.size() > MAX_PROBLEMS) {
                out.println("check failed: " + (problems.size() - MAX_PROBLEMS) + " more problems not listed");
            }
            return CliSupport.FAILED;
        }
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, QueueFiles.READ_ONLY); Arena arena = Arena.ofConfined();
             Tailer<Void> tailer = queue.tailer()) {
            long capacity = 1 << 16;
            MemorySegment buffer = arena.allocate(capacity, 8);
            long expected = tailer.index();
            long records = 0;
            ClaimStops stops = new ClaimStops(out, "", QueueFiles.READ_ONLY.abandonGrace());
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
                    out.println("check failed: record " + index + " (" + name.substring(name.lastIndexOf('.') + 1)
                            + ") has a payload of " + length + " bytes, its stored layout says " + layout.length());
                    return CliSupport.FAILED;
                }
                expected = index + 1;
                records++;
            }
            out.println(records + " records ok");
            return CliSupport.OK;
        }
    }
}
