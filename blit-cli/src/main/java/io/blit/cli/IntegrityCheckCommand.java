package io.blit.cli;

import io.blit.layout.LayoutDescriptor;
import io.blit.queue.BlitQueue;
import io.blit.queue.Tailer;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code check} of {@code blit.jar}: reads every record of a queue of any message types, as {@code dump} does, and
 * verifies what the queue's files say of it: record headers, payload lengths against the stored layouts, no record
 * left claimed by a live writer. Not thread-safe: one instance runs one command line.
 */
@Command(name = "check", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Verify a queue's integrity.",
                "",
                "Reads every record of the queue in D from its first index to its end, of any message class or raw, "
                        + "and verifies that each record header is valid and each payload is as long as the layout "
                        + "its file stores for the record's type. Prints \"N records ok\" (exit 0) or the first bad "
                        + "record (exit 1). Indices without a message are named: \"indices A..B abandoned\" (records "
                        + "given up by a failed or dead writer), \"index N: abandoned by a writer that died\" (a claim "
                        + "of a dead writer, stepped over after the abandon grace, 1 s). A record still claimed by a "
                        + "live writer after the grace and a second stops the check with one line naming the index, "
                        + "the writer and the queue's end (exit 1): the queue is not called whole. A queue that cannot "
                        + "be read (missing directory, corrupt file header or record header) is reported in one line "
                        + "naming the file (exit 2). Opens the queue read-only and changes nothing.",
                ""},
        footer = {"", CliSupport.EXIT_CODES})
final class IntegrityCheckCommand implements Callable<Integer> {
    private final PrintStream out;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "queue directory")
    private Path dir;

    IntegrityCheckCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        QueueFiles.existingQueue(dir);
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
