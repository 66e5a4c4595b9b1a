package io.blit.tools.latency;

import io.aeron.Aeron;
import io.aeron.AeronCounters;
import io.aeron.ExclusivePublication;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.blit.core.BlockCopier;
import io.blit.replication.DriverDirectories;
import io.blit.replication.IdleStrategies;
import io.blit.tools.messages.BookUpdate;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

/**
 * {@link MessageKind#AERON_FLOOR}: no queue, one Aeron message of a BookUpdate's size per message over UDP on the
 * loopback, each end with an embedded media driver as a replication source and replica have: what Aeron and the
 * machine cost by themselves, the floor of {@link MessageKind#REPLICATED}. The message carries the sequence and the
 * intended send time in its first 16 bytes. The receiver, created first, picks the port ({@link ReplicationRendezvous}).
 */
final class AeronFloorEndpoints {
    private static final int STREAM = 1001;
    private static final long CONNECT_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);
    /** How long a closing sender waits for its driver to send what it has offered. */
    private static final long DRAIN_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);
    /** How long a closing sender keeps its driver after everything is sent, to answer a receiver's NAKs. */
    private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private AeronFloorEndpoints() {
    }

    static int payloadBytes() {
        return (int) BlockCopier.of(BookUpdate.class).byteSize();
    }

    /**
     * An embedded driver as a replication peer has one: one shared thread, idle as blit.replication.idle says. Its
     * directory ({@code floor-<role>-<pid>-<time>}) is in the private directory of replication's embedded drivers
     * ({@link DriverDirectories}), so that what a killed harness child leaves in /dev/shm is deleted by the next
     * embedded driver to start (docs/replication.md, "Configuration").
     */
    private static MediaDriver driver(String role) {
        Path dir = DriverDirectories.prepare("floor-" + role + "-" + ProcessHandle.current().pid() + "-"
                + Long.toHexString(System.nanoTime()));
        MediaDriver driver = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(dir.toString())
                .threadingMode(ThreadingMode.SHARED).sharedIdleStrategy(IdleStrategies.create())
                .dirDeleteOnStart(true).dirDeleteOnShutdown(true));
        try {
            DriverDirectories.restrictToOwner(dir);
            return driver;
        } catch (RuntimeException e) {
            driver.close();
            throw e;
        }
    }

    static final class Sender implements MessageSender {
        private final MediaDriver driver = driver("sender");
        private final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        private final ExclusivePublication publication;
        private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[payloadBytes()]);

        Sender(Path dir) {
            publication = aeron.addExclusivePublication("aeron:udp?endpoint="
                    + ReplicationRendezvous.read(dir).control(), STREAM);
            long deadline = System.nanoTime() + CONNECT_TIMEOUT_NANOS;
            while (!publication.isConnected()) {
                if (System.nanoTime() > deadline) {
                    close();
                    throw new IllegalStateException("the Aeron floor's receiver did not connect within 30 s");
                }
                LockSupport.parkNanos(1_000_000);
            }
        }

        @Override
        public void send(long sequence, long intendedNanos) {
            buffer.putLong(0, sequence, ByteOrder.LITTLE_ENDIAN);
            buffer.putLong(8, intendedNanos, ByteOrder.LITTLE_ENDIAN);
            while (publication.offer(buffer, 0, buffer.capacity()) < 0) {
                Thread.onSpinWait(); // back-pressured: wait, as a replication source does
            }
        }

        @Override
        public void pretouch(long bytes) {
        }

        /**
         * Closes once its driver has sent everything offered (its sender position counter reached the publication's
         * position) and lingered for retransmissions: the embedded driver stops sending the moment it closes, and a
         * receiver that lags holds its window back, so closing at once loses what is not sent yet (the consumer then
         * waits for messages that never come).
         */
        @Override
        public void close() {
            long deadline = System.nanoTime() + DRAIN_TIMEOUT_NANOS;
            long offered = publication.position();
            while (publication.isConnected() && senderPosition() < offered && System.nanoTime() < deadline) {
                LockSupport.parkNanos(1_000_000);
            }
            LockSupport.parkNanos(LINGER_NANOS);
            CloseHelper.closeAll(publication, aeron, driver);
        }

        /** The driver's sender position of this publication (bytes sent), or {@code Long.MAX_VALUE} if not found. */
        private long senderPosition() {
            CountersReader counters = aeron.countersReader();
            long[] position = {Long.MAX_VALUE};
            counters.forEach((counterId, typeId, key, label) -> {
                if (typeId == AeronCounters.DRIVER_SENDER_POSITION_TYPE_ID
                        && key.getLong(0) == publication.registrationId()) {
                    position[0] = counters.getCounterValue(counterId);
                }
            });
            return position[0];
        }
    }

    static final class Receiver implements MessageReceiver {
        private final MediaDriver driver = driver("receiver");
        private final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        private final Subscription subscription;
        private final FragmentHandler onMessage = this::onMessage;
        private long sequence;
        private long intendedNanos;
        private int length;

        Receiver(Path dir) {
            subscription = aeron.addSubscription("aeron:udp?endpoint=" + ReplicationRendezvous.create(dir).control(),
                    STREAM);
        }

        @Override
        public boolean poll() {
            return subscription.poll(onMessage, 1) > 0;
        }

        private void onMessage(DirectBuffer buffer, int offset, int size, Header header) {
            sequence = buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN);
            intendedNanos = buffer.getLong(offset + 8, ByteOrder.LITTLE_ENDIAN);
            length = size;
        }

        @Override
        public void pretouch(long bytes) {
        }

        @Override
        public long sequence() {
            return sequence;
        }

        @Override
        public long intendedNanos() {
            return intendedNanos;
        }

        @Override
        public void verify(long expected) {
            if (sequence != expected || length != payloadBytes()) {
                throw new IllegalStateException("Aeron floor message " + expected + " arrived as " + sequence
                        + " with " + length + " bytes");
            }
        }

        @Override
        public void close() {
            CloseHelper.closeAll(subscription, aeron, driver);
        }
    }
}
