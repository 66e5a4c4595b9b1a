package io.blit.replication.wire;

import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;
import org.agrona.DirectBuffer;

/**
 * HMAC-SHA256 (RFC 2104) under one key: the JDK's {@link Mac} ({@code HmacSHA256}), computed into arrays this
 * instance owns, so that verifying a message allocates nothing and a flood of forged requests costs the receiver
 * hashing time and no garbage. Tags are compared in constant time.
 *
 * <p>Not thread-safe: one instance per thread.
 */
public final class HmacSha256 {
    /** Bytes of a full HMAC-SHA256. */
    public static final int LENGTH = 32;

    private final Mac mac;
    private final byte[] result = new byte[LENGTH];
    private final byte[] scratch = new byte[4096];

    /** An HMAC under {@code key} (any length, as RFC 2104 allows; an empty key too). */
    public HmacSha256(byte[] key) {
        try {
            mac = Mac.getInstance("HmacSHA256");
            // SecretKeySpec refuses an empty key; an HMAC under the empty key is the one under a single 0 byte
            // (RFC 2104 pads the key with zeros to the block size), which is what an HKDF salt of no bytes gives
            mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JDK", e);
        }
    }

    /** Starts a MAC; feed it with {@link #update} and end it with {@link #finish}. */
    public HmacSha256 start() {
        mac.reset();
        return this;
    }

    public HmacSha256 update(byte[] bytes, int offset, int length) {
        mac.update(bytes, offset, length);
        return this;
    }

    /** Feeds {@code length} bytes of {@code buffer} from {@code offset} (through a reused array unless it wraps one). */
    public HmacSha256 update(DirectBuffer buffer, int offset, int length) {
        byte[] array = buffer.byteArray();
        if (array != null) {
            mac.update(array, (int) (buffer.wrapAdjustment() + offset), length);
            return this;
        }
        for (int at = 0; at < length; at += scratch.length) {
            int n = Math.min(scratch.length, length - at);
            buffer.getBytes(offset + at, scratch, 0, n);
            mac.update(scratch, 0, n);
        }
        return this;
    }

    /** Ends the MAC; it lies in the returned array (owned by this instance, valid until the next MAC). */
    public byte[] finish() {
        try {
            mac.doFinal(result, 0);
        } catch (ShortBufferException e) {
            throw new IllegalStateException(e);
        }
        return result;
    }

    /** The MAC of {@code length} bytes of {@code buffer} from {@code offset} (owned by this instance, see {@link #finish}). */
    public byte[] mac(DirectBuffer buffer, int offset, int length) {
        return start().update(buffer, offset, length).finish();
    }

    /** A copy of the MAC of {@code bytes}. */
    public byte[] macOf(byte[]... parts) {
        start();
        for (byte[] part : parts) {
            update(part, 0, part.length);
        }
        return finish().clone();
    }

    /**
     * Whether the {@code tagLength} bytes of {@code buffer} at {@code tagOffset} are the first bytes of the MAC of
     * {@code length} bytes from {@code offset}, compared in constant time.
     *
     * @throws IllegalArgumentException if {@code tagLength} is not in [1, {@value #LENGTH}]
     */
    public boolean verify(DirectBuffer buffer, int offset, int length, int tagOffset, int tagLength) {
        if (tagLength < 1 || tagLength > LENGTH) {
            throw new IllegalArgumentException("tag length " + tagLength + " outside [1, " + LENGTH + "]");
        }
        byte[] computed = mac(buffer, offset, length);
        int difference = 0; // every byte compared, whatever differs: the time tells nothing of where
        for (int i = 0; i < tagLength; i++) {
            difference |= computed[i] ^ buffer.getByte(tagOffset + i);
        }
        return difference == 0;
    }
}
