package io.blit.replication;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The replication protocol's messages (docs/replication.md, "Protocol"). Every integer is little-endian; every
 * message starts with its type (u32). Replica to source, on the control channel: {@link #SUBSCRIBE} (signed) and
 * {@link #ACK}. Source to replica, on a publication to the replica's data channel: {@link #ACCEPT} and
 * {@link #REFUSE} (signed, echoing the replica's nonce), then {@link #BATCH}es and {@link #HEARTBEAT}s.
 */
final class Wire {
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    static final int VERSION = 2;

    static final int SUBSCRIBE = 1;
    static final int ACCEPT = 2;
    static final int REFUSE = 3;
    static final int BATCH = 4;
    static final int HEARTBEAT = 5;
    static final int ACK = 6;

    /** SUBSCRIBE: type, version, replica id, nonce, next index, flags, then data channel, header, descriptor, MAC. */
    static final int SUB_VERSION = 4;
    static final int SUB_REPLICA = 8;
    static final int SUB_NONCE = 16;
    static final int NONCE_LENGTH = 16;
    static final int SUB_NEXT = 32;
    static final int SUB_FLAGS = 40;
    static final int SUB_VARIABLE = 44;
    static final int FLAG_SYNC = 1;

    /** ACCEPT: type, pad, replica id, start index, session id, pad, nonce, MAC over all before it. */
    static final int ACC_REPLICA = 8;
    static final int ACC_START = 16;
    static final int ACC_SESSION = 24;
    static final int ACC_NONCE = 32;
    static final int ACC_SIGNED = 48;

    /** REFUSE: type, pad, replica id, nonce, reason (length-prefixed UTF-8), MAC. */
    static final int REF_REPLICA = 8;
    static final int REF_NONCE = 16;
    static final int REF_REASON = 32;

    /** BATCH: type, entry count, then entries, each 8-aligned. */
    static final int BATCH_COUNT = 4;
    static final int BATCH_ENTRIES = 8;
    static final int ENTRY_FILE = 1;
    static final int ENTRY_RECORD = 2;
    /** A record entry: kind, payload length, index, header word, payload. */
    static final int RECORD_INDEX = 8;
    static final int RECORD_WORD = 16;
    static final int RECORD_PAYLOAD = 24;
    /** A file entry: kind, header length, header bytes. */
    static final int FILE_BYTES = 8;
    /** A run entry: kind, record count, first index, file offset, length, the records' bytes as stored. */
    static final int ENTRY_RUN = 3;
    static final int RUN_INDEX = 8;
    static final int RUN_POSITION = 16;
    static final int RUN_LENGTH = 24;
    static final int RUN_BYTES = 32;

    /** HEARTBEAT: type, pad, the source's next index to send. ACK: type, pad, replica id, committed, forced. */
    static final int HB_NEXT = 8;
    static final int HEARTBEAT_LENGTH = 16;
    static final int ACK_REPLICA = 8;
    static final int ACK_COMMITTED = 16;
    static final int ACK_FORCED = 24;
    static final int ACK_LENGTH = 32;

    private Wire() {
    }

    static int align8(int length) {
        return (length + 7) & ~7;
    }

    /**
     * The offset after the batch entry at {@code at}.
     *
     * @throws IllegalArgumentException if the entry's kind is unknown or it does not end by {@code limit}
     */
    static int entryEnd(DirectBuffer buffer, int at, int limit) {
        int kind = at + FILE_BYTES <= limit ? buffer.getInt(at, ORDER) : -1;
        if (kind == -1 || (kind == ENTRY_RUN && at + RUN_BYTES > limit)) {
            throw new IllegalArgumentException("a batch entry at " + at + " past the message's end " + limit);
        }
        long end = switch (kind) {
            case ENTRY_FILE -> at + (long) FILE_BYTES + align8(buffer.getInt(at + 4, ORDER));
            case ENTRY_RECORD -> at + (long) RECORD_PAYLOAD + align8(buffer.getInt(at + 4, ORDER));
            case ENTRY_RUN -> at + RUN_BYTES + buffer.getLong(at + RUN_LENGTH, ORDER);
            default -> throw new IllegalArgumentException("a batch entry of unknown kind " + kind);
        };
        if (end < at || end > limit) {
            throw new IllegalArgumentException("a batch entry at " + at + " ends at " + end + ", past the message's end "
                    + limit);
        }
        return (int) end;
    }

    /** Writes {@code bytes} length-prefixed at {@code offset}; returns the offset after them. */
    static int putBytes(MutableDirectBuffer buffer, int offset, byte[] bytes) {
        byte[] b = bytes == null ? new byte[0] : bytes;
        buffer.putInt(offset, b.length, ORDER);
        buffer.putBytes(offset + 4, b);
        return offset + 4 + b.length;
    }

    /** The length-prefixed bytes at {@code offset} (check {@link #bytesEnd} against the message's length first). */
    static byte[] getBytes(DirectBuffer buffer, int offset) {
        byte[] bytes = new byte[buffer.getInt(offset, ORDER)];
        buffer.getBytes(offset + 4, bytes);
        return bytes;
    }

    /** The offset after the length-prefixed bytes at {@code offset}, or -1 if they do not end by {@code limit}. */
    static int bytesEnd(DirectBuffer buffer, int offset, int limit) {
        if (offset + 4 > limit) {
            return -1;
        }
        int length = buffer.getInt(offset, ORDER);
        return length < 0 || offset + 4L + length > limit ? -1 : offset + 4 + length;
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
