package io.blit.replication.wire;

import io.blit.queue.TermHistory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * SUBSCRIBE, replica to source on the control endpoint: who the replica is, what it holds, where it receives, and
 * when it asked. Sent again every 0.5 s with the same nonce for one attempt (the replica's source timeout), then with
 * a fresh nonce, until a CHALLENGE answers it; signed (HMAC-SHA256 under {@link Keys#subscribeKey}) so that the source
 * spends nothing on a request from a peer without the secret. A valid MAC does not make a request fresh (it may be a
 * replay): the source takes a request only if its time is within {@code Wire.FRESHNESS_MILLIS} of its own clock and
 * its nonce new to it, and answers it only with a CHALLENGE to the data endpoint the request names, which only the
 * replica that chose the nonce can answer.
 *
 * <pre>
 * 0    | type u32 = 1               | version u32 = 5                         |
 * 8    | replica id u64                                                       |
 * 16   | replica nonce (16 bytes)                                             |
 * 32   | next index i64: the replica holds every index below it; -1: no file |
 * 40   | flags u32: 1 sync, 2 encrypt, no other bit | endpoint length u16 (E) | source length u16 (S) |
 * 48   | header length u32 (H)      | descriptor length u32 (D)               |
 * 56   | time i64: the replica's wall clock when it sent the request, ms since 1970 (UTC)  |
 * 64   | queue id (16): the queue the replica holds (most, then least significant 64 bits); zero: none yet |
 * 80   | term count u32 (T)         | reserved u32 = 0                        |
 * 88   | data endpoint, ASCII host:port (E) | source (S) | newest file header (H) | expected type layouts (D) |
 * 88+E+S+H+D | T terms of 24 bytes: number u64, first index u64, origin u64 (the replica's newest, oldest first) |
 * 88+E+S+H+D+24T | HMAC-SHA256 of every byte before it (32)                 |
 * </pre>
 *
 * E and S are at most {@link #MAX_ENDPOINT}, H and D at most 4096 each (0: none). The source is the control endpoint
 * the replica sends to, in {@code Endpoint.canonical} form: with the queue id it names the one source the request is
 * meant for, and both are bound into the session's keys ({@link Keys#session}), so that a request forwarded to
 * another source (another queue, or the next link of a chain) is dropped there, and no answer from another source
 * can be opened by the replica. D is the {@link io.blit.queue.TypeLayouts}
 * encoding of the message types the replica expects (a type count, then each type's id and layout descriptor).
 * The terms are the newest {@link Wire#MAX_TERMS} (or fewer) of the replica's term history, none if it holds no queue
 * yet: numbers strictly increasing, first indices not decreasing; the source finds from them where the replica's
 * records stop being its own ({@code TermHistory.sharedEnd}).
 */
public final class Subscribe {
    public static final int FLAG_SYNC = 1;
    public static final int FLAG_ENCRYPT = 2;
    static final int KNOWN_FLAGS = FLAG_SYNC | FLAG_ENCRYPT;
    public static final int MAX_ENDPOINT = 300;
    public static final int MAX_BLOB = 4096;
    static final int VERSION_AT = 4;
    static final int REPLICA_AT = 8;
    static final int NONCE_AT = 16;
    static final int NEXT_AT = 32;
    static final int FLAGS_AT = 40;
    static final int ENDPOINT_LENGTH_AT = 44;
    static final int HEADER_LENGTH_AT = 48;
    static final int DESCRIPTOR_LENGTH_AT = 52;
    static final int TIME_AT = 56;
    static final int QUEUE_AT = 64;
    static final int TERM_COUNT_AT = 80;
    static final int VARIABLE_AT = 88;
    static final int MIN_LENGTH = VARIABLE_AT + HmacSha256.LENGTH;

    /**
     * What a request says, once its MAC held; {@code time} in ms since 1970 (UTC), by the replica's clock;
     * {@code queueId} {@link Wire#NO_QUEUE} if the replica holds no queue id yet; {@code source} the control endpoint
     * the replica sends to, canonical.
     */
    public record Request(long replicaId, byte[] nonce, long nextIndex, int flags, String endpoint,
                          byte[] newestHeader, byte[] expectedDescriptor, long time, UUID queueId, String source,
                          List<TermHistory.Term> terms) {
        public boolean sync() {
            return (flags & FLAG_SYNC) != 0;
        }

        public boolean encrypt() {
            return (flags & FLAG_ENCRYPT) != 0;
        }
    }

    private Subscribe() {
    }

    /** Encodes {@code request} signed with {@code mac} at offset 0; returns its length. */
    public static int encode(MutableDirectBuffer buffer, Request request, HmacSha256 mac) {
        byte[] endpoint = request.endpoint().getBytes(StandardCharsets.US_ASCII);
        byte[] source = request.source().getBytes(StandardCharsets.US_ASCII);
        byte[] header = request.newestHeader() == null ? new byte[0] : request.newestHeader();
        byte[] descriptor = request.expectedDescriptor() == null ? new byte[0] : request.expectedDescriptor();
        if (endpoint.length > MAX_ENDPOINT || source.length > MAX_ENDPOINT || header.length > MAX_BLOB || descriptor.length > MAX_BLOB) {
            throw new IllegalArgumentException("a subscribe request's endpoints, header or layout are too long");
        }
        if (request.terms().size() > Wire.MAX_TERMS) {
            throw new IllegalArgumentException("a subscribe request names at most " + Wire.MAX_TERMS + " terms");
        }
        buffer.putInt(0, Wire.SUBSCRIBE, Wire.ORDER);
        buffer.putInt(VERSION_AT, Wire.VERSION, Wire.ORDER);
        buffer.putLong(REPLICA_AT, request.replicaId(), Wire.ORDER);
        buffer.putBytes(NONCE_AT, request.nonce());
        buffer.putLong(NEXT_AT, request.nextIndex(), Wire.ORDER);
        buffer.putInt(FLAGS_AT, request.flags(), Wire.ORDER);
        buffer.putShort(ENDPOINT_LENGTH_AT, (short) endpoint.length, Wire.ORDER);
        buffer.putShort(ENDPOINT_LENGTH_AT + 2, (short) source.length, Wire.ORDER);
        buffer.putInt(HEADER_LENGTH_AT, header.length, Wire.ORDER);
        buffer.putInt(DESCRIPTOR_LENGTH_AT, descriptor.length, Wire.ORDER);
        buffer.putLong(TIME_AT, request.time(), Wire.ORDER);
        buffer.putLong(QUEUE_AT, request.queueId().getMostSignificantBits(), Wire.ORDER);
        buffer.putLong(QUEUE_AT + 8, request.queueId().getLeastSignificantBits(), Wire.ORDER);
        buffer.putInt(TERM_COUNT_AT, request.terms().size(), Wire.ORDER);
        buffer.putInt(TERM_COUNT_AT + 4, 0, Wire.ORDER);
        int at = VARIABLE_AT;
        buffer.putBytes(at, endpoint);
        at += endpoint.length;
        buffer.putBytes(at, source);
        at += source.length;
        buffer.putBytes(at, header);
        at += header.length;
        buffer.putBytes(at, descriptor);
        at += descriptor.length;
        at = Terms.encode(buffer, at, request.terms());
        buffer.putBytes(at, mac.mac(buffer, 0, at), 0, HmacSha256.LENGTH);
        return at + HmacSha256.LENGTH;
    }

    /** Null if the message of {@code length} bytes at offset 0 is a well-formed request of this version, else why not. */
    public static String check(DirectBuffer buffer, int length) {
        if (length < MIN_LENGTH || length > Wire.MAX_CONTROL_MESSAGE) {
            return "a subscribe request of a wrong length";
        }
        if (buffer.getInt(VERSION_AT, Wire.ORDER) != Wire.VERSION) {
            return "a subscribe request of another protocol version";
        }
        int endpoint = buffer.getShort(ENDPOINT_LENGTH_AT, Wire.ORDER) & 0xFFFF;
        int source = buffer.getShort(ENDPOINT_LENGTH_AT + 2, Wire.ORDER) & 0xFFFF;
        int header = buffer.getInt(HEADER_LENGTH_AT, Wire.ORDER);
        int descriptor = buffer.getInt(DESCRIPTOR_LENGTH_AT, Wire.ORDER);
        int terms = buffer.getInt(TERM_COUNT_AT, Wire.ORDER);
        if (endpoint == 0 || endpoint > MAX_ENDPOINT || source == 0 || source > MAX_ENDPOINT || header < 0
                || header > MAX_BLOB || descriptor < 0 || descriptor > MAX_BLOB || terms < 0 || terms > Wire.MAX_TERMS
                || VARIABLE_AT + endpoint + source + header + descriptor + Terms.LENGTH * terms + HmacSha256.LENGTH
                != length) {
            return "a subscribe request whose lengths do not add up";
        }
        if (buffer.getInt(TERM_COUNT_AT + 4, Wire.ORDER) != 0) {
            return "a subscribe request with a reserved field set";
        }
        String badTerms = Terms.check(buffer, VARIABLE_AT + endpoint + source + header + descriptor, terms);
        if (badTerms != null) {
            return "a subscribe request with " + badTerms;
        }
        if ((buffer.getInt(FLAGS_AT, Wire.ORDER) & ~KNOWN_FLAGS) != 0) {
            return "a subscribe request with flags this version does not define";
        }
        return null;
    }

    /** The protocol version a request of at least 8 bytes states. */
    public static int version(DirectBuffer buffer) {
        return buffer.getInt(VERSION_AT, Wire.ORDER);
    }

    /** Whether a {@link #check checked} request is signed with {@code mac}'s key (constant-time comparison). */
    public static boolean signed(DirectBuffer buffer, int length, HmacSha256 mac) {
        int signed = length - HmacSha256.LENGTH;
        return mac.verify(buffer, 0, signed, signed, HmacSha256.LENGTH);
    }

    /** The replica id and nonce of a checked request, without decoding the rest. */
    public static long replicaId(DirectBuffer buffer) {
        return buffer.getLong(REPLICA_AT, Wire.ORDER);
    }

    /** The time a checked request states, without decoding the rest. */
    public static long time(DirectBuffer buffer) {
        return buffer.getLong(TIME_AT, Wire.ORDER);
    }

    /**
     * Whether a checked request's time lies within {@link Wire#FRESHNESS_MILLIS} of {@code nowMillis} either way.
     * {@code nowMillis} is a clock's reading (ms since 1970), far from overflow; the request's time may be anything.
     */
    public static boolean fresh(DirectBuffer buffer, long nowMillis) {
        long time = time(buffer);
        return time >= nowMillis - Wire.FRESHNESS_MILLIS && time <= nowMillis + Wire.FRESHNESS_MILLIS;
    }

    /** Whether the checked request's nonce equals {@code nonce}. */
    public static boolean hasNonce(DirectBuffer buffer, byte[] nonce) {
        for (int i = 0; i < Wire.NONCE; i++) {
            if (buffer.getByte(NONCE_AT + i) != nonce[i]) {
                return false;
            }
        }
        return true;
    }

    /** Decodes a checked and signed request. */
    public static Request decode(DirectBuffer buffer, int length) {
        int endpoint = buffer.getShort(ENDPOINT_LENGTH_AT, Wire.ORDER) & 0xFFFF;
        int source = buffer.getShort(ENDPOINT_LENGTH_AT + 2, Wire.ORDER) & 0xFFFF;
        int header = buffer.getInt(HEADER_LENGTH_AT, Wire.ORDER);
        int descriptor = buffer.getInt(DESCRIPTOR_LENGTH_AT, Wire.ORDER);
        byte[] nonce = new byte[Wire.NONCE];
        buffer.getBytes(NONCE_AT, nonce);
        byte[] endpointBytes = new byte[endpoint];
        buffer.getBytes(VARIABLE_AT, endpointBytes);
        byte[] sourceBytes = new byte[source];
        buffer.getBytes(VARIABLE_AT + endpoint, sourceBytes);
        byte[] headerBytes = new byte[header];
        buffer.getBytes(VARIABLE_AT + endpoint + source, headerBytes);
        byte[] descriptorBytes = new byte[descriptor];
        buffer.getBytes(VARIABLE_AT + endpoint + source + header, descriptorBytes);
        return new Request(buffer.getLong(REPLICA_AT, Wire.ORDER), nonce, buffer.getLong(NEXT_AT, Wire.ORDER),
                buffer.getInt(FLAGS_AT, Wire.ORDER), new String(endpointBytes, StandardCharsets.US_ASCII),
                header == 0 ? null : headerBytes, descriptor == 0 ? null : descriptorBytes,
                buffer.getLong(TIME_AT, Wire.ORDER), queueId(buffer),
                new String(sourceBytes, StandardCharsets.US_ASCII),
                Terms.decode(buffer, VARIABLE_AT + endpoint + source + header + descriptor,
                        buffer.getInt(TERM_COUNT_AT, Wire.ORDER)));
    }

    /**
     * Whether a checked request names one of {@code names} (each the ASCII bytes of a canonical endpoint) as the
     * source it is meant for. Allocates nothing.
     */
    public static boolean meantFor(DirectBuffer buffer, byte[][] names) {
        int endpoint = buffer.getShort(ENDPOINT_LENGTH_AT, Wire.ORDER) & 0xFFFF;
        int source = buffer.getShort(ENDPOINT_LENGTH_AT + 2, Wire.ORDER) & 0xFFFF;
        int at = VARIABLE_AT + endpoint;
        for (byte[] name : names) {
            if (name.length == source && equalAt(buffer, at, name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean equalAt(DirectBuffer buffer, int at, byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (buffer.getByte(at + i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /** The queue id a checked request states ({@link Wire#NO_QUEUE}: none), without decoding the rest. */
    public static UUID queueId(DirectBuffer buffer) {
        return new UUID(buffer.getLong(QUEUE_AT, Wire.ORDER), buffer.getLong(QUEUE_AT + 8, Wire.ORDER));
    }
}
