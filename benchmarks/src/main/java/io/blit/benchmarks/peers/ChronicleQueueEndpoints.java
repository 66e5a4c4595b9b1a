package io.blit.benchmarks.peers;

import io.blit.tools.latency.MessageReceiver;
import io.blit.tools.latency.MessageSender;
import java.nio.file.Path;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;

/**
 * Sender and receiver of the {@code chronicle} kind: one Chronicle Queue in the kind's directory, written by an
 * {@link ExcerptAppender} ({@code writeBytes} of a {@link ChronicleBookUpdate}) and read by an {@link ExcerptTailer}
 * ({@code readBytes}), the way Chronicle's documentation writes low-latency trivially copyable messages. Settings:
 * the builder's defaults (FAST_DAILY roll cycle, 64 MiB blocks: no new file while measuring). No pre-touching: in the open
 * source Chronicle Queue 2026.4, {@link ExcerptAppender#pretouch()} recurses until the stack overflows
 * ({@code PretouchUtil$PretouchFactoryEmpty.createPretoucher} calls {@code ChronicleQueue.createPretoucher}, which
 * calls it back; pre-touching is an Enterprise feature there), so its first pass over each page faults it in;
 * the warm-up messages, sent before the measured runs, touch the first pages.
 * Each end belongs to the thread that created it (Chronicle's appenders and tailers are single-threaded).
 */
final class ChronicleQueueEndpoints {
    private ChronicleQueueEndpoints() {
    }

    private static ChronicleQueue open(Path dir) {
        return SingleChronicleQueueBuilder.single(dir.resolve("chronicle").toFile()).build();
    }

    static final class Sender implements MessageSender {
        private final ChronicleQueue queue;
        private final ExcerptAppender appender;
        private final ChronicleBookUpdate message = new ChronicleBookUpdate();

        Sender(Path dir) {
            queue = open(dir);
            appender = queue.createAppender();
        }

        @Override
        public void send(long sequence, long intendedNanos) {
            message.update.fillFor(sequence, intendedNanos);
            appender.writeBytes(message);
        }

        @Override
        public void pretouch(long bytes) {
            // none: see the class comment
        }

        @Override
        public void close() {
            try {
                appender.close();
            } finally {
                queue.close();
            }
        }
    }

    static final class Receiver implements MessageReceiver {
        private final ChronicleQueue queue;
        private final ExcerptTailer tailer;
        private final ChronicleBookUpdate message = new ChronicleBookUpdate();

        Receiver(Path dir) {
            queue = open(dir);
            tailer = queue.createTailer();
        }

        @Override
        public boolean poll() {
            return tailer.readBytes(message);
        }

        @Override
        public void pretouch(long bytes) {
            // Chronicle's tailer has no pretouch: its reads follow the appender's pretouched pages
        }

        @Override
        public long sequence() {
            return message.update.sequence;
        }

        @Override
        public long intendedNanos() {
            return message.update.sendTimeNanos;
        }

        @Override
        public void verify(long sequence) {
            if (!message.update.isConsistentFor(sequence)) {
                throw new IllegalStateException("Chronicle message " + sequence + " arrived as " + message.update);
            }
        }

        @Override
        public void close() {
            try {
                tailer.close();
            } finally {
                queue.close();
            }
        }
    }
}
