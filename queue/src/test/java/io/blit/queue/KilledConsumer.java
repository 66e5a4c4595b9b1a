package io.blit.queue;

import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM for {@link NamedConsumerKillTest}: {@code KilledConsumer <dir> <log> <commit every>} reads the queue as
 * named consumer "crash" until it is killed. It prints "started <first index>" once it holds the name. For each message
 * it appends a line "<index>" to the log (one unbuffered write each: in the page cache before the next step, so a
 * SIGKILL cannot lose it), and after every {@code commit every}-th message it commits, then appends "c <index>". A
 * message whose content is not its index's ends it with "MISMATCH" (exit 3).
 */
public final class KilledConsumer {
    private KilledConsumer() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int commitEvery = Integer.parseInt(args[2]);
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, NamedConsumerKillTest.OPTIONS);
             NamedTailer<MarketData> tailer = queue.tailer("crash");
             FileOutputStream log = new FileOutputStream(args[1], true)) {
            System.out.println("started " + tailer.index());
            System.out.flush();
            MarketData md = new MarketData();
            for (long read = 0; ; ) {
                if (!tailer.next(md, WaitStrategy.PARK, TimeUnit.SECONDS.toNanos(1))) {
                    continue;
                }
                long index = tailer.lastReadIndex();
                if (!md.isConsistentFor(index)) {
                    System.out.println("MISMATCH at " + index + ": " + md.securityId);
                    System.out.flush();
                    System.exit(3);
                }
                log.write((index + "\n").getBytes(StandardCharsets.US_ASCII));
                if (++read % commitEvery == 0) {
                    tailer.commit();
                    log.write(("c " + index + "\n").getBytes(StandardCharsets.US_ASCII));
                }
            }
        }
    }
}
