package io.blit.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.record.RecordCursor;
import io.blit.queue.internal.record.RecordProtocol;
import java.lang.foreign.MemorySegment;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Claim: two appenders (as two processes: pids 1 and 2, each through its own mapping of the file) race to
 * claim the same tail, the first record of an empty file, as {@code Appender} does ({@link AppendSteps#claim}:
 * {@link RecordProtocol#tryClaimInPlace}, then {@link RecordProtocol#claim}). Their records differ in length (24 and 40 payload bytes), so the loser must skip
 * exactly the winner's record. Exactly one gets ordinal 0, the other ordinal 1 right behind it; both
 * header words are CLAIMED with their claimer's pid and length; nothing is lost or owned twice.
 *
 * <p>Result: r1, r2 = the ordinal appender 1 / 2 claimed (-1: claim failed; -2: its cursor's position is
 * not where that ordinal's record starts); r3, r4 = the pid in the header word of ordinal 0 / 1, found by
 * walking the headers as a tailer does (-1: that word is not a CLAIMED word of that pid's length).
 */
@JCStressTest
@Description("Two appenders claiming the same tail get distinct, adjacent ordinals (compare-and-set of the header word).")
@Outcome(id = "0, 1, 1, 2", expect = ACCEPTABLE, desc = "Appender 1 won the tail; appender 2 claimed the record after it.")
@Outcome(id = "1, 0, 2, 1", expect = ACCEPTABLE, desc = "Appender 2 won the tail; appender 1 claimed the record after it.")
@Outcome(expect = FORBIDDEN, desc = "An ordinal owned twice or lost, a wrong position, or a header word overwritten.")
@State
public class ClaimStress {
    private static final long START = SegmentFormat.RECORDS_START;
    private static final int LENGTH_1 = 24;
    private static final int LENGTH_2 = 40;
    private static final long WORD_1 = RecordHeader.claimed(1, LENGTH_1);
    private static final long WORD_2 = RecordHeader.claimed(2, LENGTH_2);

    private final SharedImages.Image image = SharedImages.acquire();
    private final RecordCursor cursor1 = RecordCursor.in(image.writer(), START, 0);
    private final RecordCursor cursor2 = RecordCursor.in(image.reader(), START, 0);

    @Actor
    public void appender1(IIII_Result r) {
        r.r1 = claim(cursor1, WORD_1, LENGTH_2);
    }

    @Actor
    public void appender2(IIII_Result r) {
        r.r2 = claim(cursor2, WORD_2, LENGTH_1);
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        MemorySegment file = image.reader().segment();
        long first = RecordHeader.loadAcquire(file, START);
        r.r3 = claimerOf(first);
        long second = RecordHeader.loadAcquire(file, START + RecordHeader.recordLength(RecordHeader.length(first)));
        r.r4 = claimerOf(second);
        SharedImages.release(image);
    }

    /** Claims with {@code word}; returns the ordinal got, checked against the position (the other record is {@code otherLength}). */
    private static int claim(RecordCursor cursor, long word, int otherLength) {
        if (!AppendSteps.claim(cursor, word)) {
            return -1;
        }
        long ordinal = cursor.ordinal();
        long expected = ordinal == 0 ? START : START + RecordHeader.recordLength(otherLength);
        return cursor.position() == expected ? (int) ordinal : -2;
    }

    private static int claimerOf(long word) {
        return word == WORD_1 ? 1 : word == WORD_2 ? 2 : -1;
    }
}
