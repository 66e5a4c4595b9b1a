package io.blit.replication.wire;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * ACK, replica to source on the control endpoint, sequence 1 on: the replica holds every index below
 * {@code committed} (and, in sync mode, has forced every index below {@code forced} to disk; else -1). The source
 * counts it only if its tag opens under the session's key and its sequence is above the last one taken.
 *
 * <pre>
 * 0   | type u32 = 8 | zero u32 |
 * 8   | sequence u64            |
 * 16  | replica id u64          |
 * 24  | committed i64           |
 * 32  | forced i64              |
 * 40  | tag (16)                |
 * 56
 * </pre>
 */
public final class Ack {
    public static final int LENGTH = 56;
    static final int REPLICA_AT = 16;
    static final int COMMITTED_AT = 24;
    static final int FORCED_AT = 32;

    private Ack() {
    }

    public static int encode(UnsafeBuffer buffer, long sequence, long replicaId, long committed, long forced,
                             Sealer sealer) {
        Session.head(buffer, Wire.ACK, 0, sequence);
        buffer.putLong(REPLICA_AT, replicaId, Wire.ORDER);
        buffer.putLong(COMMITTED_AT, committed, Wire.ORDER);
        buffer.putLong(FORCED_AT, forced, Wire.ORDER);
        return Session.seal(buffer, LENGTH - Sealer.TAG, sealer);
    }

    public static boolean wellFormed(DirectBuffer buffer, int length) {
        return length == LENGTH && Session.sequence(buffer) > 0;
    }

    public static long replicaId(DirectBuffer buffer) {
        return buffer.getLong(REPLICA_AT, Wire.ORDER);
    }

    public static long committed(DirectBuffer buffer) {
        return buffer.getLong(COMMITTED_AT, Wire.ORDER);
    }

    public static long forced(DirectBuffer buffer) {
        return buffer.getLong(FORCED_AT, Wire.ORDER);
    }
}
