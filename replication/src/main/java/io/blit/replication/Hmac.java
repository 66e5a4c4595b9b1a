package io.blit.replication;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.DirectBuffer;

/**
 * HMAC-SHA256 of handshake messages under the shared secret: a peer proves it knows the secret without sending it.
 * Not thread-safe (one {@link Mac} per instance); each thread that signs or verifies has its own.
 */
final class Hmac {
    static final int LENGTH = 32;
    private final Mac mac;

    Hmac(byte[] secret) {
        if (secret == null || secret.length < 16) {
            throw new IllegalArgumentException("the replication secret must have at least 16 bytes, got "
                    + (secret == null ? "none" : secret.length));
        }
        try {
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JDK", e);
        }
    }

    /** The MAC of {@code length} bytes of {@code buffer} from {@code offset}. */
    byte[] sign(DirectBuffer buffer, int offset, int length) {
        byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes);
        return mac.doFinal(bytes);
    }

    /** Whether the {@link #LENGTH} bytes after the signed range are its MAC (compared in constant time). */
    boolean verify(DirectBuffer buffer, int offset, int length) {
        byte[] expected = sign(buffer, offset, length);
        byte[] given = new byte[LENGTH];
        buffer.getBytes(offset + length, given);
        return MessageDigest.isEqual(expected, given);
    }
}
