package io.blit.replication;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.LinkedHashSet;

/**
 * The nonces of the signed SUBSCRIBEs a source has taken lately (the last {@code capacity}): a request whose nonce is
 * among them is a replay and is dropped before it costs a publication. A nonce is recorded only when its request took
 * a handshake slot and a publication, so a request dropped for any other reason (the source full, an endpoint that
 * does not resolve) may come again. Replays of requests older than {@link io.blit.replication.wire.Wire#FRESHNESS_MILLIS}
 * are stale whatever this remembers (after a restart of the source too). Owned by the control thread.
 */
final class RecentNonces {
    private final int capacity;
    private final LinkedHashSet<ByteBuffer> seen = new LinkedHashSet<>();

    RecentNonces(int capacity) {
        this.capacity = capacity;
    }

    /** Whether the nonce was recorded. */
    boolean contains(long replicaId, byte[] nonce) {
        return seen.contains(key(replicaId, nonce));
    }

    /** Records the nonce, forgetting the oldest beyond the capacity; false if it was recorded already. */
    boolean add(long replicaId, byte[] nonce) {
        if (!seen.add(key(replicaId, nonce))) {
            return false;
        }
        if (seen.size() > capacity) {
            Iterator<ByteBuffer> oldest = seen.iterator();
            oldest.next();
            oldest.remove();
        }
        return true;
    }

    private static ByteBuffer key(long replicaId, byte[] nonce) {
        return ByteBuffer.allocate(8 + nonce.length).putLong(replicaId).put(nonce).flip();
    }
}
