package io.blit.tools.cli;

import io.blit.cli.BadInputException;
import io.blit.cli.CliSupport;
import io.blit.cli.ToolVersion;
import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.IndexedFiller;
import io.blit.queue.QueueOptions;
import io.blit.tools.messages.BookUpdate;
import io.blit.tools.messages.MarketData;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code produce}: appends numbered messages to a queue. Each message is filled after its record is claimed
 * ({@link Appender#append(Object, IndexedFiller)}), so message {@code n} is exactly the message at index
 * {@code n}: a {@code produce} after a crash continues the sequence, and concurrent producers (threads or
 * processes) interleave without a gap or a duplicate, which {@code check} verifies.
 */
@Command(name = "produce", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = {"Append MarketData (or BookUpdate) messages numbered by index.",
                "",
                "Appends N MarketData messages to the queue in directory D (created if absent). Message n has "
                        + "securityId = n, time = System.nanoTime(), and double field i (0..15 in declaration order) "
                        + "= n + i/16.0, where n is the index the message gets in the queue: it is filled after its "
                        + "record is claimed, so a produce after a crash continues the sequence and concurrent "
                        + "producers interleave in one gap-free sequence that check accepts.",
                ""},
        footer = {"", QueueCli.EXIT_CODES})
final class ProduceCommand implements Callable<Integer> {
    private final PrintStream out;
    @Spec
    private CommandSpec spec;

    @Option(names = "--dir", required = true, paramLabel = "D", description = "queue directory")
    private Path dir;

    @Option(names = "--count", required = true, paramLabel = "N", description = "messages to append (N >= 0)")
    private long count;

    @Option(names = "--rate", paramLabel = "R", defaultValue = "0",
            description = "messages per second; 0 (default) = as fast as possible")
    private double rate;

    @Option(names = "--type", paramLabel = "T", defaultValue = "marketdata", converter = MessageType.Converter.class,
            description = {"marketdata (default), book or mixed. book: BookUpdate messages, where message n has symbol "
                    + "EURUSD, exchange XLON (packed in longs), sequence = n, sendTimeNanos = System.nanoTime(), and "
                    + "level field k (0..19: bid prices, bid quantities, ask prices, ask quantities, 5 each) = "
                    + "n + k/32.0. mixed: one queue of two types, MarketData (type id 1) and BookUpdate (type id 2): "
                    + "message n is a BookUpdate when n %% 3 == 2, else a MarketData, each filled as above. The type "
                    + "of each message follows the index this producer expects it to get, so mixed needs to be the "
                    + "only producer while it runs (check reports a record of the wrong type otherwise)"})
    private MessageType<?> type;

    @Option(names = "--segment-size", paramLabel = "B", converter = CliSupport.ByteSize.class,
            description = "size of the segment files the queue creates (65536, 64k, 256m, 1g: a multiple of 4 KiB from "
                    + "12 KiB to 4 GiB; default: the queue's, 64 MiB); an existing queue keeps the size its newest file "
                    + "records")
    private Long segmentSize;

    @Option(names = "--private", description = "create the queue's directory (mode 0700) and its files (mode 0600) "
            + "readable and writable by this user only; files and directories that exist keep their modes")
    private boolean privateFiles;

    ProduceCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() {
        if (count < 0) {
            throw new ParameterException(spec.commandLine(), "--count must be >= 0");
        }
        if (rate < 0 || Double.isNaN(rate) || Double.isInfinite(rate)) {
            throw new ParameterException(spec.commandLine(), "--rate must be a number >= 0");
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new BadInputException("not a directory: " + dir);
        }
        QueueOptions options = QueueOptions.defaults().privateFiles(privateFiles);
        if (segmentSize != null) {
            try {
                options = options.segmentSize(segmentSize);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--segment-size: " + e.getMessage());
            }
        }
        if (type == MessageType.MIXED) {
            try (BlitQueue<Object> queue = BlitQueue.open(dir, MixedStream.TYPES, options)) {
                Object[] messages = {new MarketData(), new BookUpdate()};
                // The type follows the index the next append is expected to get (the end, then one past the last);
                // the content is filled once the index is claimed. Exact for one producer; see --help.
                return produce(queue, n -> messages[n % 3 == 2 ? 1 : 0], (m, n) -> MixedStream.fill(m, n,
                        System.nanoTime()), queue.endIndex());
            }
        }
        return produce(type, options);
    }

    private <T> int produce(MessageType<T> type, QueueOptions options) {
        try (BlitQueue<T> queue = BlitQueue.open(dir, type.type(), options)) {
            T message = type.factory().get();
            MessageType.Filler<T> filler = type.filler();
            // Filled once the index is claimed: exact even with concurrent producers.
            return produce(queue, n -> message, (m, n) -> filler.fill(m, n, System.nanoTime()), 0);
        }
    }

    private <T> int produce(BlitQueue<T> queue, LongFunction<T> messageFor, IndexedFiller<T> byIndex, long next) {
        {
            long firstIndex = -1;
            long lastIndex = -1;
            long start = System.nanoTime();
            double intervalNanos = rate == 0 ? 0 : TimeUnit.SECONDS.toNanos(1) / rate;
            try (Appender<T> appender = queue.appender()) {
                for (long k = 0; k < count; k++) {
                    if (rate > 0) {
                        pace(start + (long) (k * intervalNanos));
                    }
                    long index = appender.append(messageFor.apply(next), byIndex);
                    next = index + 1;
                    if (firstIndex < 0) {
                        firstIndex = index;
                    }
                    lastIndex = index;
                }
            }
            long elapsed = System.nanoTime() - start;
            if (count == 0) {
                out.println("appended 0 messages to " + dir);
            } else {
                out.printf("appended %d messages to %s, indices %d..%d, in %.3f s (%.0f msg/s)%n", count, dir,
                        firstIndex, lastIndex, elapsed / 1e9, count / (elapsed / 1e9));
            }
            return QueueCli.OK;
        }
    }

    private static void pace(long deadline) {
        long remaining;
        while ((remaining = deadline - System.nanoTime()) > 0) {
            if (remaining > 200_000) {
                LockSupport.parkNanos(remaining - 100_000);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
