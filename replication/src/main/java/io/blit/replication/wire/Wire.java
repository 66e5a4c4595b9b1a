package io.blit.replication.wire;

import java.nio.ByteOrder;

/**
 * The replication protocol, version 7 (docs/replication.md, "Protocol"): message types and what every message shares.
 * Each message has one class here that both encodes and decodes it, with its byte diagram: {@link Subscribe},
 * {@link Challenge} (the handshake, HMAC-signed under keys derived from the secret), then the session messages in
 * the {@link Session} envelope (a sequence number and a tag under the session's keys): {@link Confirm},
 * {@link Accept}, {@link Refuse}, {@link Batch}, {@link Heartbeat}, {@link Positions}, {@link Ack}.
 *
 * <p>Every integer is little-endian; every message starts with its type (u32). Decoders take a message copied into a
 * buffer of their own at offset 0 (what was checked is what is used: the bytes cannot change between the check and
 * the use) and check every length, count and offset against the message's length before they read what it bounds.
 * A check that fails returns a reason (a constant: nothing is allocated for a bad message).
 */
public final class Wire {
    public static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    /** The protocol version in SUBSCRIBE and CHALLENGE. */
    public static final int VERSION = 7;

    public static final int SUBSCRIBE = 1;
    public static final int CHALLENGE = 2;
    public static final int CONFIRM = 3;
    public static final int ACCEPT = 4;
    public static final int REFUSE = 5;
    public static final int BATCH = 6;
    public static final int HEARTBEAT = 7;
    public static final int ACK = 8;
    public static final int POSITIONS = 9;

    /** The queue id of a replica that holds none yet (a fresh directory, or one written before queues had ids). */
    public static final java.util.UUID NO_QUEUE = new java.util.UUID(0, 0);

    /**
     * The most terms a SUBSCRIBE or ACCEPT carries: the newest of a history (a term begins at each promotion; a
     * history longer than this finds what two copies share among its newest terms, or shares nothing).
     */
    public static final int MAX_TERMS = 64;

    /** Bytes of a nonce (SUBSCRIBE's, the replica's; CHALLENGE's, the source's). */
    public static final int NONCE = 16;
    /**
     * The largest message a replica takes: above any batch (at most 1 MiB + 4,120 bytes; a record longer than the room
     * in a batch comes in parts).
     */
    public static final int MAX_MESSAGE = 4 << 20;
    /** The largest message a source takes on its control endpoint (a SUBSCRIBE with the largest header and layout). */
    public static final int MAX_CONTROL_MESSAGE = 16 << 10;
    /**
     * How far a SUBSCRIBE's time may lie from the source's clock, either way: a captured request is taken at most
     * once while its source runs (the source remembers the nonces it took) and never after this long, so that a
     * restart of the source, which forgets them, reopens no older request to replay. Clocks of source and replicas
     * must agree within it (NTP).
     */
    public static final long FRESHNESS_MILLIS = 30_000;

    private Wire() {
    }

    /** The type of a message of {@code length} bytes, or -1 if it is too short to have one. */
    public static int type(org.agrona.DirectBuffer buffer, int offset, int length) {
        return length < Integer.BYTES ? -1 : buffer.getInt(offset, ORDER);
    }

    public static int align8(int length) {
        return (length + 7) & ~7;
    }
}
