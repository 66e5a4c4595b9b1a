package io.blit.replication.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * CHALLENGE, source to replica on the publication that will carry the session: the source's nonce, and the Aeron
 * session id of that publication, signed (HMAC-SHA256 under {@link Keys#challengeKey}) and echoing the replica's id
 * and nonce, so that a replica takes only a challenge to its own current request, from a peer with the secret. The
 * replica answers with a {@link Confirm} under the session's keys ({@link Keys#session} of both nonces).
 *
 * <pre>
 * 0   | type u32 = 2          | version u32 = 4      |
 * 8   | replica id u64                               |
 * 16  | replica nonce (16)                           |
 * 32  | source nonce (16)                            |
 * 48  | session id i32        | zero u32             |
 * 56  | HMAC-SHA256 of bytes [0, 56) (32)            |
 * 88
 * </pre>
 */
public final class Challenge {
    public static final int LENGTH = 88;
    static final int REPLICA_AT = 8;
    static final int REPLICA_NONCE_AT = 16;
    static final int SOURCE_NONCE_AT = 32;
    static final int SESSION_AT = 48;
    static final int MAC_AT = 56;

    private Challenge() {
    }

    public static int encode(MutableDirectBuffer buffer, long replicaId, byte[] replicaNonce, byte[] sourceNonce,
                             int sessionId, HmacSha256 mac) {
        buffer.putInt(0, Wire.CHALLENGE, Wire.ORDER);
        buffer.putInt(4, Wire.VERSION, Wire.ORDER);
        buffer.putLong(REPLICA_AT, replicaId, Wire.ORDER);
        buffer.putBytes(REPLICA_NONCE_AT, replicaNonce);
        buffer.putBytes(SOURCE_NONCE_AT, sourceNonce);
        buffer.putInt(SESSION_AT, sessionId, Wire.ORDER);
        buffer.putInt(SESSION_AT + 4, 0, Wire.ORDER);
        buffer.putBytes(MAC_AT, mac.mac(buffer, 0, MAC_AT), 0, HmacSha256.LENGTH);
        return LENGTH;
    }

    /**
     * Whether the message of {@code length} bytes at offset 0 is a challenge of this version to the request of
     * {@code replicaId} with {@code replicaNonce}, signed with {@code mac}'s key. Allocates nothing.
     */
    public static boolean answers(DirectBuffer buffer, int length, long replicaId, byte[] replicaNonce, HmacSha256 mac) {
        if (length != LENGTH || buffer.getInt(0, Wire.ORDER) != Wire.CHALLENGE
                || buffer.getInt(4, Wire.ORDER) != Wire.VERSION || buffer.getLong(REPLICA_AT, Wire.ORDER) != replicaId) {
            return false;
        }
        for (int i = 0; i < Wire.NONCE; i++) {
            if (buffer.getByte(REPLICA_NONCE_AT + i) != replicaNonce[i]) {
                return false;
            }
        }
        return mac.verify(buffer, 0, MAC_AT, MAC_AT, HmacSha256.LENGTH);
    }

    /** The source's nonce of a challenge that {@link #answers} a request. */
    public static byte[] sourceNonce(DirectBuffer buffer) {
        byte[] nonce = new byte[Wire.NONCE];
        buffer.getBytes(SOURCE_NONCE_AT, nonce);
        return nonce;
    }

    /** The Aeron session id the session's messages will come from. */
    public static int sessionId(DirectBuffer buffer) {
        return buffer.getInt(SESSION_AT, Wire.ORDER);
    }
}
