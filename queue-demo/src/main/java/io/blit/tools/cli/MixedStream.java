package io.blit.tools.cli;

import io.blit.cli.ClaimStops;
import io.blit.cli.QueueFiles;
import io.blit.queue.BlitQueue;
import io.blit.queue.MessageHandler;
import io.blit.queue.MessageTypes;
import io.blit.queue.Tailer;
import io.blit.tools.messages.BookUpdate;
import io.blit.tools.messages.MarketData;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * The stream of {@code produce --type mixed}: one queue of two types, MarketData under type id 1 and BookUpdate under
 * type id 2, where message n is a BookUpdate when n % 3 == 2, else a MarketData, each filled for n as
 * {@link MessageType#MARKET_DATA} and {@link MessageType#BOOK} fill theirs; and its check, record by record. Stateless.
 */
final class MixedStream {
    /** The types of a mixed queue; the ids are a contract of the tools (scripts read them). */
    static final MessageTypes<Object> TYPES = MessageTypes.builder(Object.class)
            .add(1, MarketData.class, MarketData::new)
            .add(2, BookUpdate.class, BookUpdate::new)
            .build();

    private MixedStream() {
    }

    /** The type of message {@code n}. */
    static MessageType<?> typeOf(long n) {
        return n % 3 == 2 ? MessageType.BOOK : MessageType.MARKET_DATA;
    }

    /** Fills {@code message} (a MarketData or a BookUpdate) for number {@code n}. */
    static Object fill(Object message, long n, long timeNanos) {
        return message instanceof MarketData md ? md.fillFor(n, timeNanos)
                : ((BookUpdate) message).fillFor(n, timeNanos);
    }

    /**
     * Verifies a mixed queue: message n of {@link #typeOf(long) its type} with the content produce gives it, from index 0
     * to the queue's end, indices without a message named as {@link ClaimStops} says. Prints {@code N records ok} or the
     * first bad record (or the claim of a live writer that stopped the check).
     *
     * @return {@link QueueCli#OK} or {@link QueueCli#CHECK_FAILED}
     */
    static int check(Path dir, PrintStream out) {
        Delivery delivery = new Delivery();
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TYPES, QueueFiles.READ_ONLY); Tailer<Object> tailer = queue.tailer()) {
            if (tailer.index() != 0) {
                out.println("check failed: the queue starts at index " + tailer.index() + ", not 0");
                return QueueCli.CHECK_FAILED;
            }
            long expected = 0;
            long records = 0;
            ClaimStops stops = new ClaimStops(out, "", QueueFiles.READ_ONLY.abandonGrace());
            while (true) {
                if (!tailer.read(delivery)) {
                    ClaimStops.Outcome outcome = stops.atStop(tailer::pendingClaim, queue::endIndex, expected,
                            tailer.index());
                    if (outcome != ClaimStops.Outcome.READ_ON) {
                        return outcome == ClaimStops.Outcome.END ? ok(out, records) : QueueCli.CHECK_FAILED;
                    }
                    continue;
                }
                long index = delivery.index;
                stops.reportGap(expected, index);
                String problem = delivery.message == null
                        ? "has type id " + delivery.unknownTypeId + ", neither MarketData (1) nor BookUpdate (2)"
                        : problem(typeOf(index), delivery.message, index);
                if (problem != null) {
                    out.println("check failed: record " + index + " " + problem);
                    return QueueCli.CHECK_FAILED;
                }
                expected = index + 1;
                records++;
            }
        }
    }

    /** Prints {@code N records ok}. */
    private static int ok(PrintStream out, long records) {
        out.println(records + " records ok");
        return QueueCli.OK;
    }

    /** What is wrong with {@code message} as message {@code n} of type {@code type}, or null. */
    private static <T> String problem(MessageType<T> type, Object message, long n) {
        if (message.getClass() != type.type()) {
            return "is a " + message.getClass().getSimpleName() + ", expected a " + type.type().getSimpleName()
                    + " (message n is a BookUpdate when n % 3 == 2, else a MarketData)";
        }
        T typed = type.type().cast(message);
        long number = type.checker().number(typed);
        if (number != n) {
            return "(" + type.type().getSimpleName() + ") has " + type.numberField() + "=" + number + " (expected " + n
                    + ")";
        }
        return type.checker().consistentFor(typed, n) ? null
                : "(" + type.type().getSimpleName() + ") has inconsistent fields";
    }

    /** The last record a tailer delivered: its index, and its message (null for a type id the check does not know). */
    private static final class Delivery implements MessageHandler<Object> {
        long index;
        Object message;
        int unknownTypeId;

        @Override
        public void onMessage(long index, Object message) {
            this.index = index;
            this.message = message;
        }

        @Override
        public void onUnknown(long index, int typeId, MemorySegment payload) {
            this.index = index;
            this.message = null;
            this.unknownTypeId = typeId;
        }
    }
}
