package io.blit.queue;

import java.nio.file.Path;

/**
 * A child JVM's appender for {@link CrossProcessQueueTest}: {@code ChildAppender <dir> <segment size>
 * <base> <count>} appends MarketData {@code fillFor(base + i)} for i in [0, count) and prints "done".
 */
public final class ChildAppender {
    private ChildAppender() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        QueueOptions options = QueueOptions.defaults().segmentSize(Long.parseLong(args[1]));
        long base = Long.parseLong(args[2]);
        int count = Integer.parseInt(args[3]);
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, options);
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData();
            for (int i = 0; i < count; i++) {
                appender.append(md.fillFor(base + i, ProcessHandle.current().pid()));
            }
        }
        System.out.println("done");
    }
}
