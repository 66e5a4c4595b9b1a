package io.blit.tools.latency;

import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.replication.Replica;
import io.blit.replication.ReplicaOptions;
import io.blit.replication.ReplicationSource;
import io.blit.replication.SourceOptions;
import io.blit.tools.messages.BookUpdate;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * {@link MessageKind#REPLICATED}: BookUpdate appended to a source queue ({@code <dir>/source}) that a
 * {@link ReplicationSource} in the sender serves over UDP on the loopback to a {@link Replica} in the receiver
 * ({@code <dir>/replica}), where a tailer reads it: the latency from the intended send time to the read on the
 * replica, through Aeron and the replica's commit. The receiver, created first, picks the ports and secret
 * ({@link ReplicationRendezvous}) and starts following; the replica's first file arrives once the sender's source
 * runs, so the receiver opens its tailer then.
 */
final class ReplicatedEndpoints {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private ReplicatedEndpoints() {
    }

    static final class Sender implements MessageSender {
        private final CopyableEndpoints.Sender<BookUpdate> appender;
        private final ReplicationSource source;
        private long sent;

        Sender(Path dir, QueueOptions options) {
            ReplicationRendezvous rendezvous = ReplicationRendezvous.read(dir);
            this.appender = new CopyableEndpoints.Sender<>(CopyableEndpoints.BOOK_UPDATE, dir.resolve("source"), options);
            this.source = ReplicationSource.start(dir.resolve("source"),
                    SourceOptions.of(rendezvous.control(), rendezvous.secret()));
            awaitReplicated(-1, "subscribe"); // the handshake is not part of any message's latency
        }

        @Override
        public void send(long sequence, long intendedNanos) {
            appender.send(sequence, intendedNanos);
            sent++;
        }

        /** Waits until the replica holds index {@code index} (-1: until it is served). */
        private void awaitReplicated(long index, String what) {
            try {
                source.awaitReplicated(index, 1, TIMEOUT);
            } catch (TimeoutException e) {
                throw new IllegalStateException("the replica did not " + what + " within " + TIMEOUT + ": "
                        + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the replica", e);
            }
        }

        @Override
        public void pretouch(long bytes) {
            appender.pretouch(bytes);
        }

        /** Closes after the replica holds every message sent: the source must serve until then. */
        @Override
        public void close() {
            try {
                if (sent > 0) {
                    awaitReplicated(sent - 1, "receive every message");
                }
            } finally {
                try {
                    source.close();
                } finally {
                    appender.close();
                }
            }
        }
    }

    static final class Receiver implements MessageReceiver {
        private final Path replicaDir;
        private final QueueOptions options;
        private final Replica replica;
        private CopyableEndpoints.Receiver<BookUpdate> tailer;

        Receiver(Path dir, QueueOptions options) {
            ReplicationRendezvous rendezvous = ReplicationRendezvous.create(dir);
            this.replicaDir = dir.resolve("replica");
            this.options = options;
            this.replica = Replica.start(replicaDir,
                    ReplicaOptions.of(rendezvous.control(), rendezvous.endpoint(), rendezvous.secret()));
        }

        @Override
        public boolean poll() {
            if (tailer == null) {
                if (replica.nextIndex() < 0) {
                    return false;
                }
                tailer = new CopyableEndpoints.Receiver<>(CopyableEndpoints.BOOK_UPDATE, replicaDir, options);
            }
            return tailer.poll();
        }

        /** Nothing to touch yet: the replica's file arrives when the sender's source runs. */
        @Override
        public void pretouch(long bytes) {
        }

        @Override
        public long sequence() {
            return tailer.sequence();
        }

        @Override
        public long intendedNanos() {
            return tailer.intendedNanos();
        }

        @Override
        public void verify(long sequence) {
            tailer.verify(sequence);
        }

        @Override
        public void close() {
            try {
                if (tailer != null) {
                    tailer.close();
                }
            } finally {
                replica.close();
            }
        }
    }
}
