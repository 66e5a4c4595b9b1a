package io.blit.replication;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.logbuffer.Header;
import io.blit.replication.wire.Accept;
import io.blit.replication.wire.BatchProtection;
import io.blit.replication.wire.Challenge;
import io.blit.replication.wire.Confirm;
import io.blit.replication.wire.HmacSha256;
import io.blit.replication.wire.Keys;
import io.blit.replication.wire.Refuse;
import io.blit.replication.wire.Sealer;
import io.blit.replication.wire.Session;
import io.blit.replication.wire.Subscribe;
import io.blit.replication.wire.Wire;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A replication source that holds the secret and does only what its test tells it: the authenticated peer, playing a
 * compromised or buggy source. It has its own embedded media driver, takes SUBSCRIBE and CONFIRM on a control
 * endpoint exactly as the protocol says (the wire classes check and verify them), and answers on an exclusive
 * publication to the endpoint a request names; once a session is accepted, it seals whatever message the test
 * writes under the session's source-to-replica key. Everything runs on the test's thread: each method polls until it
 * has what it waits for or its deadline passes.
 */
final class FakeSource implements AutoCloseable {
    /** Terms of 1 MiB (messages up to 128 KiB): the hostile batches are small, and each handshake has its own log. */
    private static final String TERM = "|term-length=1m";
    private static final long RESEND_NANOS = 500_000_000L;

