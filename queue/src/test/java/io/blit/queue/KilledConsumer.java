package io.blit.queue;

import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * A child JVM for {@link NamedConsumerKillTest}: {@code KilledConsumer <dir> <log> <commit every>} reads the queue as
 * named consumer "crash" until it is killed, delivering each record by type ({@link NamedTailer#read(MessageHandler)}). It prints "started <first index>" once it holds the name. For each message
 * it appends a line "<index>" to the log (one unbuffered write each: in the page cache before the next step, so a
 * SIGKILL cannot lose it), and after every {@code commit every}-th message it commits, then appends "c <index>". A
 * message whose type or content is not its index's ends it with "MISMATCH" (exit 3).
 */
public final class KilledConsumer {
    private KilledConsumer() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int commitEvery = Integer.parseInt(args[2]);
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO, NamedConsumerKillTest.OPTIONS);
             NamedTailer<Object> tailer = queue.tailer("crash");
             FileOutputStream log = new FileOutputStream(args[1], true)) {
            System.out.println("started " + tailer.index());
            System.out.flush();
            MessageHandler<Object> check = (index, message) -> {
                if (!TypedQueueTest.isMessage(message, index)) {
                    System.out.println("MISMATCH at " + index + ": a " + message.getClass().getSimpleName());
                    System.out.flush();
                    System.exit(3);
                }
            };
            for (long read = 0; ; ) {
                if (!tailer.read(check)) {
                    LockSupport.parkNanos(100_000);
                    continue;
                }
                long index = tailer.lastReadIndex();
                log.write((index + "\n").getBytes(StandardCharsets.US_ASCII));
                if (++read % commitEvery == 0) {
                    tailer.commit();
                    log.write(("c " + index + "\n").getBytes(StandardCharsets.US_ASCII));
                }
            }
        }
    }
}
