package io.blit.replication.wire;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.agrona.DirectBuffer;

/**
 * HMAC-SHA256 (RFC 2104) under one key, computed with the JDK's {@link MessageDigest} (SHA-256) into caller-owned
 * arrays: verifying a message allocates nothing, so a flood of forged requests costs the receiver hashing time and no
 * garbage. Not {@code javax.crypto.Mac}: its {@code doFinal} allocates the result on every MAC (measured: 9.6 MB for
 * 400,000 forged handshake messages, {@code HandshakeAllocationTest}). The key pads are kept; each MAC hashes one
 * extra block per pad. Checked against RFC 4231's vectors ({@code KeysTest}).
 *
 * <p>Not thread-safe: one instance per thread.
 */
public final class HmacSha256 {
    /** Bytes of a full HMAC-SHA256. */
    public static final int LENGTH = 32;
    private static final int BLOCK = 64;

    private final MessageDigest digest;
    private final byte[] innerPad = new byte[BLOCK];
    private final byte[] outerPad = new byte[BLOCK];
    private final byte[] inner = new byte[LENGTH];
    private final byte[] result = new byte[LENGTH];
    private final byte[] scratch = new byte[4096];

    /** An HMAC under {@code key} (any length; a key longer than 64 bytes is hashed first, as RFC 2104 says). */
    public HmacSha256(byte[] key) {
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available in this JDK", e);
        }
        byte[] k = key.length > BLOCK ? digest.digest(key) : key;
        for (int i = 0; i < BLOCK; i++) {
            byte b = i < k.length ? k[i] : 0;
            innerPad[i] = (byte) (b ^ 0x36);
            outerPad[i] = (byte) (b ^ 0x5c);
        }
    }

    /** Starts a MAC; feed it with {@link #update} and end it with {@link #finish}. */
    public HmacSha256 start() {
        digest.reset();
        digest.update(innerPad);
        return this;
    }

    public HmacSha256 update(byte[] bytes, int offset, int length) {
        digest.update(bytes, offset, length);
        return this;
    }

    /** Feeds {@code length} bytes of {@code buffer} from {@code offset} (through a reused array unless it wraps one). */
    public HmacSha256 update(DirectBuffer buffer, int offset, int length) {
        byte[] array = buffer.byteArray();
        if (array != null) {
            digest.update(array, (int) (buffer.wrapAdjustment() + offset), length);
            return this;
        }
        for (int at = 0; at < length; at += scratch.length) {
            int n = Math.min(scratch.length, length - at);
            buffer.getBytes(offset + at, scratch, 0, n);
            digest.update(scratch, 0, n);
        }
        return this;
    }

    /** Ends the MAC; it lies in the returned array (owned by this instance, valid until the next MAC). */
    public byte[] finish() {
        try {
            digest.digest(inner, 0, LENGTH);
            digest.update(outerPad);
            digest.update(inner);
            digest.digest(result, 0, LENGTH);
        } catch (DigestException e) {
            throw new IllegalStateException(e);
        }
        return result;
    }

    /** The MAC of {@code length} bytes of {@code buffer} from {@code offset} (owned by this instance, see {@link #finish}). */
    public byte[] mac(DirectBuffer buffer, int offset, int length) {
        return start().update(buffer, offset, length).finish();
    }

    /**
     * Whether the {@code tagLength} bytes of {@code buffer} at {@code tagOffset} are the first bytes of the MAC of
     * {@code length} bytes from {@code offset}, compared in constant time.
     */
    public boolean verify(DirectBuffer buffer, int offset, int length, int tagOffset, int tagLength) {
        byte[] mac = mac(buffer, offset, length);
        int difference = 0;
        for (int i = 0; i < tagLength; i++) {
            difference |= mac[i] ^ buffer.getByte(tagOffset + i);
        }
        return difference == 0;
    }
}
