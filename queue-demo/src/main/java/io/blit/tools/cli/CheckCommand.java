package io.blit.tools.cli;

import io.blit.cli.ClaimStops;
import io.blit.cli.QueueFiles;
import io.blit.cli.ToolVersion;
import io.blit.queue.BlitQueue;
import io.blit.queue.Tailer;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code check}: verifies that a queue holds exactly what {@code produce} writes, index by index. */
@Command(name = "check", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Verify a queue written by produce.",
                "",
                "Verifies a queue written by produce: securityId == index and every double field = index + i/16.0 "
                        + "for every message from index 0 to the queue's end. Prints \"N records ok\" (exit 0) or the "
                        + "first bad record (exit 1). Indices without a message are named: \"indices A..B abandoned\" "
                        + "(records given up by a failed or dead writer), \"index N: abandoned by a writer that died\" "
                        + "(a claim of a dead writer, stepped over after the abandon grace, 1 s). A record still claimed "
                        + "by a live writer after the grace and a second stops the check with one line naming the "
                        + "index, the writer and the queue's end (exit 1): the queue is not called whole. A queue that cannot be read (missing "
                        + "directory, corrupt file header or record header, another message class) is reported in "
                        + "one line naming the file (exit 2). With --type book the queue must hold BookUpdate "
                        + "messages, checked for sequence == index and the content produce --type book gives "
                        + "message n (produce --help).",
                ""},
        footer = {"", QueueCli.EXIT_CODES})
final class CheckCommand implements Callable<Integer> {
    private final PrintStream out;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "queue directory")
    private Path dir;

    @Option(names = "--type", paramLabel = "T", converter = MessageType.Converter.class,
            description = "marketdata, book or mixed: what the queue must hold (mixed: MarketData type 1 and BookUpdate "
                    + "type 2, message n a BookUpdate when n %% 3 == 2, checked by type and content); default: what "
                    + "the newest file's type table records")
    private MessageType<?> type;

    CheckCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        if (type == null) {
            type = ProducedQueues.typeOfQueue(QueueFiles.existingQueue(dir));
        }
        if (type == MessageType.MIXED) {
            QueueFiles.existingQueue(dir);
            ProducedQueues.requireMixedTypes(dir);
            return MixedStream.check(dir, out);
        }
        return check(type);
    }

    private <T> int check(MessageType<T> type) {
        QueueFiles.existingQueue(dir);
        ProducedQueues.requireMessageClass(dir, type.type());
        try (BlitQueue<T> queue = BlitQueue.open(dir, type.type(), QueueFiles.READ_ONLY);
             Tailer<T> tailer = queue.tailer()) {
            T message = type.factory().get();
            long expected = 0;
            long records = 0;
            if (tailer.index() != 0) {
                out.println("check failed: the queue starts at index " + tailer.index() + ", not 0");
                return QueueCli.CHECK_FAILED;
            }
            ClaimStops stops = new ClaimStops(out, "", QueueFiles.READ_ONLY.abandonGrace());
            while (true) {
                if (!tailer.readNext(message)) {
                    ClaimStops.Outcome outcome = stops.atStop(tailer::pendingClaim, queue::endIndex, expected,
                            tailer.index());
                    if (outcome == ClaimStops.Outcome.CUT_SHORT) {
                        return QueueCli.CHECK_FAILED;
                    }
                    if (outcome == ClaimStops.Outcome.END) {
                        break;
                    }
                    continue;
                }
                long index = tailer.index() - 1;
                stops.reportGap(expected, index);
                long number = type.checker().number(message);
                if (number != index) {
                    out.println("check failed: record " + index + " has " + type.numberField() + "=" + number
                            + " (expected " + index + ")");
                    return QueueCli.CHECK_FAILED;
                }
                if (!type.checker().consistentFor(message, index)) {
                    StringBuilder line = new StringBuilder("check failed: record " + index + " has inconsistent fields:");
                    out.println(ProducedQueues.appendFields(line,
                            ProducedQueues.fieldsInLayoutOrder(type.type(), queue.descriptor()), message));
                    return QueueCli.CHECK_FAILED;
                }
                expected = index + 1;
                records++;
            }
            out.println(records + " records ok");
            return QueueCli.OK;
        }
    }
}
