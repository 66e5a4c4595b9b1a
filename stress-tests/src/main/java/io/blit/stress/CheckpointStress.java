package io.blit.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.record.Checkpoints;
import io.blit.queue.internal.record.RecordCursor;
import io.blit.queue.internal.record.RecordProtocol;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Checkpoint publication: a reader that finds a checkpoint also finds the record it points at claimed.
 *
 * <p>The appender claims ordinal 4096 (the first with a checkpoint slot) at {@link #POSITION} as
 * {@code Appender} does ({@link AppendSteps#claim}: the record protocol's claim CASes the header word, then
 * release-stores the slot) and commits it with {@link RecordProtocol#commit}. The reader does what {@code queue.tailerFromEnd()} does: {@link Checkpoints#nearest} (acquire loads
 * of the slots) finds the highest written slot, {@link Checkpoints#position} its record, and the header
 * word there is loaded with acquire. Seeing slot 1 but an empty word would make a tailer take a claimed
 * record for the end of the queue.
 *
 * <p>Result: r1 = the slot the reader found (0: none written, it falls back to the records' start, where
 * nothing is written in this test), r2 = the state of the header word at the slot's position (-1: the slot
 * points elsewhere than the claimed record), r3 = the slot's position as read back by the arbiter (1 if it
 * is the claimed record's, else -1).
 */
@JCStressTest
@Description("A written checkpoint slot implies its record's header word is visible (CAS, then release store; acquire loads).")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "The slot was not visible yet; the reader starts at the (empty) records' start.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "The slot and the CLAIMED word it points at.")
@Outcome(id = "1, 2, 1", expect = ACCEPTABLE, desc = "The slot and the COMMITTED word it points at.")
@Outcome(expect = FORBIDDEN, desc = "A slot visible before its record's claim, or pointing elsewhere.")
@State
public class CheckpointStress {
    /** A record position other than the records' start, so that slot 0's fallback reads an unrelated (empty) word. */
    private static final long POSITION = SegmentFormat.RECORDS_START + 64;
    private static final long ORDINAL = SegmentFormat.CHECKPOINT_INTERVAL;
    private static final long WORD = RecordHeader.claimed(ProcessHandle.current().pid(), 16);

    private final SharedImages.Image image = SharedImages.acquire();
    private final RecordCursor cursor = RecordCursor.in(image.writer(), POSITION, ORDINAL);

    @Actor
    public void appender() {
        if (AppendSteps.claim(cursor, WORD)) {
            RecordProtocol.commit(cursor, WORD);
        }
    }

    @Actor
    public void tailerFromEnd(III_Result r) {
        int slot = Checkpoints.nearest(image.reader().segment(), Long.MAX_VALUE);
        long position = Checkpoints.position(image.reader(), slot);
        long word = RecordHeader.loadAcquire(image.reader().segment(), position);
        r.r1 = slot;
        r.r2 = slot == 0 || position == POSITION ? (int) RecordHeader.state(word) : -1;
    }

    @Arbiter
    public void arbiter(III_Result r) {
        int slot = Checkpoints.nearest(image.reader().segment(), Long.MAX_VALUE);
        r.r3 = slot == 1 && Checkpoints.position(image.reader(), slot) == POSITION ? 1 : -1;
        SharedImages.release(image);
    }
}
