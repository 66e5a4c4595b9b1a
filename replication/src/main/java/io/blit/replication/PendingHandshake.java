package io.blit.replication;

import io.aeron.ExclusivePublication;
import io.blit.replication.wire.Challenge;
import io.blit.replication.wire.HmacSha256;
import io.blit.replication.wire.Keys;
import io.blit.replication.wire.Sealer;
import io.blit.replication.wire.Subscribe;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A signed SUBSCRIBE the source has challenged and not yet seen confirmed: the publication to the data endpoint the
 * request names (which becomes the session's if the replica confirms), the source's nonce and the session keys both
 * nonces give. The challenge is offered when the publication connects and again every 0.5 s; a handshake not
 * confirmed by its deadline is dropped and its publication closed. Owned by the source's control thread.
 */
final class PendingHandshake {
    private static final long RESEND_NANOS = 500_000_000L;

    final Subscribe.Request request;
    final byte[] sourceNonce;
    final ExclusivePublication publication;
    final byte[][] keys;
    /** Opens the replica's CONFIRM (the control thread's; the session makes its own for ACKs). */
    final Sealer fromReplica;
    final String peer;
    final long deadline;
    private final java.util.UUID queueId;
    private long lastSent;
    private boolean sent;

    PendingHandshake(Subscribe.Request request, byte[] sourceNonce, ExclusivePublication publication, byte[] secret,
                     java.util.UUID queueId, String peer, long deadline) {
        this.request = request;
        this.sourceNonce = sourceNonce;
        this.publication = publication;
        this.queueId = queueId;
        this.keys = Keys.session(secret, request.nonce(), sourceNonce, queueId, request.source());
        this.fromReplica = new Sealer(keys[1]);
        this.peer = peer;
        this.deadline = deadline;
    }

    /** Offers the challenge if the publication is connected and it is time; returns 1 if it offered. */
    int poll(long now, UnsafeBuffer buffer, HmacSha256 challengeMac) {
        if ((sent && now - lastSent < RESEND_NANOS) || !publication.isConnected()) {
            return 0;
        }
        int length = Challenge.encode(buffer, request.replicaId(), request.nonce(), sourceNonce, publication.sessionId(),
                queueId, challengeMac);
        if (publication.offer(buffer, 0, length) > 0) {
            sent = true;
            lastSent = now;
            return 1;
        }
        return 0;
    }
}
