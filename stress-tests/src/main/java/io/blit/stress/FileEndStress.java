package io.blit.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.blit.queue.internal.format.RecordHeader;
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
 * The end of a file: a claim racing a padding word. Near the end of the file, at {@link #POSITION}
 * (ordinal 5), appender A needs a record that does not fit in the rest of the file, so its claim (as
 * {@code Appender}'s: {@link AppendSteps#claim}) CASes a padding word there in {@link RecordProtocol#claim};
 * appender B's small record fits, and its in-place claim ({@link RecordProtocol#tryClaimInPlace}) races that CAS. Whoever wins
 * the word, nobody may claim after a padding word, and both must roll to the SAME next file: its first
 * index is this file's first index plus the ordinal at which each one's claim gave up. Two different
 * answers would create two next files, i.e. a gap or a duplicated index.
 *
 * <p>Result: r1 = A's cursor ordinal when it gave up (A never fits); r2 = 1 if B claimed, 0 if it gave up;
 * r3 = B's ordinal (claimed, or where it gave up); r4 = what a tailer walking from {@link #POSITION} finds
 * (arbiter): 1 = padding by A at once, 2 = B's record then padding by A, -1 anything else.
 */
@JCStressTest
@Description("A claim and a padding word at a file's end exclude each other; both appenders roll to the same next file.")
@Outcome(id = "5, 0, 5, 1", expect = ACCEPTABLE, desc = "A padded first: both roll at ordinal 5 (next file's first index = first + 5).")
@Outcome(id = "6, 1, 5, 2", expect = ACCEPTABLE, desc = "B claimed the file's last record (5); A padded after it and rolls at 6.")
@Outcome(expect = FORBIDDEN, desc = "A claim after padding, a claim past the end, or two different next files.")
@State
public class FileEndStress {
    private static final long ORDINAL = 5;
    /** 64 bytes before the end: B's 32-byte record fits, then A's padding word fits, A's record never does. */
    private static final long POSITION = SharedImages.IMAGE_SIZE - 64;
    private static final long WORD_A = RecordHeader.claimed(1, 100);
    private static final long WORD_B = RecordHeader.claimed(2, 24);
    private static final long PADDING_A = RecordHeader.padding(1);

    private final SharedImages.Image image = SharedImages.acquire();
    private final RecordCursor cursorA = RecordCursor.in(image.writer(), POSITION, ORDINAL);
    private final RecordCursor cursorB = RecordCursor.in(image.reader(), POSITION, ORDINAL);

    @Actor
    public void appenderA(IIII_Result r) {
        boolean claimed = AppendSteps.claim(cursorA, WORD_A);
        r.r1 = claimed ? -1 : (int) cursorA.ordinal();
    }

    @Actor
    public void appenderB(IIII_Result r) {
        r.r2 = AppendSteps.claim(cursorB, WORD_B) ? 1 : 0;
        r.r3 = (int) cursorB.ordinal();
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        MemorySegment file = image.reader().segment();
        long first = RecordHeader.loadAcquire(file, POSITION);
        if (first == PADDING_A) {
            r.r4 = 1;
        } else if (first == WORD_B) {
            long second = RecordHeader.loadAcquire(file, POSITION + RecordHeader.recordLength(RecordHeader.length(first)));
            r.r4 = second == PADDING_A ? 2 : -1;
        } else {
            r.r4 = -1;
        }
        SharedImages.release(image);
    }
}
