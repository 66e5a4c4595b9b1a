package io.blit.replication;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.logbuffer.Header;
import io.blit.queue.Quarantined;
import io.blit.queue.TermHistory;
import io.blit.queue.replica.QueueIdentity;
import io.blit.queue.replica.QueueTerms;
import io.blit.queue.replica.ReplicaLock;
import io.blit.queue.replica.ReplicaWriter;
import io.blit.replication.wire.Accept;
import io.blit.replication.wire.Ack;
import io.blit.replication.wire.Batch;
import io.blit.replication.wire.BatchProtection;
import io.blit.replication.wire.Challenge;
import io.blit.replication.wire.Confirm;
import io.blit.replication.wire.Heartbeat;
import io.blit.replication.wire.HmacSha256;
import io.blit.replication.wire.Keys;
import io.blit.replication.wire.Positions;
import io.blit.replication.wire.Refuse;
import io.blit.replication.wire.Sealer;
import io.blit.replication.wire.Session;
import io.blit.replication.wire.Subscribe;
import io.blit.replication.wire.Wire;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Follows a {@link ReplicationSource} into a queue directory of its own (docs/replication.md): subscribes with a
 * signed request saying what it holds, answers the source's challenge, takes only messages of the session the
 * challenge names whose tag opens under the session's key with the next sequence number, writes every record at the
 * same index, position and bytes as the source ({@link ReplicaWriter}), and acknowledges what it holds (in sync
 * mode: after forcing it to disk). A request unanswered for the source timeout is sent again with a fresh nonce,
 * so that no handshake lost on the way (or dropped by the source) stands in the way of the next. Only the challenged
 * session's fragmented messages are assembled (in one buffer of {@link Wire#MAX_MESSAGE}). When the source falls
 * silent, or a session message is missing or cannot be applied, it resubscribes from what it holds: a source
 * restart, a network drop, a hostile frame or a restart of the replica (its half-written last record is written
 * again) resumes without a gap or a duplicate. Messages from anyone
 * else are counted ({@link #dropped}) and otherwise ignored. An ACCEPT is taken only if its terms extend the
 * replica's own history, none above {@code QueueTerms.MAX_LEARNT_TERM}, and its start is an index the replica can
 * honour (docs/failover.md, "A term counts only within the queue's own history"); otherwise the session ends and
 * nothing is written. Records from a start below the replica's end are set aside (quarantined) only by a replica
 * started with {@link ReplicaOptions#rejoin()}; any other is refused, naming {@code --rejoin}. Runs in one thread of
 * its own; stops only for an authenticated refusal ({@link #refusal()} says why) or a storage failure
 * ({@link #failure()}). Thread-safe accessors.
 *
 * <p>A directory has one follower: a replica holds its {@link ReplicaLock} from {@link #start} until its thread ends,
 * and subscribes under the directory's identity ({@link ReplicaLock#replicaId()}), the same across restarts and
 * endpoints, by which its source counts it once.
 */
public final class Replica implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.blit.replication");
    private static final long RESUBSCRIBE_NANOS = 500_000_000L;

    private final Path dir;
    private final ReplicaOptions options;

    /** Where the handshake stands: a SUBSCRIBE out, a CONFIRM out (the challenge came), or the session accepted. */
    private enum State { HANDSHAKE, CONFIRMING, STREAMING }

    private final HmacSha256 subscribeMac;
    private final HmacSha256 challengeMac;
    /** The directory's one follower, held for the replica's life (released when its thread ends). */
    private final ReplicaLock lock;
    /** The directory's identity ({@link ReplicaLock#replicaId()}): the same across restarts and endpoints. */
    private final long replicaId;
    /** Wall clock in ms since 1970 whose reading each request states (a test seam). */
    private final LongSupplier wallClock;
    private final SecureRandom random = new SecureRandom();
    private final Thread thread;
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[16 << 10]);
    /** Each message taken is copied here first: checked, opened and applied from the replica's own bytes. */
    private final byte[] inBytes = new byte[Wire.MAX_MESSAGE];
    private final UnsafeBuffer in = new UnsafeBuffer(inBytes);
    private final MemorySegment inSegment = MemorySegment.ofArray(inBytes);
    private final DropLog drops;
    private Subscription data;
    private ExclusivePublication control;
    /** The replica's directory: its writer, its source's consumers' positions, the tails it set aside. */
    private volatile ReplicaStore store;
    /**
     * The source as this replica names it (canonical), and the queue it holds (null: none yet): bound into every
     * handshake, so that it follows only that source's queue. The challenged queue is the one the current challenge
     * names; the replica keeps it once the session is accepted.
     */
    private final String sourceName;
    private java.util.UUID queueId;
    private java.util.UUID challengedQueue;
    /** The replica's term history; null until it first follows (or for a directory without one yet). */
    private TermHistory history;
    private State state = State.HANDSHAKE;
    private byte[] nonce;
    /** When the current nonce was first sent. */
    private long attemptStarted;
    /** The requests of the handshake not answered yet, and the warning about them. */
    private final UnansweredRequests unanswered;
    private byte[] sourceNonce;
    /** The CONFIRM of the current challenge, sealed once and sent again as it is until the source answers. */
    private byte[] confirmation;
    private int sessionId;
    private Sealer fromSource;
    private Sealer toSource;
    private BatchProtection protection = BatchProtection.AUTHENTICATED;
    private long nextSequence;
    private long ackSequence;
    private long lastHeard;
    private long lastSent;
    private long acked = -1;
    private volatile boolean running = true;
    private volatile long held = -1;
    private volatile long resubscriptions;
    private volatile long sessionsAccepted;
    /** The highest next index a HEARTBEAT of an accepted session named; -1 before the first. Only the thread writes. */
    private volatile long sourceEnd = -1;
    /**
     * How many of the data subscription's images Aeron reported unavailable (its client thread counts, the replica's
     * thread compares): a change sends the replica to look whether its session's image is among them.
     */
    private final java.util.concurrent.atomic.AtomicLong imagesGone = new java.util.concurrent.atomic.AtomicLong();
    private long imagesChecked;
    private volatile RefusalException refusal;
    private volatile RuntimeException failure;

    private Replica(Path dir, ReplicaOptions options, LongSupplier wallClock, ReplicaLock lock) {
        this.unanswered = new UnansweredRequests(dir.toString(), options.source(), options.endpoint());
        this.dir = dir;
        this.options = options;
        this.wallClock = wallClock;
        this.lock = lock;
        this.replicaId = lock.replicaId();
        this.subscribeMac = new HmacSha256(Keys.subscribeKey(options.secret()));
        this.challengeMac = new HmacSha256(Keys.challengeKey(options.secret()));
        this.drops = new DropLog("replica " + dir);
        this.sourceName = Endpoint.canonical(options.source());
        this.thread = Thread.ofPlatform().name("blit-replica").daemon().unstarted(this::run);
    }

    /**
     * {@return a replica following {@code options.source()} into {@code dir} (created and marked as one if needed)}
     *
     * @param dir     the replica's queue directory: empty, missing or a replica already; followed by this replica
     *                alone ({@link ReplicaLock}) until it stops
     * @param options the source, the endpoints, the secret and how to follow
     * @throws NullPointerException  if {@code dir} or {@code options} is null
     * @throws IllegalStateException naming the directory and the holder's pid if another replica (in this process or
     *                               another) follows into {@code dir}; if {@code dir} holds a queue that is not a
     *                               replica
     * @throws java.io.UncheckedIOException if the directory, its lock or its identity cannot be created
     */
    public static Replica start(Path dir, ReplicaOptions options) {
        return start(dir, options, System::currentTimeMillis);
    }

    /** {@link #start(Path, ReplicaOptions)} with the wall clock whose reading each request states (tests). */
    static Replica start(Path dir, ReplicaOptions options, LongSupplier wallClock) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(options, "options");
        ReplicaStore.demoteIfRejoining(dir, options);
        ReplicaLock lock = ReplicaLock.acquire(dir, options.privateFiles());
        try {
            ReplicaStore.setAsideDamageIfVerifying(dir, options);
            Replica replica = new Replica(dir, options, wallClock, lock);
            replica.thread.start();
            return replica;
        } catch (RuntimeException | Error e) {
            lock.close();
            throw e;
        }
    }

    /** {@return the index below which the replica holds every index (-1 until it holds a file)} */
    public long nextIndex() {
        return held;
    }

    /**
     * {@return why the handshake was refused, or null} By the source (a REFUSE: another queue, another layout, a term
     * history that does not continue the source's, ...), or by this replica: an accept that would set its records
     * aside, to a replica not started with {@link ReplicaOptions#rejoin()}. A refused replica has stopped.
     */
    public RefusalException refusal() {
        return refusal;
    }

    /** {@return why the replica stopped other than by a refusal or {@link #close()} (e.g. a full disk), or null} */
    public RuntimeException failure() {
        return failure;
    }

    /** {@return how many times this replica resubscribed (its source fell silent, or a session could not go on)} */
    public long resubscriptions() {
        return resubscriptions;
    }

    /**
     * {@return how many sessions of its source accepted this replica since it started} Zero while no handshake has
     * succeeded: a source that never answers (another secret, a wrong endpoint, no source) leaves it at zero.
     */
    public long sessionsAccepted() {
        return sessionsAccepted;
    }

    /**
     * {@return the highest end of its queue the source reported since this replica started, or -1 before the first
     * report} A source reports its end in a HEARTBEAT, which it sends once it has put every record of its queue into
     * the stream and has had nothing new to send for 100 ms: the index there is the source's end at that moment. A
     * source that is appended to without a pause of 100 ms reports nothing meanwhile. Reported by a source that holds
     * the secret, and only read, never acted on, by the replica.
     */
    public long sourceEnd() {
        return sourceEnd;
    }

    /** {@return whether the replica's thread still runs} */
    public boolean running() {
        return thread.isAlive();
    }

    /**
     * Waits until the replica holds every index below {@code next}.
     *
     * @param next    the index below which every index is to be held
     * @param timeout how long to wait at most
     * @throws RefusalException if the source refused the replica
     * @throws TimeoutException saying what it holds
     */
    public void awaitIndex(long next, java.time.Duration timeout) throws TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (held < next) {
            if (refusal != null) {
                throw refusal;
            }
            if (failure != null) {
                throw failure;
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("replica " + dir + " holds up to index " + (held - 1) + ", waited for "
                        + (next - 1));
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    private void run() {
        try (lock; AeronConnection aeron = AeronConnection.open(options.aeronDir(), dir, "replica");
             ReplicaStore opened = ReplicaStore.open(dir, "aeron " + options.source(), options.privateFiles())) {
            store = opened;
            held = store.writer().nextIndex();
            history = QueueIdentity.history(dir);
            queueId = history == null ? null : history.queueId();
            // only the challenged session's messages are assembled: a stranger's cost nothing but a count
            BoundedAssembler assembler = new BoundedAssembler(this::onData,
                    session -> state != State.HANDSHAKE && session == sessionId,
                    (reason, header) -> drops.count(reason, peerOf(header)), 1, Wire.MAX_MESSAGE);
            data = aeron.aeron().addSubscription(AeronConnection.subscriptionChannel(options.endpoint()),
                    AeronConnection.DATA_STREAM, image -> { }, image -> {
                        assembler.onUnavailableImage(image);
                        imagesGone.incrementAndGet();
                    });
            assembler.pollsFor(data);
            control = aeron.aeron().addExclusivePublication(Endpoint.udp(options.source()),
                    AeronConnection.CONTROL_STREAM);
            IdleStrategy idle = IdleStrategies.create();
            unanswered.restart(System.nanoTime());
            follow(assembler, idle);
        } catch (RuntimeException e) {
            stop(e);
        } catch (InternalError e) { // a fault the queue did not translate: still a stop with a reason, not a silent death
            stop(new IllegalStateException("replica " + dir + ": " + e.getMessage(), e));
        }
    }

    /** The replica's loop, until it is closed or stops: handshakes, then the stream. */
    private void follow(BoundedAssembler assembler, IdleStrategy idle) {
        while (running) {
            long now = System.nanoTime();
            if (state != State.HANDSHAKE && now - lastHeard > options.sourceTimeout().toNanos()) {
                restartHandshake(state == State.STREAMING ? "source " + options.source() + " silent; resubscribing from "
                        + store.writer().nextIndex() : "replica " + dir + ": source " + options.source() + " challenged it"
                        + " but neither accepted nor refused within " + options.sourceTimeout().toMillis()
                        + " ms; subscribing again");
            }
            resubscribeIfStreamEnded();
            if (state != State.STREAMING && now - lastSent > RESUBSCRIBE_NANOS) {
                resend(now);
            }
            int work = data.poll(assembler, 64);
            acknowledge();
            drops.maybeLog(now);
            idle.idle(work);
        }
    }

    /**
     * Resubscribes at once when the session's stream has ended: its Aeron image went unavailable (the source closed its
     * publication, with an end of stream, or its driver fell silent for the image's liveness timeout) or reached its
     * end of stream. Without this a stopped or replaced source would be noticed only after the source timeout. Runs
     * only when Aeron reported some image gone since the last look, and costs one scan of the subscription's images
     * then (no allocation): another peer's image leaving changes nothing here. Whatever the ended session did not
     * deliver is asked for again: the new request states what the replica holds.
     */
    private void resubscribeIfStreamEnded() {
        long gone = imagesGone.get();
        if (gone == imagesChecked || state == State.HANDSHAKE) {
            return;
        }
        imagesChecked = gone;
        Image image = data.imageBySessionId(sessionId);
        // an image at its end of stream has given every message before the end: nothing is left behind
        if (image == null || image.isClosed() || image.isEndOfStream()) {
            restartHandshake("replica " + dir + ": the stream of source " + options.source() + " ended (its"
                    + " publication closed or its driver went silent); resubscribing from " + store.writer().nextIndex());
        }
    }

    /** Sets aside the replica's records from {@code start} on ({@link ReplicaStore#setAside}). */
    private void setAside(long start) {
        java.util.Optional<Quarantined> moved = store.setAside(start);
        held = store.writer().nextIndex(); // first: whoever sees the tail sees what the replica holds after it
        moved.ifPresent(tail -> store.publish(tail, options.source()));
    }

    /**
     * Stops the replica, refused: its source's history does not hold its records from {@code start} on, and only a
     * replica started with {@link ReplicaOptions#rejoin()} sets records aside. Nothing was written.
     */
    private void refuseToSetAside(long start, List<TermHistory.Term> sourceTerms) {
        refusal = new RefusalException("source " + options.source() + " serves replica " + dir + " from index " + start
                + ", below its end (it holds every index below " + store.writer().nextIndex() + "): its records from index "
                + start + " on are not in the source's history (terms " + SourceTerms.describe(sourceTerms)
                + "; the replica's " + (history == null ? "none" : SourceTerms.describe(history.terms())) + "). Nothing"
                + " was changed. A former primary, or a replica of one, rejoins with --rejoin"
                + " (ReplicaOptions.rejoin), which moves those records into its quarantine; otherwise check --source");
        LOG.log(System.Logger.Level.ERROR, refusal.getMessage());
        running = false;
    }

    /**
     * {@return the tails this replica set aside since it started, oldest first} Each a quarantine queue inside its
     * directory, holding records its source's history does not hold (a primary rejoining after a failover).
     */
    public List<Quarantined> quarantined() {
        return store == null ? List.of() : store.quarantined();
    }

    /** Starts a new handshake (a new nonce) the next time round; {@code reason}, if any, is logged. */
    private void restartHandshake(String reason) {
        if (reason != null) {
            LOG.log(System.Logger.Level.WARNING, reason);
        }
        state = State.HANDSHAKE;
        nonce = null;
        unanswered.restart(System.nanoTime());
        fromSource = null;
        toSource = null;
        lastHeard = System.nanoTime();
        resubscriptions++; // only this thread writes it
    }

    /** Sends the SUBSCRIBE of the handshake (a new one if none runs), or the CONFIRM again while no reply came. */
    private void resend(long now) {
        lastSent = now;
        if (state == State.HANDSHAKE) {
            unanswered.warnIfDue(now, control.isConnected());
        }
        if (!control.isConnected()) {
            return;
        }
        if (state == State.CONFIRMING) {
            control.offer(new UnsafeBuffer(confirmation), 0, confirmation.length); // sealed once: a nonce seals one message
            return;
        }
        if (nonce == null || now - attemptStarted > options.sourceTimeout().toNanos()) {
            // a fresh nonce per attempt: a source that took (or dropped) the last one never stands in this one's way
            nonce = new byte[Wire.NONCE];
            random.nextBytes(nonce);
            attemptStarted = now;
        }
        unanswered.sent();
        Subscribe.Request request = new Subscribe.Request(replicaId, nonce, store.writer().nextIndex(), options.subscribeFlags(),
                options.endpoint(), store.writer().newestFileHeader(), options.expectedDescriptor(), wallClock.getAsLong(),
                queueId == null ? Wire.NO_QUEUE : queueId, sourceName,
                history == null ? List.of() : history.newest(Wire.MAX_TERMS));
        control.offer(out, 0, Subscribe.encode(out, request, subscribeMac));
    }

    private void acknowledge() {
        long next = store.writer().nextIndex();
        if (state != State.STREAMING || next == acked || !control.isConnected()) {
            return;
        }
        if (options.sync()) {
            store.writer().force();
        }
        // every ACK sealed gets a sequence of its own, offered or not: a GCM nonce must never seal two messages
        int length = Ack.encode(out, ++ackSequence, replicaId, next, options.sync() ? next : -1, toSource);
        if (control.offer(out, 0, length) > 0) {
            acked = next;
        }
    }

    /** Nothing may escape ({@code Image.poll} would hand it to Aeron's error handler): a failure stops the replica. */
    private void onData(DirectBuffer buffer, int offset, int length, Header header) {
        try {
            dispatch(buffer, offset, length, header);
        } catch (RuntimeException e) {
            stop(e);
        } catch (InternalError e) { // a fault the queue did not translate
            stop(new IllegalStateException("replica " + dir + ": " + e.getMessage(), e));
        }
    }

    private void stop(RuntimeException reason) {
        failure = reason;
        running = false;
        LOG.log(System.Logger.Level.ERROR, "replica " + dir + " stopped", reason);
    }

    /**
     * Takes one message: from the challenged session, a sealed session message; from any other, only a challenge to
     * the current request. Its length is checked, then it is copied into the replica's buffer, checked and used.
     */
    private void dispatch(DirectBuffer buffer, int offset, int length, Header header) {
        boolean fromSession = state != State.HANDSHAKE && header.sessionId() == sessionId;
        if (!fromSession) {
            if (state == State.HANDSHAKE && nonce != null && length == Challenge.LENGTH) {
                in.putBytes(0, buffer, offset, length);
                if (Challenge.answers(in, length, replicaId, nonce, challengeMac)) {
                    onChallenge();
                    return;
                }
            }
            drops.count(length == Challenge.LENGTH ? DropReason.UNSIGNED : DropReason.FOREIGN, peerOf(header));
            return;
        }
        if (length < Session.MIN_LENGTH || length > in.capacity()) {
            drops.count(DropReason.MALFORMED, peerOf(header));
            return;
        }
        in.putBytes(0, buffer, offset, length);
        long sequence = Session.sequence(in);
        if (sequence < nextSequence) {
            drops.count(DropReason.REPLAYED, peerOf(header));
            return;
        }
        int type = in.getInt(0, Wire.ORDER);
        boolean opened = type != Wire.BATCH && type != Wire.POSITIONS ? Session.open(in, length, fromSource) : switch (protection) {
            case AUTHENTICATED -> Session.open(in, length, fromSource);
            case ENCRYPTED -> Session.openEncrypted(in, length, fromSource);
        };
        if (!opened) {
            drops.count(DropReason.FORGED, peerOf(header));
            return;
        }
        if (sequence != nextSequence) {
            restartHandshake("replica " + dir + ": message " + nextSequence + " of the session never arrived (got "
                    + sequence + "); resubscribing from " + store.writer().nextIndex());
            return;
        }
        nextSequence++;
        lastHeard = System.nanoTime();
        String violation = onSessionMessage(type, length);
        if (violation != null) {
            LOG.log(System.Logger.Level.WARNING, "replica " + dir + ": the source sent " + violation
                    + "; the session ends, resubscribing from " + store.writer().nextIndex());
            restartHandshake(null);
        }
    }

    private void onChallenge() {
        sourceNonce = Challenge.sourceNonce(in);
        sessionId = Challenge.sessionId(in);
        challengedQueue = Challenge.queueId(in);
        byte[][] keys = Keys.session(options.secret(), nonce, sourceNonce, challengedQueue, sourceName);
        fromSource = new Sealer(keys[0]);
        toSource = new Sealer(keys[1]);
        nextSequence = 0;
        ackSequence = 0;
        UnsafeBuffer sealed = new UnsafeBuffer(new byte[Confirm.LENGTH]);
        Confirm.encode(sealed, replicaId, sourceNonce, control.sessionId(), toSource);
        confirmation = sealed.byteArray();
        state = State.CONFIRMING;
        lastHeard = System.nanoTime();
        lastSent = 0; // the confirmation goes out at once
    }

    /** Acts on an opened session message; returns what was wrong with it, or null. */
    private String onSessionMessage(int type, int length) {
        if (state == State.CONFIRMING) {
            if (type == Wire.ACCEPT && Accept.wellFormed(in, length)) {
                BatchProtection offered = Accept.protection(in);
                if (options.requireEncryption() && offered != BatchProtection.ENCRYPTED) {
                    return "an unencrypted session to a replica that requires encryption";
                }
                protection = offered;
                if (queueId != null && !queueId.equals(challengedQueue)) {
                    return "an accept of queue " + challengedQueue + " to a replica of queue " + queueId;
                }
                List<TermHistory.Term> sourceTerms = Accept.terms(in);
                long start = Accept.start(in);
                // every check before anything is written: an accept this replica does not take changes nothing
                ReplicaTerms.Verdict verdict = ReplicaTerms.check(challengedQueue, history, sourceTerms, start,
                        store.writer().nextIndex(), store.writer().firstIndex());
                if (verdict.violation() != null) {
                    return verdict.violation();
                }
                if (verdict.setAsideFrom() >= 0) {
                    if (!options.rejoin()) {
                        refuseToSetAside(start, sourceTerms);
                        return null;
                    }
                    setAside(verdict.setAsideFrom());
                }
                history = QueueIdentity.follow(dir, challengedQueue, sourceTerms);
                QueueTerms.fence(dir, history.currentTerm()); // an appender still open here stops (a rejoining primary's)
                queueId = challengedQueue;
                state = State.STREAMING;
                sessionsAccepted++; // only this thread writes it
                nonce = null;
                acked = -1;
                LOG.log(System.Logger.Level.INFO, "replica " + dir + " follows " + options.source() + " from index "
                        + Accept.start(in) + ", batches " + protection.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
                return null;
            }
            if (type == Wire.REFUSE && Refuse.wellFormed(in, length)) {
                refusal = new RefusalException("source " + options.source() + " refused replica " + dir + ": "
                        + Refuse.reason(in));
                LOG.log(System.Logger.Level.ERROR, refusal.getMessage());
                running = false;
                return null;
            }
            return "a message of type " + type + " where an accept or refusal belongs";
        }
        if (type == Wire.HEARTBEAT && Heartbeat.wellFormed(in, length)) {
            long next = Heartbeat.next(in);
            if (next > sourceEnd) {
                sourceEnd = next; // what the source says of its end; it changes nothing the replica holds
            }
            return null;
        }
        if (type == Wire.BATCH) {
            String malformed = Batch.check(in, length);
            if (malformed != null) {
                return malformed;
            }
            try {
                return BatchApplier.apply(store.writer(), in, inSegment);
            } finally {
                held = store.writer().nextIndex(); // what the entries before a failing one wrote is held
            }
        }
        if (type == Wire.POSITIONS) {
            String malformed = Positions.check(in, length);
            if (malformed == null) {
                store.storePositions(in, length);
            }
            return malformed;
        }
        return "a message of type " + type + " or length " + length + " that does not belong in a stream";
    }

    private String peerOf(Header header) {
        Image image = data.imageBySessionId(header.sessionId());
        return image == null ? "an unknown peer" : image.sourceIdentity();
    }

    /**
     * {@return how many messages this replica dropped for {@code reason} since it started}
     *
     * @param reason why the messages were dropped
     */
    public long dropped(DropReason reason) {
        return drops.total(reason);
    }

    /** Stops following and closes the replica's files and Aeron client. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
