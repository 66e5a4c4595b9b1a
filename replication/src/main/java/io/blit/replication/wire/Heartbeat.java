package io.blit.replication.wire;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * HEARTBEAT, source to replica when there is nothing to send for 100 ms: the index the source sends next.
 *
 * <pre>
 * 0   | type u32 = 7 | zero u32 |
 * 8   | sequence u64            |
 * 16  | next index u64          |
 * 24  | tag (16)                |
 * 40
 * </pre>
 */
public final class Heartbeat {
    public static final int LENGTH = 40;
    static final int NEXT_AT = 16;

    private Heartbeat() {
    }

    public static int encode(UnsafeBuffer buffer, long sequence, long next, Sealer sealer) {
        Session.head(buffer, Wire.HEARTBEAT, 0, sequence);
        buffer.putLong(NEXT_AT, next, Wire.ORDER);
        return Session.seal(buffer, LENGTH - Sealer.TAG, sealer);
    }

    public static boolean wellFormed(DirectBuffer buffer, int length) {
        return length == LENGTH;
    }

    /** {@return the index the source sends next, as sent (unchecked): its end when it sent it} */
    public static long next(DirectBuffer buffer) {
        return buffer.getLong(NEXT_AT, Wire.ORDER);
    }
}
