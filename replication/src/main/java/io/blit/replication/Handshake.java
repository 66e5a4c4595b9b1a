package io.blit.replication;

import java.util.Arrays;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The source's replies to a subscribe request, signed and echoing the replica's id and nonce so that a replica acts
 * only on the reply to its own latest request, from a peer that knows the secret: {@link Wire#ACCEPT} names the
 * session id whose data the replica will accept and the index the stream starts at; {@link Wire#REFUSE} says why.
 */
final class Handshake {
    private Handshake() {
    }

    /** Encodes the ACCEPT of {@code request} at offset 0; returns its length. */
    static int accept(MutableDirectBuffer buffer, SubscribeRequest request, long start, int sessionId, Hmac hmac) {
        buffer.putInt(0, Wire.ACCEPT, Wire.ORDER);
        buffer.putInt(4, 0, Wire.ORDER);
        buffer.putLong(Wire.ACC_REPLICA, request.replicaId(), Wire.ORDER);
        buffer.putLong(Wire.ACC_START, start, Wire.ORDER);
        buffer.putInt(Wire.ACC_SESSION, sessionId, Wire.ORDER);
        buffer.putInt(Wire.ACC_SESSION + 4, 0, Wire.ORDER);
        buffer.putBytes(Wire.ACC_NONCE, request.nonce());
        buffer.putBytes(Wire.ACC_SIGNED, hmac.sign(buffer, 0, Wire.ACC_SIGNED));
        return Wire.ACC_SIGNED + Hmac.LENGTH;
    }

    /** Encodes the REFUSE of {@code request} with {@code reason} at offset 0; returns its length. */
    static int refuse(MutableDirectBuffer buffer, SubscribeRequest request, String reason, Hmac hmac) {
        buffer.putInt(0, Wire.REFUSE, Wire.ORDER);
        buffer.putInt(4, 0, Wire.ORDER);
        buffer.putLong(Wire.REF_REPLICA, request.replicaId(), Wire.ORDER);
        buffer.putBytes(Wire.REF_NONCE, request.nonce());
        int end = Wire.putBytes(buffer, Wire.REF_REASON, Wire.utf8(reason));
        buffer.putBytes(end, hmac.sign(buffer, 0, end));
        return end + Hmac.LENGTH;
    }

    /** Whether the reply at {@code offset} answers the request of {@code replicaId} with {@code nonce}. */
    static boolean answers(DirectBuffer buffer, int offset, int length, long replicaId, byte[] nonce) {
        int nonceAt = buffer.getInt(offset, Wire.ORDER) == Wire.ACCEPT ? Wire.ACC_NONCE : Wire.REF_NONCE;
        if (length < nonceAt + Wire.NONCE_LENGTH || buffer.getLong(offset + 8, Wire.ORDER) != replicaId) {
            return false;
        }
        byte[] echoed = new byte[Wire.NONCE_LENGTH];
        buffer.getBytes(offset + nonceAt, echoed);
        return Arrays.equals(echoed, nonce);
    }

    /** Whether an ACCEPT of {@code length} bytes is signed with the secret. */
    static boolean acceptSigned(DirectBuffer buffer, int offset, int length, Hmac hmac) {
        return length == Wire.ACC_SIGNED + Hmac.LENGTH && hmac.verify(buffer, offset, Wire.ACC_SIGNED);
    }

    /** The reason of a REFUSE, with whether it is signed with the secret (else the secrets probably differ). */
    static String refusal(DirectBuffer buffer, int offset, int length, Hmac hmac) {
        int end = Wire.bytesEnd(buffer, offset + Wire.REF_REASON, offset + length);
        if (end < 0) {
            return "a malformed refusal";
        }
        String reason = Wire.text(Wire.getBytes(buffer, offset + Wire.REF_REASON));
        boolean signed = end + Hmac.LENGTH == offset + length && hmac.verify(buffer, offset, end - offset);
        return signed ? reason : reason + " (the refusal is not signed with this replica's secret)";
    }
}
