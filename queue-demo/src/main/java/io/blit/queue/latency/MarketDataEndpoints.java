package io.blit.queue.latency;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.MarketData;
import io.blit.queue.Tailer;
import java.nio.file.Path;

/**
 * {@link MessageKind#MARKET_DATA}: the 144-byte reference {@link MarketData}, trivially copyable; {@code securityId}
 * carries the sequence and {@code time} the intended send time ({@link MarketData#fillFor}).
 */
final class MarketDataEndpoints {
    private MarketDataEndpoints() {
    }

    static final class Sender implements MessageSender {
        private final BlitQueue<MarketData> queue;
        private final Appender<MarketData> appender;
        private final MarketData message = new MarketData();

        Sender(Path dir, BlitQueue.Options options) {
            queue = BlitQueue.open(dir, MarketData.class, options);
            appender = queue.appender();
        }

        @Override
        public void send(long sequence, long intendedNanos) {
            appender.append(message.fillFor(sequence, intendedNanos));
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
        private final BlitQueue<MarketData> queue;
        private final Tailer<MarketData> tailer;
        private final MarketData message = new MarketData();

        Receiver(Path dir, BlitQueue.Options options) {
            queue = BlitQueue.open(dir, MarketData.class, options);
            tailer = queue.tailer();
        }

        @Override
        public boolean poll() {
            return tailer.readNext(message);
        }

        @Override
        public long sequence() {
            return message.securityId;
        }

        @Override
        public long intendedNanos() {
            return message.time;
        }

        @Override
        public void verify(long sequence) {
            if (!message.isConsistentFor(sequence)) {
                throw new IllegalStateException("MarketData message " + sequence + " arrived with wrong content "
                        + "(securityId " + message.securityId + ")");
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
