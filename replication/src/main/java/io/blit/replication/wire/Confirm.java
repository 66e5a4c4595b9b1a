package io.blit.replication.wire;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * CONFIRM, replica to source on the control endpoint, sequence 0 of the replica's direction: the answer to a
 * {@link Challenge}. Its tag under the session key proves that the replica knows the secret and both nonces; only
 * then does the source start a session (and end an earlier one of the same replica). It names the Aeron session id of
 * the replica's control publication, under the tag: the source takes it only from that Aeron session and takes the
 * session's ACKs only from there, so a CONFIRM replayed from another Aeron session is dropped and cannot bind the
 * session's acknowledgements to the replayer.
 *
 * <pre>
 * 0   | type u32 = 3 | the replica's control Aeron session id i32 |
 * 8   | sequence u64 = 0        |
 * 16  | replica id u64          |
 * 24  | source nonce (16)       |
 * 40  | tag (16)                |
 * 56
 * </pre>
 */
public final class Confirm {
    public static final int LENGTH = 56;
    static final int REPLICA_AT = 16;
    static final int NONCE_AT = 24;

    private Confirm() {
    }

    public static int encode(UnsafeBuffer buffer, long replicaId, byte[] sourceNonce, int controlSession,
                             Sealer sealer) {
        Session.head(buffer, Wire.CONFIRM, controlSession, 0);
        buffer.putLong(REPLICA_AT, replicaId, Wire.ORDER);
        buffer.putBytes(NONCE_AT, sourceNonce);
        return Session.seal(buffer, LENGTH - Sealer.TAG, sealer);
    }

    /** Whether a message of {@code length} bytes has a confirmation's shape (its tag is not checked here). */
    public static boolean wellFormed(DirectBuffer buffer, int length) {
        return length == LENGTH && Session.sequence(buffer) == 0;
    }

    /** The Aeron session id of the replica's control publication the confirmation names. */
    public static int controlSession(DirectBuffer buffer) {
        return buffer.getInt(Session.AUX_AT, Wire.ORDER);
    }

    public static long replicaId(DirectBuffer buffer) {
        return buffer.getLong(REPLICA_AT, Wire.ORDER);
    }

    /** Whether the confirmation names {@code sourceNonce} (allocates nothing). */
    public static boolean names(DirectBuffer buffer, byte[] sourceNonce) {
        for (int i = 0; i < Wire.NONCE; i++) {
            if (buffer.getByte(NONCE_AT + i) != sourceNonce[i]) {
                return false;
            }
        }
        return true;
    }
}
