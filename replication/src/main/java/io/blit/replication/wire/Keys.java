package io.blit.replication.wire;

import java.nio.ByteBuffer;
import java.util.UUID;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.spec.AlgorithmParameterSpec;
import javax.crypto.KDF;
import javax.crypto.spec.HKDFParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keys of the protocol, all derived from the shared secret with HKDF-SHA256 (RFC 5869, the JDK's
 * {@link KDF} {@code HKDF-SHA256}): the secret itself never
 * keys a MAC, and every purpose and direction has a key of its own, so that no message can be replayed as another
 * kind or reflected back to its sender.
 *
 * <ul>
 *   <li>{@link #subscribeKey}: HMAC of SUBSCRIBE (replica to source, before any session exists);</li>
 *   <li>{@link #challengeKey}: HMAC of CHALLENGE (source to replica);</li>
 *   <li>{@link #session}: the two AES-256 keys of a session (source to replica, replica to source), from the
 *       secret and both sides' nonces: a session's keys are new for every handshake, and a replayed SUBSCRIBE
 *       leads to a session no one but the replica that chose its nonce can key.</li>
 * </ul>
 *
 * Stateless; thread-safe.
 */
public final class Keys {
    /** Bytes of every derived key. */
    public static final int LENGTH = 32;
    private static final byte[] SALT = ascii("blit-replication");

    private Keys() {
    }

    /** The key of SUBSCRIBE MACs. */
    public static byte[] subscribeKey(byte[] secret) {
        return expand(extract(SALT, secret), "v3 subscribe");
    }

    /** The key of CHALLENGE MACs. */
    public static byte[] challengeKey(byte[] secret) {
        return expand(extract(SALT, secret), "v3 challenge");
    }

    /**
     * A session's keys: {@code [0]} seals what the source sends, {@code [1]} what the replica sends. Bound to the
     * source's identity as the replica names it: the queue id the source serves and the control endpoint the replica
     * sent its request to (canonical), so that a session with another source than the one the replica meant (a
     * request forwarded to another queue's source, or to the next link of a chain) has keys neither side shares.
     */
    public static byte[][] session(byte[] secret, byte[] replicaNonce, byte[] sourceNonce, UUID queueId,
                                   String source) {
        byte[] sourceBytes = ascii(source);
        ByteBuffer salt = ByteBuffer.allocate(replicaNonce.length + sourceNonce.length + 16 + sourceBytes.length)
                .order(Wire.ORDER);
        salt.put(replicaNonce).put(sourceNonce).putLong(queueId.getMostSignificantBits())
                .putLong(queueId.getLeastSignificantBits()).put(sourceBytes);
        byte[] prk = extract(salt.array(), secret);
        return new byte[][] {expand(prk, "v5 source to replica"), expand(prk, "v5 replica to source")};
    }

    /** HKDF-Extract (RFC 5869): the pseudorandom key of {@code ikm} under {@code salt}, by the JDK's {@link KDF}. */
    static byte[] extract(byte[] salt, byte[] ikm) {
        return derive(HKDFParameterSpec.ofExtract().addSalt(salt).addIKM(ikm).extractOnly());
    }

    /** HKDF-Expand (RFC 5869) of {@code prk} with {@code info} to {@value #LENGTH} bytes, by the JDK's {@link KDF}. */
    static byte[] expand(byte[] prk, String info) {
        return expand(prk, ascii(info));
    }

    /** HKDF-Expand of {@code prk} with {@code info} bytes to {@value #LENGTH} bytes. */
    static byte[] expand(byte[] prk, byte[] info) {
        return derive(HKDFParameterSpec.expandOnly(new SecretKeySpec(prk, "HKDF-PRK"), info, LENGTH));
    }

    private static byte[] derive(AlgorithmParameterSpec spec) {
        try {
            return KDF.getInstance("HKDF-SHA256").deriveData(spec);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HKDF-SHA256 is not available in this JDK", e);
        }
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
