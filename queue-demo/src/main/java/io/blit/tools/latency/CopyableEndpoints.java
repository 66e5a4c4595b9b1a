package io.blit.tools.latency;

import io.blit.tools.messages.BookUpdate;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.tools.messages.MarketData;
import io.blit.queue.Tailer;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * Sender and receiver for a trivially copyable message kind — one Blit block copy per append and per read —
 * described by a {@link Shape}: how to fill message n with its intended send time, and where to read them back.
 * {@link #BOOK_UPDATE} serves {@link MessageKind#TC}, {@link #MARKET_DATA} {@link MessageKind#MARKET_DATA}.
 */
final class CopyableEndpoints {
    /** {@link BookUpdate}: {@code sequence} and {@code sendTimeNanos} carry the sequence and intended time. */
    static final Shape<BookUpdate> BOOK_UPDATE = new Shape<>(BookUpdate.class, BookUpdate::new,
            BookUpdate::fillFor, m -> m.sequence, m -> m.sendTimeNanos, BookUpdate::isConsistentFor);

    /** The 144-byte reference {@link MarketData}: {@code securityId} carries the sequence, {@code time} the intended time. */
    static final Shape<MarketData> MARKET_DATA = new Shape<>(MarketData.class, MarketData::new,
            MarketData::fillFor, m -> m.securityId, m -> m.time, MarketData::isConsistentFor);

    private CopyableEndpoints() {
    }

    /** What the harness needs of a trivially copyable message class. */
    record Shape<T>(Class<T> type, Supplier<T> factory, Filler<T> filler, Field<T> sequence, Field<T> intendedNanos,
                    Checker<T> checker) {
    }

    @FunctionalInterface
    interface Filler<T> {
        T fill(T message, long sequence, long intendedNanos);
    }

    @FunctionalInterface
    interface Field<T> {
        long of(T message);
    }

    @FunctionalInterface
    interface Checker<T> {
        boolean consistentFor(T message, long sequence);
    }

    static final class Sender<T> implements MessageSender {
        private final Shape<T> shape;
        private final BlitQueue<T> queue;
        private final Appender<T> appender;
        private final T message;

        Sender(Shape<T> shape, Path dir, QueueOptions options) {
            this.shape = shape;
            this.message = shape.factory().get();
            this.queue = BlitQueue.open(dir, shape.type(), options);
            this.appender = queue.appender();
        }

        @Override
        public void send(long sequence, long intendedNanos) {
            appender.append(shape.filler().fill(message, sequence, intendedNanos));
        }

        @Override
        public void pretouch(long bytes) {
            appender.pretouch(bytes);
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

    static final class Receiver<T> implements MessageReceiver {
        private final Shape<T> shape;
        private final BlitQueue<T> queue;
        private final Tailer<T> tailer;
        private final T message;

        Receiver(Shape<T> shape, Path dir, QueueOptions options) {
            this.shape = shape;
            this.message = shape.factory().get();
            this.queue = BlitQueue.open(dir, shape.type(), options);
            this.tailer = queue.tailer();
        }

        @Override
        public boolean poll() {
            return tailer.readNext(message);
        }

        @Override
        public void pretouch(long bytes) {
            tailer.pretouch(bytes);
        }

        @Override
        public long sequence() {
            return shape.sequence().of(message);
        }

        @Override
        public long intendedNanos() {
            return shape.intendedNanos().of(message);
        }

        @Override
        public void verify(long sequence) {
            if (!shape.checker().consistentFor(message, sequence)) {
                throw new IllegalStateException(shape.type().getSimpleName() + " message " + sequence
                        + " arrived with wrong content (sequence field " + sequence() + ")");
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