    private final MediaDriver driver;
    private final Aeron aeron;
    private final Subscription control;
    private final FragmentAssembler assembler = new FragmentAssembler(this::onControl);
    private final byte[] secret;
    private final HmacSha256 subscribeMac;
    private final HmacSha256 challengeMac;
    private final SplittableRandom random = new SplittableRandom(42);
    private final UnsafeBuffer in = new UnsafeBuffer(new byte[Wire.MAX_CONTROL_MESSAGE]);
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[256 << 10]);
    /** Hex of every nonce of a valid request seen; a request with one of them again is a resend, not a new request. */
    private final Set<String> nonces = new HashSet<>();
    private final ArrayDeque<Subscribe.Request> newRequests = new ArrayDeque<>();
    /** Control messages that were not a signed SUBSCRIBE, a CONFIRM or an ACK of this protocol. */
    private int malformed;
    private ExclusivePublication publication;
    private Subscribe.Request challenged;
    private byte[] sourceNonce;
    private byte[][] keys;
    /** The queue this fake serves: the one a replica's request names, or its own for a replica that holds none. */
    private java.util.UUID queueId = java.util.UUID.randomUUID();
    private boolean confirmed;
    private Sealer toReplica;
    private long sequence;

    private FakeSource(MediaDriver driver, String controlEndpoint, byte[] secret) {
        this.driver = driver;
        this.aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
        this.control = aeron.addSubscription("aeron:udp?endpoint=" + controlEndpoint, 1000);
        this.secret = secret.clone();
        this.subscribeMac = new HmacSha256(Keys.subscribeKey(secret));
        this.challengeMac = new HmacSha256(Keys.challengeKey(secret));
    }

    /** A fake source listening on {@code controlEndpoint}, its media driver in {@code aeronDir} (deleted on close). */
    static FakeSource start(Path aeronDir, String controlEndpoint, byte[] secret) {
        MediaDriver driver = MediaDriver.launch(new MediaDriver.Context()
                .aeronDirectoryName(aeronDir.toString())
                .threadingMode(ThreadingMode.SHARED)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true));
        try {
            return new FakeSource(driver, controlEndpoint, secret);
        } catch (RuntimeException e) {
            driver.close();
            throw e;
        }
    }

    /**
     * The next request with a nonce not seen before (a new handshake of the replica), or null if none came within
     * {@code timeout}. Resends of a request already seen are not counted.
     */
    Subscribe.Request awaitNewRequest(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (newRequests.isEmpty() && System.nanoTime() - deadline < 0) {
            pollOrPark();
        }
        return newRequests.poll();
    }

    /** Whether a new request (a new nonce) came, polling the control endpoint for {@code period} first. */
    boolean newRequestWithin(Duration period) {
        long deadline = System.nanoTime() + period.toNanos();
        while (newRequests.isEmpty() && System.nanoTime() - deadline < 0) {
            pollOrPark();
        }
        return !newRequests.isEmpty();
    }

    /** Forgets the requests not answered yet, and those that arrive within {@code period} (of a replica closed). */
    void discardRequests(Duration period) {
        newRequestWithin(period);
        long deadline = System.nanoTime() + period.toNanos();
        while (System.nanoTime() - deadline < 0) {
            pollOrPark();
        }
        newRequests.clear();
    }

    /** How many control messages were neither a valid signed SUBSCRIBE nor a CONFIRM nor an ACK. */
    int malformedControlMessages() {
        return malformed;
    }

    /** Serves the queue of id {@code id} to a replica that holds no id yet (by default a random one). */
    void servesQueue(java.util.UUID id) {
        queueId = id;
    }

    /**
     * Answers {@code request} as a source does: a CHALLENGE on a new exclusive publication to the endpoint it names,
     * until the replica's CONFIRM opens under the session's replica-to-source key.
     *
     * @throws AssertionError if no confirmation comes within {@code timeout}
     */
    void challenge(Subscribe.Request request, Duration timeout) {
        CloseHelper.close(publication);
        publication = aeron.addExclusivePublication("aeron:udp?endpoint=" + request.endpoint() + TERM, 1001);
        challenged = request;
        sourceNonce = new byte[Wire.NONCE];
        random.nextBytes(sourceNonce);
        queueId = Wire.NO_QUEUE.equals(request.queueId()) ? queueId : request.queueId(); // a source of its queue
        keys = Keys.session(secret, request.nonce(), sourceNonce, queueId, request.source());
        confirmed = false;
        toReplica = null;
        long deadline = System.nanoTime() + timeout.toNanos();
        long lastSent = 0;
        UnsafeBuffer challenge = new UnsafeBuffer(new byte[Challenge.LENGTH]);
        while (!confirmed) {
            long now = System.nanoTime();
            if (now - deadline > 0) {
                throw new AssertionError("the replica did not confirm the challenge within " + timeout);
            }
            if (publication.isConnected() && (lastSent == 0 || now - lastSent > RESEND_NANOS)) {
                int length = Challenge.encode(challenge, request.replicaId(), request.nonce(), sourceNonce,
                        publication.sessionId(), queueId, challengeMac);
                if (publication.offer(challenge, 0, length) > 0) {
                    lastSent = now;
                }
            }
            pollOrPark();
        }
        toReplica = new Sealer(keys[0]);
        sequence = 0;
    }

    /** Sends ACCEPT (sequence 0) of the confirmed handshake; the stream's messages follow from sequence 1. */
    void accept(long start) {
        accept(start, java.util.List.of(new io.blit.queue.TermHistory.Term(0, 0, 0)));
    }

    /** Sends ACCEPT (sequence 0) of the confirmed handshake naming {@code terms}, as the source's newest. */
    void accept(long start, java.util.List<io.blit.queue.TermHistory.Term> terms) {
        send(Accept.encode(out, start, BatchProtection.AUTHENTICATED, terms, toReplica));
        sequence = 1;
    }

    /** Sends REFUSE (sequence 0) of the confirmed handshake. */
    void refuse(String reason) {
        send(Refuse.encode(out, reason, toReplica));
        sequence = 1;
    }

    /** What a test writes as one session message: its head and body at offset 0, returning its unsealed length. */
    interface Message {
        int write(UnsafeBuffer buffer, long sequence);
    }

    /**
     * Writes {@code message} with the session's next sequence number, seals it under the session's key (with the
     * sequence its head states) and sends it; the next message gets the next number.
     */
    void sendSealed(Message message) {
        int length = message.write(out, sequence);
        send(Session.seal(out, length, toReplica));
        sequence++;
    }

    /** The sequence number the next message of the session gets. */
    long nextSequence() {
        return sequence;
    }

    private void send(int length) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (publication.offer(out, 0, length) < 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("the replica's endpoint took no message for 10 s");
            }
            pollOrPark();
        }
    }

    private void pollOrPark() {
        if (control.poll(assembler, 16) == 0) {
            LockSupport.parkNanos(1_000_000);
        }
    }

    private void onControl(DirectBuffer buffer, int offset, int length, Header header) {
        if (length < Session.MIN_LENGTH || length > in.capacity()) {
            malformed++;
            return;
        }
        in.putBytes(0, buffer, offset, length);
        switch (Wire.type(in, 0, length)) {
            case Wire.SUBSCRIBE -> onSubscribe(length);
            case Wire.CONFIRM -> onConfirm(length);
            case Wire.ACK -> { } // what the replica holds: the tests ask the replica itself
            default -> malformed++;
        }
    }

    private void onSubscribe(int length) {
        if (Subscribe.check(in, length) != null || !Subscribe.signed(in, length, subscribeMac)) {
            malformed++;
            return;
        }
        Subscribe.Request request = Subscribe.decode(in, length);
        if (nonces.add(HexFormat.of().formatHex(request.nonce()))) {
            newRequests.add(request);
        }
    }

    private void onConfirm(int length) {
        if (!Confirm.wellFormed(in, length)) {
            malformed++;
            return;
        }
        if (challenged != null && !confirmed && Confirm.replicaId(in) == challenged.replicaId()
                && Confirm.names(in, sourceNonce) && Session.open(in, length, new Sealer(keys[1]))) {
            confirmed = true;
        }
    }

    @Override
    public void close() {
        CloseHelper.closeAll(publication, control, aeron, driver);
    }
}
