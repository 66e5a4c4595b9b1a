package io.blit.queue.latency;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.Tailer;
import java.nio.file.Path;

/** {@link MessageKind#TC}: trivially copyable {@link BookUpdate}s, one Blit block copy per append and per read. */
final class BookUpdateEndpoints {
    private BookUpdateEndpoints() {
    }

    static final class Sender implements MessageSender {
        private final BlitQueue<BookUpdate> queue;
        private final Appender<BookUpdate> appender;
        private final BookUpdate message = new BookUpdate();

        Sender(Path dir, BlitQueue.Options options) {
            queue = BlitQueue.open(dir, BookUpdate.class, options);
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
        private final BlitQueue<BookUpdate> queue;
        private final Tailer<BookUpdate> tailer;
        private final BookUpdate message = new BookUpdate();

        Receiver(Path dir, BlitQueue.Options options) {
            queue = BlitQueue.open(dir, BookUpdate.class, options);
            tailer = queue.tailer();
        }

        @Override
        public boolean poll() {
            return tailer.readNext(message);
        }

        @Override
        public long sequence() {
            return message.sequence;
        }

        @Override
        public long intendedNanos() {
            return message.sendTimeNanos;
        }

        @Override
        public void verify(long sequence) {
            if (!message.isConsistentFor(sequence)) {
                throw new IllegalStateException("message " + sequence + " arrived with wrong content: " + message);
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
