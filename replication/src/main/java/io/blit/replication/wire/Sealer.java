package io.blit.replication.wire;

import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals and opens the session messages of one direction (the envelope: {@link Session}) under that direction's
 * AES-256 key, with the message's sequence number as the GCM nonce — unique per key, because a key lives for one
 * session and the sequence only grows.
 *
 * <ul>
 *   <li>authenticated: the tag is the GMAC (AES-GCM with no plaintext) of every byte before it;</li>
 *   <li>encrypted: the body is AES-GCM ciphertext, the 16-byte envelope head its additional data, the tag GCM's.</li>
 * </ul>
 *
 * The JDK's AES-GCM (AES-NI/VAES and carry-less multiply intrinsics where the CPU has them) is the only primitive;
 * no dependency. Not thread-safe: one instance per thread and direction.
 */
public final class Sealer {
    /** Bytes of a tag. */
    public static final int TAG = 16;
    private static final int TAG_BITS = TAG * 8;

    private final SecretKeySpec key;
    private final Cipher cipher;
    private final byte[] iv = new byte[12];
    private final byte[] tag = new byte[TAG];

    /** A sealer under {@code key} (32 bytes, see {@link Keys#session}). */
    public Sealer(byte[] key) {
        this.key = new SecretKeySpec(key, "AES");
        try {
            this.cipher = Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM is not available in this JDK", e);
        }
    }

    /**
     * Appends the tag of {@code bytes[offset, offset + length)} (authenticated, not encrypted) at {@code offset + length}.
     */
    public void sign(byte[] bytes, int offset, int length, long sequence) {
        try {
            cipher.init(Cipher.ENCRYPT_MODE, key, spec(sequence));
            cipher.updateAAD(bytes, offset, length);
            cipher.doFinal(bytes, offset + length, 0, bytes, offset + length);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot seal a replication message", e);
        }
    }

    /** Whether the {@link #TAG} bytes after {@code bytes[offset, offset + length)} are its tag under {@code sequence}. */
    public boolean verify(byte[] bytes, int offset, int length, long sequence) {
        try {
            cipher.init(Cipher.DECRYPT_MODE, key, spec(sequence));
            cipher.updateAAD(bytes, offset, length);
            cipher.doFinal(bytes, offset + length, TAG, tag, 0);
            return true;
        } catch (AEADBadTagException forged) {
            return false;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot open a replication message", e);
        }
    }

    /**
     * Encrypts {@code bytes[offset + head, offset + length)} in place, with {@code head} bytes from {@code offset} as
     * additional data, and appends the tag at {@code offset + length}.
     */
    public void encrypt(byte[] bytes, int offset, int head, int length, long sequence) {
        try {
            cipher.init(Cipher.ENCRYPT_MODE, key, spec(sequence));
            cipher.updateAAD(bytes, offset, head);
            cipher.doFinal(bytes, offset + head, length - head, bytes, offset + head);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot encrypt a replication message", e);
        }
    }

    /**
     * Decrypts in place what {@link #encrypt} sealed ({@code length} excludes the tag): whether the tag held. When it
     * did not, the body is left as it was.
     */
    public boolean decrypt(byte[] bytes, int offset, int head, int length, long sequence, byte[] scratch) {
        try {
            cipher.init(Cipher.DECRYPT_MODE, key, spec(sequence));
            cipher.updateAAD(bytes, offset, head);
            int body = length - head;
            cipher.doFinal(bytes, offset + head, body + TAG, scratch, 0);
            System.arraycopy(scratch, 0, bytes, offset + head, body);
            return true;
        } catch (AEADBadTagException forged) {
            return false;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot decrypt a replication message", e);
        }
    }

    private GCMParameterSpec spec(long sequence) {
        for (int i = 0; i < 8; i++) {
            iv[4 + i] = (byte) (sequence >>> (8 * i));
        }
        return new GCMParameterSpec(TAG_BITS, iv);
    }
}
