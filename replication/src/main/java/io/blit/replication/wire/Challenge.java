package io.blit.replication.wire;

import java.util.UUID;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * CHALLENGE, source to replica on the publication that will carry the session: the source's nonce, and the Aeron
 * session id of that publication, signed (HMAC-SHA256 under {@link Keys#challengeKey}) and echoing the replica's id
 * and nonce, so that a replica takes only a challenge to its own current request, from a peer with the secret. The
 * replica answers with a {@link Confirm} under the session's keys ({@link Keys#session} of both nonces).
 *
 * <pre>
 * 0   | type u32 = 2          | version u32 = 5      |
 * 8   | replica id u64                               |
 * 16  | replica nonce (16)                           |
 * 32  | source nonce (16)                            |
 * 48  | session id i32        | zero u32             |
 * 56  | queue id (16): the queue the source serves   |
 * 72  | HMAC-SHA256 of bytes [0, 72) (32)            |
 * 104
 * </pre>
 *
 * A replica that holds a queue id takes only a challenge naming that queue; one that holds none yet learns it here,
 * and keeps it once the session it starts is accepted (the session's keys bind it, {@link Keys#session}).
 */
public final class Challenge {
    public static final int LENGTH = 104;
    static final int REPLICA_AT = 8;
    static final int REPLICA_NONCE_AT = 16;
    static final int SOURCE_NONCE_AT = 32;
    static final int SESSION_AT = 48;
    static final int QUEUE_AT = 56;
    static final int MAC_AT = 72;

    private Challenge() {
    }

    public static int encode(MutableDirectBuffer buffer, long replicaId, byte[] replicaNonce, byte[] sourceNonce,
                             int sessionId, UUID queueId, HmacSha256 mac) {
        buffer.putInt(0, Wire.CHALLENGE, Wire.ORDER);
        buffer.putInt(4, Wire.VERSION, Wire.ORDER);
        buffer.putLong(REPLICA_AT, replicaId, Wire.ORDER);
        buffer.putBytes(REPLICA_NONCE_AT, replicaNonce);
        buffer.putBytes(SOURCE_NONCE_AT, sourceNonce);
        buffer.putInt(SESSION_AT, sessionId, Wire.ORDER);
        buffer.putInt(SESSION_AT + 4, 0, Wire.ORDER);
        buffer.putLong(QUEUE_AT, queueId.getMostSignificantBits(), Wire.ORDER);
        buffer.putLong(QUEUE_AT + 8, queueId.getLeastSignificantBits(), Wire.ORDER);
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

    /** The queue id a challenge that {@link #answers} a request names. */
    public static UUID queueId(DirectBuffer buffer) {
        return new UUID(buffer.getLong(QUEUE_AT, Wire.ORDER), buffer.getLong(QUEUE_AT + 8, Wire.ORDER));
    }

    /** The Aeron session id the session's messages will come from. */
    public static int sessionId(DirectBuffer buffer) {
        return buffer.getInt(SESSION_AT, Wire.ORDER);
    }
}
