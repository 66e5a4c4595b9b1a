package io.blit.replication.wire;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * ACCEPT, source to replica, sequence 0 of the source's direction: the stream starts at {@code start}; flag 1 says
 * that every BATCH of the session is encrypted.
 *
 * <pre>
 * 0   | type u32 = 4 | flags u32: 1 encrypted |
 * 8   | sequence u64 = 0                      |
 * 16  | start index u64                       |
 * 24  | tag (16)                              |
 * 40
 * </pre>
 */
public final class Accept {
    public static final int LENGTH = 40;
    public static final int FLAG_ENCRYPTED = 1;
    static final int START_AT = 16;

    private Accept() {
    }

    public static int encode(UnsafeBuffer buffer, long start, boolean encrypted, Sealer sealer) {
        Session.head(buffer, Wire.ACCEPT, encrypted ? FLAG_ENCRYPTED : 0, 0);
        buffer.putLong(START_AT, start, Wire.ORDER);
        return Session.seal(buffer, LENGTH - Sealer.TAG, sealer);
    }

    public static boolean wellFormed(DirectBuffer buffer, int length) {
        return length == LENGTH && buffer.getLong(START_AT, Wire.ORDER) >= 0
                && (Session.aux(buffer) & ~FLAG_ENCRYPTED) == 0;
    }

    public static long start(DirectBuffer buffer) {
        return buffer.getLong(START_AT, Wire.ORDER);
    }

    public static boolean encrypted(DirectBuffer buffer) {
        return (Session.aux(buffer) & FLAG_ENCRYPTED) != 0;
    }
}
