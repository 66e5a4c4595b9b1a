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
 * A layout change ending a file under a running appender: appender A (of the old layouts) claims the record at
 * ordinal 5, in the middle of the file, as {@code Appender} does ({@link AppendSteps#claim}); appender B (of new
 * layouts) ends the file there with {@link RecordProtocol#endFile}, which CASes a padding word into the first free word.
 * Either A's record comes first and the file ends after it, or the padding word does and A gives up at it; in both
 * cases A and B agree where the next file starts (this file's first index plus the ordinal they stop at): A's record
 * is never after the padding word, and no index is left between A's last record and the next file.
 *
 * <p>Result: r1 = 1 if A claimed, 0 if it gave up; r2 = A's ordinal (claimed, or where it gave up); r3 = the ordinal
 * endFile returned (the next file's first index less this file's); r4 = what a tailer walking from ordinal 5 finds
 * (arbiter): 1 = B's padding at once, 2 = A's record then B's padding, -1 anything else.
 */
@JCStressTest
@Description("Ending a file for a layout change and a claim exclude each other; both stop at the same index.")
@Outcome(id = "0, 5, 5, 1", expect = ACCEPTABLE, desc = "B ended the file first: A gives up at ordinal 5, where B's next file starts.")
@Outcome(id = "1, 5, 6, 2", expect = ACCEPTABLE, desc = "A claimed ordinal 5; B ended the file after it, at 6.")
@Outcome(expect = FORBIDDEN, desc = "A claim after the padding word, or A and B stopping at different indices.")
@State
public class LayoutChangeEndStress {
    private static final long ORDINAL = 5;
    private static final long POSITION = SegmentFormat.RECORDS_START + 5 * 32;
    private static final long WORD_A = RecordHeader.claimed(1, 0, 24);
    private static final long PADDING_B = RecordHeader.padding(2);

    private final SharedImages.Image image = SharedImages.acquire();
    private final RecordCursor cursorA = RecordCursor.in(image.writer(), POSITION, ORDINAL);
    private final RecordCursor cursorB = RecordCursor.in(image.reader(), POSITION, ORDINAL);

    @Actor
    public void oldLayoutAppender(IIII_Result r) {
        r.r1 = AppendSteps.claim(cursorA, WORD_A) ? 1 : 0;
        r.r2 = (int) cursorA.ordinal();
    }

    @Actor
    public void newLayoutAppender(IIII_Result r) {
        r.r3 = (int) RecordProtocol.endFile(cursorB, 2); // the cursor's file starts at index 0
    }

    @Arbiter
    public void arbiter(IIII_Result r) {
        MemorySegment file = image.reader().segment();
        long first = RecordHeader.loadAcquire(file, POSITION);
        if (first == PADDING_B) {
            r.r4 = 1;
        } else if (first == WORD_A) {
            long second = RecordHeader.loadAcquire(file, POSITION + RecordHeader.recordLength(RecordHeader.length(first)));
            r.r4 = second == PADDING_B ? 2 : -1;
        } else {
            r.r4 = -1;
        }
        SharedImages.release(image);
    }
}
