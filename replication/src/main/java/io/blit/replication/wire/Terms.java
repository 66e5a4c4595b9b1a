package io.blit.replication.wire;

import io.blit.queue.TermHistory;
import java.util.ArrayList;
import java.util.List;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The terms a handshake message carries (SUBSCRIBE: the replica's newest; ACCEPT: the source's newest), 24 bytes
 * each: number u64, first index u64, origin u64, oldest first. Checked before decoding: numbers and first indices
 * from 0, numbers strictly increasing, first indices not decreasing (what {@link TermHistory} holds).
 */
final class Terms {
    static final int LENGTH = 24;

    private Terms() {
    }

    /** Writes {@code terms} at {@code at}; returns the offset after them. */
    static int encode(MutableDirectBuffer buffer, int at, List<TermHistory.Term> terms) {
        for (TermHistory.Term term : terms) {
            buffer.putLong(at, term.number(), Wire.ORDER);
            buffer.putLong(at + 8, term.firstIndex(), Wire.ORDER);
            buffer.putLong(at + 16, term.origin(), Wire.ORDER);
            at += LENGTH;
        }
        return at;
    }

    /** Null if the {@code count} terms at {@code at} (within bounds already checked) are in order, else what is wrong. */
    static String check(DirectBuffer buffer, int at, int count) {
        long number = -1;
        long first = 0;
        for (int i = 0; i < count; i++, at += LENGTH) {
            long nextNumber = buffer.getLong(at, Wire.ORDER);
            long nextFirst = buffer.getLong(at + 8, Wire.ORDER);
            if (nextNumber <= number || nextFirst < first) {
                return "terms out of order";
            }
            number = nextNumber;
            first = nextFirst;
        }
        return null;
    }

    /** Decodes {@code count} {@link #check checked} terms at {@code at}. */
    static List<TermHistory.Term> decode(DirectBuffer buffer, int at, int count) {
        List<TermHistory.Term> terms = new ArrayList<>(count);
        for (int i = 0; i < count; i++, at += LENGTH) {
            terms.add(new TermHistory.Term(buffer.getLong(at, Wire.ORDER), buffer.getLong(at + 8, Wire.ORDER),
                    buffer.getLong(at + 16, Wire.ORDER)));
        }
        return List.copyOf(terms);
    }
}
