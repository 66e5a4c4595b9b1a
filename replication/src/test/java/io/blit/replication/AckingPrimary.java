package io.blit.replication;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A primary in a process of its own, for the failover tests: serves its queue on a control endpoint and appends
 * ticks (tick n at index n) in batches of {@link #BATCH}, each followed by {@code awaitReplicated} of its last index by
 * one replica, then a line {@code acked <index>}. It runs until it is killed. Arguments: queue directory, control
 * endpoint.
 */
public final class AckingPrimary {
    static final int BATCH = 50;

    private AckingPrimary() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        try (BlitQueue<Tick> queue = BlitQueue.open(dir, Tick.class, ReplicationTest.SMALL);
             ReplicationSource source = ReplicationSource.start(dir, ReplicationTest.options(args[1]))) {
            Appender<Tick> appender = queue.appender();
            System.out.println("started");
            System.out.flush();
            Tick tick = new Tick();
            for (long next = 0; ; next += BATCH) {
                for (long n = next; n < next + BATCH; n++) {
                    appender.append(tick.fillFor(n));
                }
                source.awaitReplicated(next + BATCH - 1, 1, Duration.ofMinutes(10)); // a producer awaiting its acks
                System.out.println("acked " + (next + BATCH - 1));
                System.out.flush();
            }
        }
    }
}
