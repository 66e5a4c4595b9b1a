package io.blit.replication.wire;

import io.blit.queue.TermHistory;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * ACCEPT, source to replica, sequence 0 of the source's direction: the stream starts at {@code start}, its
 * BATCHes are protected as {@link BatchProtection} says (0 authenticated, 1 encrypted; any other
 * value is malformed), and the source's newest terms (1 to {@link Wire#MAX_TERMS}, oldest first, in order), which the
 * replica takes into its own history where they extend it. A start below the replica's next index means that the
 * replica's records from {@code start} on are not in the source's history: a replica started with {@code rejoin} sets
 * them aside (quarantine) before it follows; any other refuses. What a replica checks of an accept before it takes
 * it: {@code io.blit.replication.ReplicaTerms}.
 *
 * <pre>
 * 0   | type u32 = 4 | batch protection u32    |
 * 8   | sequence u64 = 0                      |
 * 16  | start index u64                       |
 * 24  | term count u32 (T) | reserved u32 = 0 |
 * 32  | T terms: number u64, first index u64, origin u64 |
 * 32+24T | tag (16)                           |
 * </pre>
 */
public final class Accept {
    /** The length of an accept with the most terms. */
    public static final int MAX_LENGTH = 32 + Terms.LENGTH * Wire.MAX_TERMS + Sealer.TAG;
    static final int START_AT = 16;
    static final int TERM_COUNT_AT = 24;
    static final int TERMS_AT = 32;

    private Accept() {
    }

    /**
     * Encodes an accept into {@code buffer} (at least {@link #MAX_LENGTH} bytes) and seals it; returns its length.
     *
     * @throws IllegalArgumentException if {@code terms} is empty or longer than {@link Wire#MAX_TERMS}
     */
    public static int encode(UnsafeBuffer buffer, long start, BatchProtection protection, List<TermHistory.Term> terms,
                             Sealer sealer) {
        if (terms.isEmpty() || terms.size() > Wire.MAX_TERMS) {
            throw new IllegalArgumentException("an accept carries 1 to " + Wire.MAX_TERMS + " terms, not "
                    + terms.size());
        }
        Session.head(buffer, Wire.ACCEPT, protection.code, 0);
        buffer.putLong(START_AT, start, Wire.ORDER);
        buffer.putInt(TERM_COUNT_AT, terms.size(), Wire.ORDER);
        buffer.putInt(TERM_COUNT_AT + 4, 0, Wire.ORDER);
        return Session.seal(buffer, Terms.encode(buffer, TERMS_AT, terms), sealer);
    }

    /** Whether an opened message of {@code length} bytes is a well-formed accept (terms in order included). */
    public static boolean wellFormed(DirectBuffer buffer, int length) {
        if (length < TERMS_AT + Sealer.TAG) {
            return false;
        }
        int count = buffer.getInt(TERM_COUNT_AT, Wire.ORDER);
        return count >= 1 && count <= Wire.MAX_TERMS && length == TERMS_AT + Terms.LENGTH * count + Sealer.TAG
                && buffer.getInt(TERM_COUNT_AT + 4, Wire.ORDER) == 0 && buffer.getLong(START_AT, Wire.ORDER) >= 0
                && BatchProtection.of(Session.aux(buffer)) != null && Terms.check(buffer, TERMS_AT, count) == null;
    }

    /** The source's newest terms in a {@link #wellFormed} accept, oldest first. */
    public static List<TermHistory.Term> terms(DirectBuffer buffer) {
        return Terms.decode(buffer, TERMS_AT, buffer.getInt(TERM_COUNT_AT, Wire.ORDER));
    }

    public static long start(DirectBuffer buffer) {
        return buffer.getLong(START_AT, Wire.ORDER);
    }

    /** The batch protection of a {@link #wellFormed} accept. */
    public static BatchProtection protection(DirectBuffer buffer) {
        return BatchProtection.of(Session.aux(buffer));
    }
}
