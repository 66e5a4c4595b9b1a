package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.driver.ext.DebugReceiveChannelEndpoint;
import io.aeron.driver.ext.LossGenerator;
import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Packet loss and a network drop between source and replica: the replica runs on an external media driver (the
 * {@code aeron.dir} configuration) whose receive endpoint is Aeron's loss-generating {@link DebugReceiveChannelEndpoint}.
 * Aeron repairs the loss (NAK and retransmission); during the drop the replica hears nothing, times out and
 * resubscribes until the network is back. Afterwards the replica's files equal the source's byte for byte.
 */
class ReplicationFaultTest {
    static final QueueOptions SMALL = QueueOptions.defaults().segmentSize(1 << 20);

    @TempDir
    Path source;
    @TempDir
    Path replica;

    @Test
    void lossIsRepairedAndADropOfSecondsResumesWithoutAGapOrADuplicate() throws Exception {
        AtomicBoolean cut = new AtomicBoolean();
        LossGenerator loss = new LossGenerator() {
            private final SplittableRandom random = new SplittableRandom(15);

            @Override
            public boolean shouldDropFrame(InetSocketAddress address, UnsafeBuffer buffer, int length) {
                return cut.get() || random.nextDouble() < 0.05;
            }
        };
        MediaDriver.Context lossy = new MediaDriver.Context()
                .aeronDirectoryName(replica.resolveSibling(replica.getFileName() + "-aeron").toString())
                .threadingMode(ThreadingMode.SHARED)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true)
                .receiveChannelEndpointSupplier((channel, dispatcher, status, context) ->
                        new DebugReceiveChannelEndpoint(channel, dispatcher, status, context, loss, loss));
        String control = Ports.loopback();
        try (MediaDriver driver = MediaDriver.launch(lossy);
             BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, SMALL);
             ReplicationSource server = ReplicationSource.start(source, ReplicationTest.options(control));
             Replica follower = Replica.start(replica, ReplicaOptions.of(control, Ports.loopback(), ReplicationTest.SECRET)
                     .aeronDir(driver.aeronDirectoryName()).sourceTimeout(Duration.ofMillis(500)))) {
            Appender<Tick> appender = queue.appender();
            Tick tick = new Tick();
            append(appender, tick, 0, 100_000);
            follower.awaitIndex(100_000, Duration.ofSeconds(60));
            long resubscribed = follower.resubscriptions();
            cut.set(true);
            append(appender, tick, 100_000, 150_000);
            // the replica hears nothing for longer than its source timeout (500 ms): it resubscribes
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (follower.resubscriptions() < resubscribed + 1 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(follower.resubscriptions() >= resubscribed + 1,
                    "resubscriptions while cut off: " + (follower.resubscriptions() - resubscribed));
            cut.set(false);
            append(appender, tick, 150_000, 200_000);
            follower.awaitIndex(200_000, Duration.ofSeconds(60));
            server.awaitReplicated(199_999, 1, Duration.ofSeconds(10));
            assertEquals(200_000, follower.nextIndex());
            appender.close();
        }
        ReplicationTest.assertSameFiles(source, replica);
    }

    private static void append(Appender<Tick> appender, Tick tick, long from, long to) {
        for (long n = from; n < to; n++) {
            assertEquals(n, appender.append(tick.fillFor(n)));
        }
    }
}
