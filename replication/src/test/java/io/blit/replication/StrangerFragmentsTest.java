package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.ExclusivePublication;
import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.protocol.DataHeaderFlyweight;
import io.aeron.protocol.HeaderFlyweight;
import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.replication.wire.Wire;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Strangers with a stock Aeron client and no secret send fragmented messages as large as Aeron allows (16 MiB, each
 * from a fresh publication, so a fresh Aeron session) and one message that never ends (a first fragment, then
 * middle fragments only) to a source's control endpoint and to a replica's data endpoint, while the replica follows:
 * 2 GiB to the source (32 messages of 16 MiB and 1.5 GiB of one endless message) and 704 MiB to the replica.
 * Neither side assembles them: the heap after a full GC stays within {@link #HEAP_BOUND} of what it was, and the
 * replica follows on.
 */
class StrangerFragmentsTest {
    private static final int CONTROL_STREAM = 1000;
    private static final int DATA_STREAM = 1001;
    private static final int MESSAGES = 32; // to each endpoint
    private static final int MESSAGE = 16 << 20; // Aeron's largest, at a term of 128 MiB
    /** What the source is offered in all: 2 GiB. */
    private static final long TO_SOURCE = 2L << 30;
    private static final long ENDLESS_TO_REPLICA = 192 << 20;
    private static final int FRAME = 65_504; // the largest frame a loopback datagram holds
    /** What assembling strangers' fragments may leave on the heap: the source's bounded slots, with room for noise. */
    private static final long HEAP_BOUND = 48 << 20;

    @TempDir
    Path source;
    @TempDir
    Path replica;
    @TempDir
    Path drivers;

    @Test
    void largeAndEndlessFragmentedMessagesFromStrangersAreNotAssembled() throws Exception {
        String control = Ports.loopback();
        String endpoint = Ports.loopback();
        try (BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, ReplicationTest.SMALL);
             Attacker attacker = new Attacker(drivers.resolve("attacker").toString());
             ReplicationSource server = ReplicationSource.start(source, ReplicationTest.options(control));
             Replica follower = Replica.start(replica, ReplicaOptions.of(control, endpoint, ReplicationTest.SECRET))) {
            Appender<Tick> appender = queue.appender();
            HandshakeLivenessTest.append(appender, 0, 1_000);
            follower.awaitIndex(1_000, Duration.ofSeconds(30));
            long before = heapAfterGc();
            byte[] large = new byte[MESSAGE];
            for (int i = 0; i < MESSAGES; i++) {
                sendFresh(attacker, control, CONTROL_STREAM, large, () -> server.dropped(DropReason.MALFORMED));
                sendFresh(attacker, endpoint, DATA_STREAM, large, () -> follower.dropped(DropReason.FOREIGN));
            }
            large = null;
            long endlessToSource = TO_SOURCE - (long) MESSAGES * MESSAGE;
            long sentToSource = (long) MESSAGES * MESSAGE
                    + sendEndless(attacker, control, CONTROL_STREAM, endlessToSource, () -> server.dropped(DropReason.MALFORMED));
            sendEndless(attacker, endpoint, DATA_STREAM, ENDLESS_TO_REPLICA, () -> follower.dropped(DropReason.FOREIGN));
            assertTrue(sentToSource >= TO_SOURCE, "the source was offered " + (sentToSource >> 20) + " MiB");
            long grown = heapAfterGc() - before;
            assertTrue(grown < HEAP_BOUND, "the heap grew by " + (grown >> 20) + " MiB after " + (sentToSource >> 20)
                    + " MiB of fragmented messages to the source and " + ((MESSAGES * (long) MESSAGE
                    + ENDLESS_TO_REPLICA) >> 20) + " MiB to the replica from strangers");
            HandshakeLivenessTest.append(appender, 1_000, 2_000);
            follower.awaitIndex(2_000, Duration.ofSeconds(30));
            server.awaitReplicated(1_999, 1, Duration.ofSeconds(10));
            assertTrue(follower.running());
            assertNull(follower.failure());
            appender.close();
        }
        ReplicationTest.assertSameFiles(source, replica);
    }

    /** One message from a publication of its own, closed once the receiver has counted the message as dropped. */
    private static void sendFresh(Attacker attacker, String endpoint, int stream, byte[] message, LongSupplier drops)
            throws InterruptedException {
        long dropped = drops.getAsLong();
        try (ExclusivePublication publication = attacker.publish(endpoint, stream,
                "|term-length=128m|sparse=true|mtu=" + FRAME)) {
            Attacker.offer(publication, message);
            HandshakeLivenessTest.waitFor(() -> drops.getAsLong() > dropped, 20);
        }
    }

    /**
     * A first fragment, then middle fragments only, written as blocks of frames ({@code offerBlock}, a stock client's
     * call) until {@code bytes} of payload went out; then a small whole message on the same publication, which the
     * receiver counts as dropped only after it took every fragment before it. Returns the payload bytes offered.
     */
    private static long sendEndless(Attacker attacker, String endpoint, int stream, long bytes, LongSupplier drops)
            throws InterruptedException {
        try (ExclusivePublication publication = attacker.publish(endpoint, stream,
                "|term-length=256m|sparse=true|mtu=" + FRAME)) {
            UnsafeBuffer frame = new UnsafeBuffer(new byte[FRAME]);
            long sent = 0;
            while (sent < bytes) {
                // a block never crosses the end of a term: the term's last frame takes the room left in it
                // (a full term's offset is its length: the next block opens the next term)
                boolean full = publication.termOffset() >= publication.termBufferLength();
                int termOffset = full ? 0 : publication.termOffset();
                int termId = full ? publication.termId() + 1 : publication.termId();
                int length = Math.min(FRAME, publication.termBufferLength() - termOffset);
                frame.putInt(HeaderFlyweight.FRAME_LENGTH_FIELD_OFFSET, length, Wire.ORDER);
                frame.putByte(HeaderFlyweight.VERSION_FIELD_OFFSET, (byte) 0);
                frame.putByte(HeaderFlyweight.FLAGS_FIELD_OFFSET, sent == 0 ? FrameDescriptor.BEGIN_FRAG_FLAG : 0);
                frame.putShort(HeaderFlyweight.TYPE_FIELD_OFFSET, (short) HeaderFlyweight.HDR_TYPE_DATA, Wire.ORDER);
                frame.putInt(8, termOffset, Wire.ORDER);
                frame.putInt(12, publication.sessionId(), Wire.ORDER);
                frame.putInt(16, publication.streamId(), Wire.ORDER);
                frame.putInt(20, termId, Wire.ORDER);
                frame.putLong(24, 0, Wire.ORDER);
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (publication.offerBlock(frame, 0, length) < 0) {
                    assertTrue(System.nanoTime() < deadline, "could not offer a block");
                    LockSupport.parkNanos(100_000);
                }
                sent += length - DataHeaderFlyweight.HEADER_LENGTH;
            }
            long dropped = drops.getAsLong();
            Attacker.offer(publication, new byte[100]);
            HandshakeLivenessTest.waitFor(() -> drops.getAsLong() > dropped, 60);
            return sent;
        }
    }

    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
