package io.blit.queue;

import java.nio.file.Path;

/**
 * A child JVM's producer for {@link KillDashNineTest}: {@code KilledProducer <dir> <segment size> <next index>}
 * appends MarketData {@code fillFor(n)} for n = next index, next index + 1, ... until it is killed. It prints
 * "started" once its first message is committed, and "MISMATCH expected e got g" (exit 3) if the queue gives a
 * message another index than the one written into it.
 */
public final class KilledProducer {
    private KilledProducer() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        QueueOptions options = QueueOptions.defaults().segmentSize(Long.parseLong(args[1]));
        long next = Long.parseLong(args[2]);
        long pid = ProcessHandle.current().pid();
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, options);
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData();
            for (long n = next; ; n++) {
                long index = appender.append(md.fillFor(n, pid));
                if (index != n) {
                    System.out.println("MISMATCH expected " + n + " got " + index);
                    System.out.flush();
                    System.exit(3);
                }
                if (n == next) {
                    System.out.println("started");
                    System.out.flush();
                }
            }
        }
    }
}
