package io.blit.tools.cli;

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
                "Verifies a queue written by produce (single producer): indices contiguous from 0, securityId == "
                        + "index and every double field = index + i/16.0 for every message. Prints \"N records ok\" "
                        + "(exit 0) or the first bad record (exit 1). A queue that cannot be read (missing "
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

    @Option(names = "--type", paramLabel = "T", defaultValue = "marketdata", converter = MessageType.Converter.class,
            description = "marketdata (default), book or mixed: what the queue must hold (mixed: MarketData type 1 "
                    + "and BookUpdate type 2, message n a BookUpdate when n % 3 == 2, checked by type and content)")
    private MessageType<?> type;

    CheckCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        if (type == MessageType.MIXED) {
            QueueFiles.existingQueue(dir);
            QueueFiles.requireMixedTypes(dir);
            return MixedStream.check(dir, out);
        }
        return check(type);
    }

    private <T> int check(MessageType<T> type) {
        QueueFiles.existingQueue(dir);
        QueueFiles.requireMessageClass(dir, type.type());
        try (BlitQueue<T> queue = BlitQueue.open(dir, type.type(), QueueFiles.READ_ONLY);
             Tailer<T> tailer = queue.tailer()) {
            T message = type.factory().get();
            long expected = 0;
            if (tailer.index() != 0) {
                out.println("check failed: the queue starts at index " + tailer.index() + ", not 0");
                return QueueCli.CHECK_FAILED;
            }
            while (tailer.readNext(message)) {
                long index = tailer.index() - 1;
                if (index != expected) {
                    out.println("check failed: indices " + expected + ".." + (index - 1)
                            + " are missing (abandoned records) before index " + index);
                    return QueueCli.CHECK_FAILED;
                }
                long number = type.checker().number(message);
                if (number != index) {
                    out.println("check failed: record " + index + " has " + type.numberField() + "=" + number
                            + " (expected " + index + ")");
                    return QueueCli.CHECK_FAILED;
                }
                if (!type.checker().consistentFor(message, index)) {
                    StringBuilder line = new StringBuilder("check failed: record " + index + " has inconsistent fields:");
                    out.println(QueueFiles.appendFields(line,
                            QueueFiles.fieldsInLayoutOrder(type.type(), queue.descriptor()), message));
                    return QueueCli.CHECK_FAILED;
                }
                expected++;
            }
            out.println(expected + " records ok");
            return QueueCli.OK;
        }
    }
}
