package io.blit.replication.wire;

import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * POSITIONS, source to replica in the stream, sequence 1 on: the committed positions of up to {@value #MAX_ENTRIES}
 * of the source's named consumers (docs/replication.md, "Named consumers"). A source sends an entry for each consumer
 * whose position or state changed since it last sent it in the session (every consumer at the start of a session), at
 * most every 100 ms, in as many messages as it takes: each entry stands alone, so the replica applies every message
 * as it comes. Protected as the session's batches are (sealed; encrypted if the session is).
 *
 * <pre>
 * 0    | type u32 = 9 | entry count n u32 (1 to 64)  |
 * 8    | sequence u64                                |
 * 16   | n entries of 56 bytes:                      |
 *      |   +0  committed i64: -1 (none) or an index  |
 *      |   +8  last commit i64: epoch ms (0: never)  |
 *      |   +16 state u32: 1 named, 2 removed         |
 *      |   +20 name length u32 (1 to 32)             |
 *      |   +24 name (32): [A-Za-z0-9._-], zero-padded |
 * 16+56n | tag (16)                                  |
 * </pre>
 *
 * {@link #check} checks the whole message (count against length, every entry's state, name and index) before the
 * replica applies any entry of it.
 */
public final class Positions {
    /** The most entries a message carries: 3,616 bytes with head and tag, below every batch limit. */
    public static final int MAX_ENTRIES = 64;
    public static final int ENTRY_LENGTH = 56;
    public static final int NAME_BYTES = 32;
    /** {@link #state}: the consumer exists with this position. */
    public static final int NAMED = 1;
    /** {@link #state}: the consumer was removed. */
    public static final int REMOVED = 2;
    static final int COMMITTED_AT = 0;
    static final int TIME_AT = 8;
    static final int STATE_AT = 16;
    static final int NAME_LENGTH_AT = 20;
    public static final int NAME_AT = 24;

    private Positions() {
    }

    /** {@return the length of a message of {@code count} entries, tag included} */
    public static int length(int count) {
        return Session.BODY_AT + count * ENTRY_LENGTH + Sealer.TAG;
    }

    /** {@return the offset of entry {@code i}} */
    public static int entryAt(int i) {
        return Session.BODY_AT + i * ENTRY_LENGTH;
    }

    /**
     * Writes entry {@code i}'s fields other than its name bytes, which the caller copies to {@code entryAt(i) + NAME_AT}
     * (32 bytes, zero-padded).
     */
    public static void putEntry(MutableDirectBuffer buffer, int i, long committed, long lastCommitMillis, int state,
                                int nameLength) {
        int at = entryAt(i);
        buffer.putLong(at + COMMITTED_AT, committed, Wire.ORDER);
        buffer.putLong(at + TIME_AT, lastCommitMillis, Wire.ORDER);
        buffer.putInt(at + STATE_AT, state, Wire.ORDER);
        buffer.putInt(at + NAME_LENGTH_AT, nameLength, Wire.ORDER);
    }

    /** Writes the head of a message of {@code count} entries; returns its length before the tag. */
    public static int head(MutableDirectBuffer buffer, long sequence, int count) {
        Session.head(buffer, Wire.POSITIONS, count, sequence);
        return length(count) - Sealer.TAG;
    }

    /**
     * Null if the {@code length} bytes are a well-formed POSITIONS message, else what is wrong: a sequence of 1 on, an
     * entry count of 1 to {@value #MAX_ENTRIES} matching the length, and in every entry a state of {@link #NAMED} or
     * {@link #REMOVED}, a committed index of -1 or more, a name length of 1 to 32, name bytes of
     * {@code [A-Za-z0-9._-]} and zero padding.
     */
    public static String check(DirectBuffer buffer, int length) {
        if (length < Session.MIN_LENGTH || Session.sequence(buffer) <= 0) {
            return "a positions message of " + length + " bytes, or of sequence 0";
        }
        int count = Session.aux(buffer);
        if (count < 1 || count > MAX_ENTRIES || length != length(count)) {
            return "a positions message of " + length + " bytes stating " + count + " entries";
        }
        for (int i = 0; i < count; i++) {
            int at = entryAt(i);
            int state = buffer.getInt(at + STATE_AT, Wire.ORDER);
            if (state != NAMED && state != REMOVED) {
                return "a position of state " + state;
            }
            if (buffer.getLong(at + COMMITTED_AT, Wire.ORDER) < -1) {
                return "a position below -1";
            }
            int nameLength = buffer.getInt(at + NAME_LENGTH_AT, Wire.ORDER);
            if (nameLength < 1 || nameLength > NAME_BYTES) {
                return "a consumer name of " + nameLength + " bytes";
            }
            for (int b = 0; b < NAME_BYTES; b++) {
                byte c = buffer.getByte(at + NAME_AT + b);
                if (b < nameLength ? !nameByte(c) : c != 0) {
                    return "a consumer name with byte " + (c & 0xff) + " at " + b;
                }
            }
        }
        return null;
    }

    private static boolean nameByte(byte c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-';
    }

    /** {@return the entry count of a {@link #check checked} message} */
    public static int count(DirectBuffer buffer) {
        return Session.aux(buffer);
    }

    /** {@return entry {@code i}'s committed index} */
    public static long committed(DirectBuffer buffer, int i) {
        return buffer.getLong(entryAt(i) + COMMITTED_AT, Wire.ORDER);
    }

    /** {@return entry {@code i}'s last commit time, epoch ms} */
    public static long lastCommitMillis(DirectBuffer buffer, int i) {
        return buffer.getLong(entryAt(i) + TIME_AT, Wire.ORDER);
    }

    /** {@return entry {@code i}'s state: {@link #NAMED} or {@link #REMOVED}} */
    public static int state(DirectBuffer buffer, int i) {
        return buffer.getInt(entryAt(i) + STATE_AT, Wire.ORDER);
    }

    /** {@return entry {@code i}'s name (of a {@link #check checked} message)} */
    public static String name(DirectBuffer buffer, int i) {
        int at = entryAt(i);
        byte[] name = new byte[buffer.getInt(at + NAME_LENGTH_AT, Wire.ORDER)];
        buffer.getBytes(at + NAME_AT, name);
        return new String(name, StandardCharsets.US_ASCII);
    }
}
