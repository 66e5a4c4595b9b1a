package io.blit.replication.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The envelope of every message after the challenge, both ways: a sequence number and a tag under the session's key
 * of that direction ({@link Sealer}). The sequence starts at 0 (the source's ACCEPT or REFUSE; the replica's CONFIRM)
 * and grows by one per message; a receiver drops, and counts, a message whose tag fails or whose sequence is not
 * above the last one it took, and never acts on it.
 *
 * <pre>
 * 0    | type u32              | aux u32 (per type: flags, entry count) |
 * 8    | sequence u64                                                   |
 * 16   | body (per type; in an encrypted BATCH, AES-GCM ciphertext)     |
 * L-16 | tag (16): AES-GCM's of bytes [16, L-16) with bytes [0, 16) as additional data ({@link Sealer}) |
 * </pre>
 *
 * Messages are encoded into and decoded from buffers that wrap a whole byte array at offset 0.
 */
public final class Session {
    public static final int AUX_AT = 4;
    public static final int SEQUENCE_AT = 8;
    public static final int BODY_AT = 16;
    /** The shortest session message: head and tag. */
    public static final int MIN_LENGTH = BODY_AT + Sealer.TAG;

    private Session() {
    }

    /** Writes the head of a session message. */
    public static void head(MutableDirectBuffer buffer, int type, int aux, long sequence) {
        buffer.putInt(0, type, Wire.ORDER);
        buffer.putInt(AUX_AT, aux, Wire.ORDER);
        buffer.putLong(SEQUENCE_AT, sequence, Wire.ORDER);
    }

    /** Appends the tag to the {@code length} bytes of a message; returns the sealed length. */
    public static int seal(UnsafeBuffer buffer, int length, Sealer sealer) {
        sealer.sign(buffer.byteArray(), 0, BODY_AT, length, sequence(buffer));
        return length + Sealer.TAG;
    }

    /** Encrypts the body of the {@code length} bytes of a message and appends the tag; returns the sealed length. */
    public static int sealEncrypted(UnsafeBuffer buffer, int length, Sealer sealer) {
        sealer.encrypt(buffer.byteArray(), 0, BODY_AT, length, sequence(buffer));
        return length + Sealer.TAG;
    }

    /** Whether a sealed message of {@code length} bytes (at least {@link #MIN_LENGTH}) carries its tag. */
    public static boolean open(UnsafeBuffer buffer, int length, Sealer sealer) {
        return sealer.verify(buffer.byteArray(), 0, BODY_AT, length - Sealer.TAG, sequence(buffer));
    }

    /** Whether an encrypted message's tag holds; if it does, its body is decrypted in place. */
    public static boolean openEncrypted(UnsafeBuffer buffer, int length, Sealer sealer) {
        return sealer.decrypt(buffer.byteArray(), 0, BODY_AT, length - Sealer.TAG, sequence(buffer));
    }

    public static long sequence(DirectBuffer buffer) {
        return buffer.getLong(SEQUENCE_AT, Wire.ORDER);
    }

    public static int aux(DirectBuffer buffer) {
        return buffer.getInt(AUX_AT, Wire.ORDER);
    }
}
