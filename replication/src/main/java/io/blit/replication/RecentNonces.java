package io.blit.replication;

import java.nio.ByteBuffer;
import java.util.LinkedHashSet;
import java.util.Iterator;

/**
 * The nonces of the signed SUBSCRIBEs a source has taken lately (the last {@code capacity}): a request whose nonce is
 * among them is a replay and is dropped before it costs a publication. Older replays, and replays after a restart of
 * the source, still cost one challenge each (bounded by the handshake limits) and achieve nothing: only the replica
 * that chose the nonce can answer the challenge. Owned by the control thread.
 */
final class RecentNonces {
    private final int capacity;
    private final LinkedHashSet<ByteBuffer> seen = new LinkedHashSet<>();

    RecentNonces(int capacity) {
        this.capacity = capacity;
    }

    /** Adds the nonce; false if it was seen already. */
    boolean add(long replicaId, byte[] nonce) {
        ByteBuffer key = ByteBuffer.allocate(8 + nonce.length).putLong(replicaId).put(nonce).flip();
        if (!seen.add(key)) {
            return false;
        }
        if (seen.size() > capacity) {
            Iterator<ByteBuffer> oldest = seen.iterator();
            oldest.next();
            oldest.remove();
        }
        return true;
    }
}
