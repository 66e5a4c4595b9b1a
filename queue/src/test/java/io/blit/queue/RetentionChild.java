package io.blit.queue;

import java.nio.file.Path;

/**
 * A child JVM's appender for {@link RetentionConcurrencyTest}: {@code RetentionChild <dir> <segment size>
 * <first> <end> <files kept>} appends MarketData {@code fillFor(i)} for i in [first, end), checking each gets
 * index i, to a queue whose appenders keep only the newest files, and prints "done".
 */
public final class RetentionChild {
    private RetentionChild() {
    }

    public static void main(String[] args) {
        QueueOptions options = QueueOptions.defaults().segmentSize(Long.parseLong(args[1]))
                .retention(RetentionPolicy.keepNewestFiles(Integer.parseInt(args[4])));
        long first = Long.parseLong(args[2]);
        long end = Long.parseLong(args[3]);
        try (BlitQueue<MarketData> queue = BlitQueue.open(Path.of(args[0]), MarketData.class, options);
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData();
            for (long i = first; i < end; i++) {
                if (appender.append(md.fillFor(i, 0)) != i) {
                    throw new AssertionError("message " + i + " got another index");
                }
            }
        }
        System.out.println("done");
    }
}
