package io.blit.replication.wire;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * ACCEPT, source to replica, sequence 0 of the source's direction: the stream starts at {@code start}, and its
 * BATCHes are protected as {@link BatchProtection} says (0 authenticated, 1 encrypted; any other
 * value is malformed).
 *
 * <pre>
 * 0   | type u32 = 4 | batch protection u32    |
 * 8   | sequence u64 = 0                      |
 * 16  | start index u64                       |
 * 24  | tag (16)                              |
 * 40
 * </pre>
 */
public final class Accept {
    public static final int LENGTH = 40;
    static final int START_AT = 16;

    private Accept() {
    }

    public static int encode(UnsafeBuffer buffer, long start, BatchProtection protection, Sealer sealer) {
        Session.head(buffer, Wire.ACCEPT, protection.code, 0);
        buffer.putLong(START_AT, start, Wire.ORDER);
        return Session.seal(buffer, LENGTH - Sealer.TAG, sealer);
    }

    public static boolean wellFormed(DirectBuffer buffer, int length) {
        return length == LENGTH && buffer.getLong(START_AT, Wire.ORDER) >= 0
                && BatchProtection.of(Session.aux(buffer)) != null;
    }

    public static long start(DirectBuffer buffer) {
        return buffer.getLong(START_AT, Wire.ORDER);
    }

    /** The batch protection of a {@link #wellFormed} accept. */
    public static BatchProtection protection(DirectBuffer buffer) {
        return BatchProtection.of(Session.aux(buffer));
    }
}
