package io.blit.replication;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.logbuffer.Header;
import io.blit.queue.BlitQueue;
import io.blit.queue.TermHistory;
import io.blit.queue.replica.QueueIdentity;
import io.blit.replication.wire.Ack;
import io.blit.replication.wire.Challenge;
import io.blit.replication.wire.Confirm;
import io.blit.replication.wire.HmacSha256;
import io.blit.replication.wire.Keys;
import io.blit.replication.wire.Session;
import io.blit.replication.wire.Subscribe;
import io.blit.replication.wire.Wire;
import java.security.SecureRandom;
import java.util.Iterator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Serves one queue directory to any number of {@link Replica}s (docs/replication.md). A control thread receives
 * replicas' requests, confirmations and acknowledgements on the control endpoint. A request signed with the secret
 * is answered with a challenge to the data endpoint it names; a replica that answers the challenge (proving it holds
 * the secret and chose the request's nonce) gets a session thread that streams the queue's records to it from the
 * index it holds — catch-up from the files (the queue is the archive), then live — each at its own pace, every
 * message sealed under the session's keys. Appenders of the queue never wait for a replica.
 *
 * <p>Nothing is spent on a message that is not signed or sealed with the secret's keys (or is malformed, replayed or
 * stale): it is counted ({@link #dropped}) and summed up in at most one log line per 10 s. Fragmented messages on the
 * control endpoint are assembled in 16 slots of 16 KiB, whoever sends them ({@link BoundedAssembler}). At most 16
 * handshakes are in progress (2 per data endpoint): a request beyond that takes the place of the oldest, and one
 * that goes unanswered expires after the replica timeout. Refusals of authenticated replicas (another queue, another layout, an index the source no longer
 * or not yet holds) are sealed and logged with the peer's address ({@link System.Logger} {@code io.blit.replication}).
 *
 * <p>Thread-safe: {@link #awaitReplicated}, {@link #replicas} and {@link #dropped} may be called from any thread.
 */
public final class ReplicationSource implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.blit.replication");
    /**
     * How long an embedded driver runs on after the sessions closed: three of Aeron's heartbeats, so that the end of
     * each session's stream reaches its replica (which then resubscribes at once) even if one heartbeat is lost.
     */
    private static final long END_OF_STREAM_DRAIN_NANOS = 3 * AeronConnection.END_OF_STREAM_HEARTBEAT_MILLIS * 1_000_000L;
    /** Handshakes in progress at once, and per data endpoint: what replayed requests can cost at most. */
    static final int MAX_PENDING = 16;
    static final int MAX_PENDING_PER_ENDPOINT = 2;
    /** Fragmented control messages assembled at once, each at most {@link Wire#MAX_CONTROL_MESSAGE}. */
    static final int ASSEMBLY_SLOTS = 16;

    private final Path dir;
    private final SourceOptions options;
    private final AeronConnection connection;
    private final Subscription control;
    private final BoundedAssembler assembler;
    /** Wall clock in ms since 1970 against which a request's time is checked (a test seam). */
    private final LongSupplier wallClock;
    private final HmacSha256 subscribeMac;
    private final HmacSha256 challengeMac;
    private final SecureRandom random = new SecureRandom();
    /** Handshakes challenged and not yet confirmed; the control thread's. */
    private final List<PendingHandshake> pending = new ArrayList<>();
    private final RecentNonces recentNonces = new RecentNonces(4096);
    private final DropLog drops = new DropLog("replication source");
    /** The control thread's copy of each message it takes, and its buffer for challenges. */
    private final UnsafeBuffer in = new UnsafeBuffer(new byte[Wire.MAX_CONTROL_MESSAGE]);
    private final UnsafeBuffer challengeBuffer = new UnsafeBuffer(new byte[Challenge.LENGTH]);
    /**
     * By replica id (a replica directory's identity): a replica restarted, on any endpoint, replaces its old session;
     * two ids are two replicas.
     */
    private final Map<Long, SourceSession> sessions = new ConcurrentHashMap<>();
    private final BlitQueue<Void> queue;
    /**
     * The id of the queue served, bound into every handshake (null while a served replica directory has taken none
     * from its own source: its requests wait, counted {@code OTHER_SOURCE}); and the names replicas know it by.
     */
    private java.util.UUID queueId;
    private final byte[][] names;
    private final Thread controlThread;
    private final SourceReporter reporter;
    private volatile boolean running = true;

    private ReplicationSource(Path dir, SourceOptions options, LongSupplier wallClock) {
        this.dir = dir;
        this.options = options;
        this.wallClock = wallClock;
        this.assembler = new BoundedAssembler(this::onControl, session -> true,
                (reason, header) -> drops.count(reason, peerOf(header)), ASSEMBLY_SLOTS, Wire.MAX_CONTROL_MESSAGE);
        this.subscribeMac = new HmacSha256(Keys.subscribeKey(options.secret()));
        this.challengeMac = new HmacSha256(Keys.challengeKey(options.secret()));
        requireQueue(dir);
        this.queueId = QueueIdentity.ofSource(dir);
        this.names = options.advertised().stream()
                .map(name -> name.getBytes(java.nio.charset.StandardCharsets.US_ASCII)).toArray(byte[][]::new);
        this.queue = BlitQueue.openRaw(dir);
        AeronConnection opened = null;
        try {
            opened = AeronConnection.open(options.aeronDir(), dir, "source");
            this.control = opened.aeron().addSubscription(AeronConnection.subscriptionChannel(options.control()),
                    AeronConnection.CONTROL_STREAM, image -> { }, assembler::onUnavailableImage);
            assembler.pollsFor(control);
        } catch (RuntimeException e) { // a refused driver directory, a driver timeout: nothing stays open
            if (opened != null) {
                opened.close();
            }
            queue.close();
            throw e;
        }
        this.connection = opened;
        this.controlThread = Thread.ofPlatform().name("blit-replication-source").daemon().unstarted(this::controlLoop);
        this.reporter = new SourceReporter(dir, options.control(), sessions.values(), queue, wallClock);
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
     * {@return a source serving the queue in {@code dir}, which must hold a queue, on {@code options.control()}}
     *
     * @param dir     the queue directory to serve
     * @param options the control endpoint, the secret and how to stream
     * @throws IllegalArgumentException if {@code dir} holds no queue
     * @throws IllegalStateException if the private directory of embedded drivers is unsafe (a link, another user's, or
     *                               writable by others)
     * @throws io.blit.queue.QueueCorruptedException if a file of the queue is invalid
     */
    public static ReplicationSource start(Path dir, SourceOptions options) {
        return start(dir, options, System::currentTimeMillis);
    }

    /** {@link #start(Path, SourceOptions)} with the wall clock requests' times are checked against (tests). */
    static ReplicationSource start(Path dir, SourceOptions options, LongSupplier wallClock) {
        ReplicationSource source = new ReplicationSource(Objects.requireNonNull(dir, "dir"),
                Objects.requireNonNull(options, "options"), wallClock);
        source.controlThread.start();
        source.reporter.start();
        LOG.log(System.Logger.Level.INFO, "serving queue " + dir + " on " + options.control());
        return source;
    }

    /**
     * Waits until {@code replicas} replicas acknowledged {@code index}: what a gateway calls before it answers its
     * client. What an acknowledgement means depends on the replica's mode. A replica that does not sync acknowledges
     * a record once it has written it into its mapped file: it is in that machine's page cache, so it survives the
     * replica's process being killed and the source's machine dying, not the replica's machine losing power. A replica
     * in sync mode ({@code follow --sync}) acknowledges a record only after it forced it to disk
     * ({@code MemorySegment.force()}): it survives that too. Only acknowledgements of the sessions running now count,
     * each from the session that earned it. After a failover to the replica that holds the most, every record
     * acknowledged by at least one replica is on it (docs/failover.md).
     *
     * @param index    the index that must be held (a replica holds it when it holds every index up to it)
     * @param replicas how many replicas must hold it, counting only those served now
     * @param timeout  how long to wait at most
     * @throws TimeoutException naming each replica, its acknowledged index and how far behind it is
     * @throws InterruptedException if interrupted while waiting
     */
    public void awaitReplicated(long index, int replicas, Duration timeout) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int spins = 0;
        while (Acknowledgements.count(sessions.values(), index) < replicas) {
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("index " + index + " reached " + Acknowledgements.count(sessions.values(), index)
                        + " of " + replicas + " replicas within " + timeout + ": "
                        + Acknowledgements.describeBehind(sessions.values(), index));
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

    /** {@return the replicas served now, with what each acknowledged, in a new list} */
    public List<ReplicaStatus> replicas() {
        List<ReplicaStatus> list = new ArrayList<>();
        for (SourceSession session : sessions.values()) {
            list.add(new ReplicaStatus(session.peer, session.endpoint, session.committed, session.forced,
                    session.request.sync(), session.running(), session.request.replicaId()));
        }
        return list;
    }

    private void controlLoop() {
        IdleStrategy idle = IdleStrategies.create();
        while (running) {
            int work = control.poll(assembler, 64); // ended sessions stay listed (not serving) until replaced
            long now = System.nanoTime();
            work += servicePending(now);
            drops.maybeLog(now);
            idle.idle(work);
        }
        pending.forEach(handshake -> handshake.publication.close());
        pending.clear();
    }

    /**
     * Takes one message from the control endpoint: its length is checked before anything is read, and it is copied
     * into the control thread's own buffer, so what is checked is what is used. Every drop is counted; nothing is
     * allocated or logged for a message that is not signed or sealed with the secret's keys.
     */
    private void onControl(DirectBuffer buffer, int offset, int length, Header header) {
        if (length < 2 * Integer.BYTES || length > Wire.MAX_CONTROL_MESSAGE) {
            drops.count(DropReason.MALFORMED, peerOf(header));
            return;
        }
        in.putBytes(0, buffer, offset, length);
        switch (in.getInt(0, Wire.ORDER)) {
            case Wire.SUBSCRIBE -> onSubscribe(length, header);
            case Wire.CONFIRM -> onConfirm(length, header);
            case Wire.ACK -> onAck(length, header);
            default -> drops.count(DropReason.MALFORMED, peerOf(header));
        }
    }

    private void onSubscribe(int length, Header header) {
        if (Subscribe.check(in, length) != null) {
            boolean otherVersion = length >= 8 && Subscribe.version(in) != Wire.VERSION;
            drops.count(otherVersion ? DropReason.OTHER_VERSION : DropReason.MALFORMED, peerOf(header));
            return;
        }
        if (!Subscribe.signed(in, length, subscribeMac)) {
            drops.count(DropReason.UNSIGNED, peerOf(header));
            return;
        }
        if (!Subscribe.fresh(in, wallClock.getAsLong())) {
            drops.count(DropReason.STALE, peerOf(header));
            return;
        }
        if (queueId == null) {
            queueId = QueueIdentity.ofReplica(dir); // a replica's id arrives with its first session
        }
        if (queueId == null || !Subscribe.meantFor(in, names)) {
            drops.count(DropReason.OTHER_SOURCE, peerOf(header));
            return;
        }
        if (isResent()) {
            return; // the same request again, sent before our challenge or accept arrived
        }
        Subscribe.Request request = Subscribe.decode(in, length);
        if (recentNonces.contains(request.replicaId(), request.nonce())) {
            drops.count(DropReason.REPLAYED, peerOf(header));
            return;
        }
        String endpoint;
        try {
            endpoint = Endpoint.canonical(request.endpoint());
        } catch (IllegalArgumentException e) {
            drops.count(DropReason.MALFORMED, peerOf(header));
            return;
        }
        makeRoomFor(endpoint);
        ExclusivePublication publication;
        try {
            publication = connection.aeron().addExclusivePublication(
                    Endpoint.udp(endpoint) + "|mtu=" + options.mtu(), AeronConnection.DATA_STREAM);
        } catch (RuntimeException e) { // e.g. a host name that does not resolve: not the request's form
            drops.count(DropReason.UNREACHABLE, peerOf(header));
            return;
        }
        recentNonces.add(request.replicaId(), request.nonce()); // only now: a request dropped above may come again
        byte[] sourceNonce = new byte[Wire.NONCE];
        random.nextBytes(sourceNonce);
        pending.add(new PendingHandshake(request, sourceNonce, publication, options.secret(), queueId, peerOf(header),
                System.nanoTime() + options.replicaTimeout().toNanos()));
    }

    /**
     * Drops the oldest pending handshake to the same data endpoint if it has its share of slots, and the oldest of all
     * if every slot is taken: a newer request of a replica is likelier to be answered than one its replica gave up on
     * (the replica asks with a fresh nonce after its source timeout), and no set of requests holds the slots for good.
     */
    private void makeRoomFor(String endpoint) {
        int sameEndpoint = 0;
        PendingHandshake oldestThere = null;
        for (PendingHandshake handshake : pending) {
            if (Endpoint.canonical(handshake.request.endpoint()).equals(endpoint)) {
                sameEndpoint++;
                oldestThere = oldestThere == null ? handshake : oldestThere;
            }
        }
        if (sameEndpoint >= MAX_PENDING_PER_ENDPOINT) {
            evict(oldestThere);
        } else if (pending.size() >= MAX_PENDING) {
            evict(pending.getFirst());
        }
    }

    private void evict(PendingHandshake handshake) {
        pending.remove(handshake);
        handshake.publication.close();
        drops.count(DropReason.OVER_LIMIT, handshake.peer);
    }

    /** Whether the checked, signed request in {@code in} is one being challenged or served already. */
    private boolean isResent() {
        long replicaId = Subscribe.replicaId(in);
        for (PendingHandshake handshake : pending) {
            if (handshake.request.replicaId() == replicaId && Subscribe.hasNonce(in, handshake.request.nonce())) {
                return true;
            }
        }
        for (SourceSession session : sessions.values()) {
            if (session.running() && session.request.replicaId() == replicaId
                    && Subscribe.hasNonce(in, session.request.nonce())) {
                return true;
            }
        }
        return false;
    }

    private int servicePending(long now) {
        int work = 0;
        for (Iterator<PendingHandshake> it = pending.iterator(); it.hasNext(); ) {
            PendingHandshake handshake = it.next();
            if (now - handshake.deadline > 0) {
                it.remove();
                handshake.publication.close();
                drops.count(DropReason.UNANSWERED, handshake.peer);
            } else {
                work += handshake.poll(now, challengeBuffer, challengeMac);
            }
        }
        return work;
    }

    private void onConfirm(int length, Header header) {
        if (!Confirm.wellFormed(in, length)) {
            drops.count(DropReason.MALFORMED, peerOf(header));
            return;
        }
        PendingHandshake handshake = null;
        for (PendingHandshake candidate : pending) {
            if (candidate.request.replicaId() == Confirm.replicaId(in) && Confirm.names(in, candidate.sourceNonce)) {
                handshake = candidate;
            }
        }
        if (handshake == null || Confirm.controlSession(in) != header.sessionId()) {
            drops.count(DropReason.FOREIGN, peerOf(header)); // no such challenge, or replayed from another Aeron session
            return;
        }
        if (!Session.open(in, length, handshake.fromReplica)) {
            drops.count(DropReason.FORGED, peerOf(header));
            return;
        }
        pending.remove(handshake);
        startSession(handshake, header.sessionId());
    }

    /**
     * A confirmed handshake: the replica proved it knows the secret and both nonces. Its earlier session (same replica
     * id, from any endpoint) ends, and so does a session to the same endpoint (spelled any way), which no other
     * replica can receive on now; a new one starts, which accepts, or refuses with the reason the checks give.
     */
    private void startSession(PendingHandshake handshake, int controlSession) {
        Subscribe.Request request = handshake.request;
        long start = -1;
        String refusal = null;
        List<TermHistory.Term> terms = List.of();
        try {
            TermHistory history = QueueIdentity.history(dir);
            terms = history.newest(Wire.MAX_TERMS);
            refusal = SourceTerms.refusal(dir, history, request);
            if (refusal == null) {
                start = SourceHandshake.check(queue, history, request);
            }
        } catch (RuntimeException refused) { // a RefusalException, or a file of the queue that cannot be read
            refusal = refused.getMessage();
        }
        if (refusal != null) {
            LOG.log(System.Logger.Level.WARNING, "refused replica " + handshake.peer + ": " + refusal);
        }
        SourceSession session = new SourceSession(dir, handshake, start, terms, refusal, controlSession,
                options.encrypt() || request.encrypt(), options);
        for (SourceSession old : sessions.values()) {
            if (old.request.replicaId() == request.replicaId() || old.endpoint.equals(session.endpoint)) {
                old.stop();
            }
        }
        sessions.values().removeIf(old -> old.endpoint.equals(session.endpoint)); // replaced: listed no more
        sessions.put(request.replicaId(), session);
        Thread.ofPlatform().name("blit-replication-session-" + handshake.peer).daemon().start(session);
    }

    private void onAck(int length, Header header) {
        if (!Ack.wellFormed(in, length)) {
            drops.count(DropReason.MALFORMED, peerOf(header));
            return;
        }
        SourceSession session = null;
        for (SourceSession candidate : sessions.values()) {
            if (candidate.running() && candidate.request.replicaId() == Ack.replicaId(in)
                    && candidate.controlSession == header.sessionId()) {
                session = candidate;
            }
        }
        if (session == null) {
            drops.count(DropReason.FOREIGN, peerOf(header));
            return;
        }
        long sequence = Session.sequence(in);
        if (sequence <= session.lastAckSequence) {
            drops.count(DropReason.REPLAYED, peerOf(header));
            return;
        }
        if (!Session.open(in, length, session.fromReplica)) {
            drops.count(DropReason.FORGED, peerOf(header));
            return;
        }
        session.lastAckSequence = sequence;
        session.acknowledge(Ack.committed(in), Ack.forced(in));
    }

    /**
     * {@return how many messages this source dropped for {@code reason} since it started}
     *
     * @param reason why the messages were dropped
     */
    public long dropped(DropReason reason) {
        return drops.total(reason);
    }

    private String peerOf(Header header) {
        Image image = control.imageBySessionId(header.sessionId());
        return image == null ? "unknown peer (session " + header.sessionId() + ")" : image.sourceIdentity();
    }

    /** {@return the queue directory served} */
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
        // replicas in a session learn from the end of their stream that this source stopped, and resubscribe at once
        connection.closeDraining(sessions.isEmpty() ? 0 : END_OF_STREAM_DRAIN_NANOS);
        reporter.close();
        queue.close();
    }
}
