package io.blit.replication.wire;

import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals and opens the session messages of one direction (the envelope: {@link Session}) under that direction's
 * AES-256 key, with the message's sequence number as the GCM nonce — unique per key, because a key lives for one
 * session and the sequence only grows. Each message is AES-GCM encrypted with its 16-byte head as additional data:
 *
 * <ul>
 *   <li>authenticated ({@link #sign}, {@link #verify}): the body travels as it is, followed by the GCM tag; the
 *       ciphertext is computed and withheld. The tag is GHASH of head and ciphertext masked with AES of the nonce —
 *       a Wegman–Carter MAC like GMAC, whose forgery needs GHASH's secret key — computed on the JDK's fastest path:
 *       GMAC proper (the whole message as additional data) took three times as long and allocated as many bytes as
 *       the message on JDK 25, which buffers additional data (docs/replication.md, "Security");</li>
 *   <li>encrypted ({@link #encrypt}, {@link #decrypt}): the body travels as the ciphertext, followed by the tag.</li>
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
    /** Nonces no message uses (first four bytes 0xFF), to move the cipher off a nonce whose verification failed. */
    private final byte[] resetIv = {-1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
    private long resets;
    /** Bytes of withheld ciphertext computed per call while tagging (a multiple of the AES block). */
    private static final int CHUNK = 16 << 10;
    private byte[] scratch = new byte[CHUNK + TAG];

    /** A sealer under {@code key} (32 bytes, see {@link Keys#session}). */
    public Sealer(byte[] key) {
        this.key = new SecretKeySpec(key, "AES");
        try {
            cipher = Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM is not available in this JDK", e);
        }
    }

    /**
     * Writes the tag of the {@code length} bytes at {@code offset} (a {@code head}-byte head, then the body) after
     * them; the bytes themselves are not changed.
     */
    public void sign(byte[] bytes, int offset, int head, int length, long sequence) {
        int tagAt = tagInScratch(bytes, offset, head, length, sequence, false);
        System.arraycopy(scratch, tagAt, bytes, offset + length, TAG);
    }

    /** Whether the {@link #TAG} bytes after the {@code length} bytes at {@code offset} are their tag (constant time). */
    public boolean verify(byte[] bytes, int offset, int head, int length, long sequence) {
        int tagAt = tagInScratch(bytes, offset, head, length, sequence, true);
        int difference = 0;
        for (int i = 0; i < TAG; i++) {
            difference |= scratch[tagAt + i] ^ bytes[offset + length + i];
        }
        if (difference != 0) {
            moveOff(); // the genuine message of this sequence may still come: its check must not reuse this nonce
        }
        return difference == 0;
    }

    /**
     * Computes the tag into the scratch array. Signing twice under one sequence is a caller's error (a GCM nonce must
     * never seal two messages) and throws; checking a message under the sequence just checked (which the callers'
     * sequence rules never do) moves the cipher off that nonce first instead of failing.
     */
    private int tagInScratch(byte[] bytes, int offset, int head, int length, long sequence, boolean checking) {
        try {
            Cipher cipher;
            try {
                cipher = cipher(Cipher.ENCRYPT_MODE, sequence);
            } catch (java.security.InvalidAlgorithmParameterException sameNonce) {
                if (!checking) {
                    throw sameNonce;
                }
                moveOff();
                cipher = cipher(Cipher.ENCRYPT_MODE, sequence);
            }
            cipher.updateAAD(bytes, offset, head);
            int at = offset + head;
            int end = offset + length;
            for (; end - at > CHUNK; at += CHUNK) { // the withheld ciphertext stays in a cache-sized scratch
                cipher.update(bytes, at, CHUNK, scratch, 0);
            }
            return cipher.doFinal(bytes, at, end - at, scratch, 0) - TAG;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot compute a replication message's tag", e);
        }
    }

    /**
     * Encrypts the body of the {@code length} bytes at {@code offset} (after a {@code head}-byte head, which is
     * authenticated as it is) in place and writes the tag after them.
     */
    public void encrypt(byte[] bytes, int offset, int head, int length, long sequence) {
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, sequence);
            cipher.updateAAD(bytes, offset, head);
            cipher.doFinal(bytes, offset + head, length - head, bytes, offset + head);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot encrypt a replication message", e);
        }
    }

    /**
     * Decrypts in place what {@link #encrypt} sealed ({@code length} excludes the tag): whether the tag held. When it
     * did not, the body is left as it was. A failed tag costs the JDK's {@link AEADBadTagException}.
     */
    public boolean decrypt(byte[] bytes, int offset, int head, int length, long sequence) {
        int body = length - head;
        if (scratch.length < body + TAG) {
            scratch = new byte[body + TAG];
        }
        try {
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, sequence);
            cipher.updateAAD(bytes, offset, head);
            cipher.doFinal(bytes, offset + head, body + TAG, scratch, 0);
            System.arraycopy(scratch, 0, bytes, offset + head, body);
            return true;
        } catch (AEADBadTagException forged) {
            return false;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot decrypt a replication message", e);
        }
    }

    private Cipher cipher(int mode, long sequence) throws GeneralSecurityException {
        for (int i = 0; i < 8; i++) {
            iv[4 + i] = (byte) (sequence >>> (8 * i));
        }
        cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, iv));
        return cipher;
    }

    /**
     * Initialises the cipher with a nonce no message uses: the JDK refuses to encrypt twice in a row under one key and
     * nonce, and verifying the genuine message of a sequence whose forgery just failed does exactly that. Nothing is
     * encrypted under the reset nonce.
     */
    private void moveOff() {
        resets++;
        for (int i = 0; i < 8; i++) {
            resetIv[4 + i] = (byte) (resets >>> (8 * i));
        }
        try {
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, resetIv));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot reset the replication cipher", e);
        }
    }
}
