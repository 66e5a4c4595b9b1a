package io.blit.replication;

import io.aeron.FragmentAssembler;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.logbuffer.Header;
import io.blit.queue.BlitQueue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Serves one queue directory to any number of {@link Replica}s (docs/replication.md). A control thread receives
 * replicas' signed subscribe requests and acknowledgements on the control endpoint; each accepted replica gets a
 * session thread that streams the queue's records to it from the index it holds — catch-up from the files (the queue
 * is the archive), then live — each at its own pace. Appenders of the queue never wait for a replica.
 *
 * <p>Refusals (a request not signed with the secret, another queue, another layout, an index the source no longer
 * or not yet holds) are answered with a signed reason and logged with the peer's address
 * ({@link System.Logger} {@code io.blit.replication}).
 *
 * <p>Thread-safe: {@link #awaitReplicated} and {@link #replicas} may be called from any thread.
 */
public final class ReplicationSource implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.blit.replication");

    private final Path dir;
    private final SourceOptions options;
    private final AeronConnection connection;
    private final Subscription control;
    private final Hmac hmac;
    /** By the replica's data endpoint: a replica restarted on the same endpoint replaces its old session. */
    private final Map<String, SourceSession> sessions = new ConcurrentHashMap<>();
    private final BlitQueue<Void> queue;
    private final Thread controlThread;
    private final UnsafeBuffer replyBuffer = new UnsafeBuffer(new byte[64 << 10]);
    private volatile boolean running = true;

    private ReplicationSource(Path dir, SourceOptions options) {
        this.dir = dir;
        this.options = options;
        this.hmac = new Hmac(options.secret());
        requireQueue(dir);
        this.queue = BlitQueue.openRaw(dir);
        this.connection = AeronConnection.open(options.aeronDir(), dir, "source");
        this.control = connection.aeron().addSubscription(AeronConnection.udp(options.control()),
                AeronConnection.CONTROL_STREAM);
        this.controlThread = Thread.ofPlatform().name("blit-replication-source").daemon().unstarted(this::controlLoop);
    }

    /** Opening an empty directory raw would create a raw queue there, which its typed appenders would then refuse. */
    private static void requireQueue(Path dir) {
        try (var files = java.nio.file.Files.list(dir)) {
            if (files.noneMatch(file -> file.getFileName().toString().endsWith(".blitq"))) {
                throw new IllegalArgumentException("no queue in " + dir + ": open it (BlitQueue.open) before serving it");
            }
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("no queue directory " + dir + " (" + e + ")");
        }
    }

    /**
     * Starts serving the queue in {@code dir}, which must hold a queue, on {@code options.control()}.
     *
     * @throws IllegalArgumentException if {@code dir} holds no queue, or the secret is shorter than 16 bytes
     * @throws io.blit.queue.QueueCorruptedException if a file of the queue is invalid
     */
    public static ReplicationSource start(Path dir, SourceOptions options) {
        ReplicationSource source = new ReplicationSource(Objects.requireNonNull(dir, "dir"),
                Objects.requireNonNull(options, "options"));
        source.controlThread.start();
        LOG.log(System.Logger.Level.INFO, "serving queue " + dir + " on " + options.control());
        return source;
    }

    /**
     * Waits until {@code replicas} replicas acknowledged {@code index} (committed, or forced to disk for replicas in
     * sync mode): what a gateway calls before it answers its client.
     *
     * @throws TimeoutException naming each replica, its acknowledged index and how far behind it is
     * @throws InterruptedException if interrupted while waiting
     */
    public void awaitReplicated(long index, int replicas, Duration timeout) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int spins = 0;
        while (acknowledged(index) < replicas) {
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("index " + index + " reached " + acknowledged(index) + " of " + replicas
                        + " replicas within " + timeout + ": " + describeBehind(index));
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            if (++spins < 1_000) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(20_000);
            }
        }
    }

    private int acknowledged(long index) {
        int count = 0;
        for (SourceSession session : sessions.values()) {
            long held = session.request.sync() ? session.forced : session.committed;
            if (session.running() && held > index) {
                count++;
            }
        }
        return count;
    }

    private String describeBehind(long index) {
        if (sessions.isEmpty()) {
            return "no replica is connected";
        }
        List<String> lines = new ArrayList<>();
        for (SourceSession session : sessions.values()) {
            long held = session.request.sync() ? session.forced : session.committed;
            lines.add("replica " + session.peer + " holds up to " + (held - 1)
                    + (held > index ? "" : ", " + (index + 1 - held) + " behind")
                    + (session.running() ? "" : " (disconnected)"));
        }
        return String.join("; ", lines);
    }

    /** The replicas served now, with what each acknowledged. */
    public List<ReplicaStatus> replicas() {
        List<ReplicaStatus> list = new ArrayList<>();
        for (SourceSession session : sessions.values()) {
            list.add(new ReplicaStatus(session.peer, session.request.dataChannel(), session.committed, session.forced,
                    session.request.sync(), session.running()));
        }
        return list;
    }

    private void controlLoop() {
        FragmentAssembler assembler = new FragmentAssembler(this::onControl);
        IdleStrategy idle = IdleStrategies.create();
        while (running) {
            idle.idle(control.poll(assembler, 64)); // ended sessions stay listed (not serving) until replaced
        }
    }

    private void onControl(DirectBuffer buffer, int offset, int length, Header header) {
        if (length < 8) {
            return;
        }
        int type = buffer.getInt(offset, Wire.ORDER);
        if (type == Wire.ACK && length >= Wire.ACK_LENGTH) {
            long replicaId = buffer.getLong(offset + Wire.ACK_REPLICA, Wire.ORDER);
            for (SourceSession session : sessions.values()) {
                if (session.request.replicaId() == replicaId && session.controlSession == header.sessionId()) {
                    session.acknowledge(buffer.getLong(offset + Wire.ACK_COMMITTED, Wire.ORDER),
                            buffer.getLong(offset + Wire.ACK_FORCED, Wire.ORDER));
                }
            }
        } else if (type == Wire.SUBSCRIBE) {
            subscribe(buffer, offset, length, header);
        }
    }

    private void subscribe(DirectBuffer buffer, int offset, int length, Header header) {
        String peer = peerOf(header);
        SubscribeRequest request;
        try {
            request = SubscribeRequest.decode(buffer, offset, length, hmac);
        } catch (RefusalException malformed) {
            LOG.log(System.Logger.Level.WARNING, "refused replica " + peer + ": " + malformed.getMessage());
            return;
        }
        SourceSession serving = sessions.get(request.dataChannel());
        if (serving != null && serving.running() && serving.request.replicaId() == request.replicaId()
                && java.util.Arrays.equals(serving.request.nonce(), request.nonce())) {
            return; // the same request again, sent before our accept arrived: its session is starting already
        }
        long start;
        try {
            if (!request.signed()) {
                throw new RefusalException("the subscribe request is not signed with this source's secret");
            }
            start = SourceHandshake.check(queue, request);
        } catch (RuntimeException refused) { // a RefusalException, or a file of the queue that cannot be read
            LOG.log(System.Logger.Level.WARNING, "refused replica " + peer + ": " + refused.getMessage());
            sendRefusal(request, refused.getMessage());
            return;
        }
        SourceSession previous = sessions.get(request.dataChannel());
        if (previous != null) {
            previous.stop();
        }
        SourceSession session = new SourceSession(dir, request, start, peer, header.sessionId(), connection.aeron(),
                options);
        sessions.put(request.dataChannel(), session);
        Thread.ofPlatform().name("blit-replication-session-" + peer).daemon().start(session);
    }

    /** Sends a refusal to the request's data channel from a short-lived thread (the control loop never blocks). */
    private void sendRefusal(SubscribeRequest request, String reason) {
        int length = Handshake.refuse(replyBuffer, request, reason, hmac);
        byte[] copy = new byte[length];
        replyBuffer.getBytes(0, copy);
        Thread.ofPlatform().name("blit-replication-refusal").daemon().start(() -> {
            try (var publication = connection.aeron().addExclusivePublication(
                    AeronConnection.udp(request.dataChannel()), AeronConnection.DATA_STREAM)) {
                long deadline = System.nanoTime() + options.replicaTimeout().toNanos();
                UnsafeBuffer message = new UnsafeBuffer(copy);
                while (publication.offer(message, 0, copy.length) < 0 && System.nanoTime() < deadline) {
                    LockSupport.parkNanos(1_000_000);
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "could not send the refusal to " + request.dataChannel(), e);
            }
        });
    }

    private String peerOf(Header header) {
        Image image = control.imageBySessionId(header.sessionId());
        return image == null ? "unknown peer (session " + header.sessionId() + ")" : image.sourceIdentity();
    }

    /** The queue directory served. */
    public Path directory() {
        return dir;
    }

    /** Stops every session and the control thread, closes the Aeron client (and the embedded driver). */
    @Override
    public void close() {
        running = false;
        sessions.values().forEach(SourceSession::stop);
        try {
            controlThread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (sessions.values().stream().anyMatch(SourceSession::running) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000);
        }
        control.close();
        connection.close();
        queue.close();
    }
}
