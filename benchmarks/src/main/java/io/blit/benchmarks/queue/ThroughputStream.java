package io.blit.benchmarks.queue;

import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.MessageHandler;
import io.blit.queue.MessageTypes;
import io.blit.queue.Tailer;
import io.blit.tools.messages.BookUpdate;
import io.blit.tools.messages.MarketData;
import java.nio.file.Path;

/**
 * What {@link QueueThroughput} appends and reads: {@link #SINGLE}, a queue of MarketData (160-byte records: header word, time, 144-byte block); or
 * {@link #MIXED}, the stream of {@code produce --type mixed} in one typed queue (MarketData type 1, BookUpdate type 2:
 * message n a BookUpdate when n % 3 == 2; 160- and 208-byte records), read by type with
 * {@link Tailer#read(MessageHandler)}; or {@link #TYPED_MD}, only MarketData through the typed queue of MIXED (what the
 * types cost, without the larger records). Each message carries its number, which the reader checks.
 */
enum ThroughputStream {
    SINGLE, MIXED, TYPED_MD;

    private static final MessageTypes<Object> TYPES = MessageTypes.builder(Object.class)
            .add(1, MarketData.class).add(2, BookUpdate.class).build();

    /** One line for the harness's header. */
    String description() {
        return switch (this) {
            case SINGLE -> "MarketData in a queue of one class (" + BlitQueue.recordBytes(144) + "-byte records)";
            case MIXED -> "MarketData type 1 and, every third message, BookUpdate type 2 in one typed queue ("
                    + BlitQueue.recordBytes(144) + "- and " + BlitQueue.recordBytes(192) + "-byte records), read by type";
            case TYPED_MD -> "only MarketData, in the typed queue of MIXED, read by type (the types' cost alone)";
        };
    }

    /** Opens a new queue of this stream in {@code dir}. */
    BlitQueue<Object> open(Path dir, long segmentSize) {
        return open(dir, segmentSize, false);
    }

    /** As {@link #open(Path, long)}, with record checksums ({@link QueueOptions#recordChecksums()}) if asked. */
    BlitQueue<Object> open(Path dir, long segmentSize, boolean checksums) {
        QueueOptions options = QueueOptions.defaults().segmentSize(segmentSize).recordChecksums(checksums);
        if (this == SINGLE) {
            @SuppressWarnings({"unchecked", "rawtypes"})
            BlitQueue<Object> queue = (BlitQueue) BlitQueue.open(dir, MarketData.class, options);
            return queue;
        }
        return BlitQueue.open(dir, TYPES, options);
    }

    /** The appender side: one reused instance per type, numbered. Not thread-safe. */
    Source source() {
        return new Source(this == MIXED);
    }

    /** The reader side of {@code tailer}. Not thread-safe. */
    Sink sink(Tailer<Object> tailer) {
        return new Sink(tailer, this != SINGLE);
    }

    /** Gives message n. */
    static final class Source {
        private final boolean mixed;
        private final MarketData md = new MarketData().fillFor(0, 0);
        private final BookUpdate book = new BookUpdate().fillFor(0, 0);

        private Source(boolean mixed) {
            this.mixed = mixed;
        }

        Object message(long n) {
            if (mixed && n % 3 == 2) {
                book.sequence = n;
                book.sendTimeNanos = n;
                return book;
            }
            md.securityId = n;
            md.time = n;
            return md;
        }
    }

    /** Reads the next message and gives its number. */
    static final class Sink implements MessageHandler<Object> {
        private final Tailer<Object> tailer;
        private final boolean mixed;
        private final MarketData into = new MarketData();
        private long number;

        private Sink(Tailer<Object> tailer, boolean mixed) {
            this.tailer = tailer;
            this.mixed = mixed;
        }

        /** The number of the next message, or -1 if none is committed yet. */
        long next() {
            if (!mixed) {
                return tailer.readNext(into) ? into.securityId : -1;
            }
            return tailer.read(this) ? number : -1;
        }

        @Override
        public void onMessage(long index, Object message) {
            number = message instanceof MarketData md ? md.securityId : ((BookUpdate) message).sequence;
        }

        Tailer<Object> tailer() {
            return tailer;
        }
    }
}
