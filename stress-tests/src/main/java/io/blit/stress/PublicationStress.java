package io.blit.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.blit.core.BlockCopier;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.record.RecordCursor;
import io.blit.queue.internal.record.RecordProtocol;
import io.blit.tools.messages.MarketData;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Publication: a reader sees a record either not at all or whole.
 *
 * <p>The appender claims the first record of an empty file as {@code Appender} does ({@link AppendSteps#claim}),
 * writes a {@link MarketData} (144 bytes: two longs and sixteen doubles, all derived from one number n unique to
 * this state) through its mapping with {@link MarketData#writeTo} (the copy of {@code Appender}'s common case: the
 * class's default {@link BlockCopier}), and commits it with {@link RecordProtocol#commit} (a release store of the
 * header word). The tailer, through the other mapping of the same file, loads the header word with acquire and,
 * if it is COMMITTED, reads the payload with {@link MarketData#readFrom}, as {@code Tailer.readNext} does: every
 * one of the 18 fields must then hold n's value.
 *
 * <p>Result: r1 = the state the tailer saw (0 empty, 1 CLAIMED, 2 COMMITTED), r2 = how many of the 18
 * fields it read hold n's value (-1: not read), r3 = the final state of the word (arbiter; must be 2).
 */
@JCStressTest
@Description("A tailer sees a record not at all or whole, never torn (release store / acquire load of the header word).")
@Outcome(id = "0, -1, 2", expect = ACCEPTABLE, desc = "The tailer came first: the header word was still empty.")
@Outcome(id = "1, -1, 2", expect = ACCEPTABLE, desc = "Claimed but not yet committed: nothing to read yet.")
@Outcome(id = "2, 18, 2", expect = ACCEPTABLE, desc = "Committed: the whole record, every field as written.")
@Outcome(expect = FORBIDDEN, desc = "Torn or lost: a committed record with stale fields, or a wrong final word.")
@State
public class PublicationStress {
    private static final BlockCopier<MarketData> COPIER = BlockCopier.of(MarketData.class);
    private static final int LENGTH = (int) COPIER.byteSize();
    private static final long POSITION = SegmentFormat.RECORDS_START;
    private static final long WORD = RecordHeader.claimed(ProcessHandle.current().pid(), LENGTH);
    /** Gives each state its own n (from 1: zeroed memory never looks like a whole record). */
    private static final AtomicLong NUMBERS = new AtomicLong();

    private final SharedImages.Image image = SharedImages.acquire();
    private final long n = NUMBERS.incrementAndGet();
    private final MarketData message = new MarketData().fillFor(n, n);
    private final MarketData into = new MarketData();
    private final RecordCursor cursor = RecordCursor.in(image.writer(), POSITION, 0);

    @Actor
    public void appender() {
        if (AppendSteps.claim(cursor, WORD)) {
            message.writeTo(image.writer().segment(), cursor.payloadPosition());
            RecordProtocol.commit(cursor, WORD);
        }
    }

    @Actor
    public void tailer(III_Result r) {
        MemorySegment file = image.reader().segment();
        long word = RecordHeader.loadAcquire(file, POSITION);
        r.r1 = (int) RecordHeader.state(word);
        r.r2 = -1;
        if (RecordHeader.state(word) == RecordHeader.STATE_COMMITTED && !RecordHeader.isPadding(word)
                && image.reader().checkedLength(word, POSITION) == LENGTH) {
            into.readFrom(file, POSITION + RecordHeader.LENGTH);
            r.r2 = fieldsHolding(into, n);
        }
    }

    @Arbiter
    public void arbiter(III_Result r) {
        long word = RecordHeader.loadAcquire(image.reader().segment(), POSITION);
        r.r3 = word == RecordHeader.committed(WORD) ? (int) RecordHeader.state(word) : -1;
        SharedImages.release(image);
    }

    /** How many of the 18 fields of {@code m} hold what {@link MarketData#fillFor}(n, n) wrote. */
    static int fieldsHolding(MarketData m, long n) {
        double[] values = {m.bidQty0, m.bidQty1, m.bidQty2, m.bidQty3, m.askQty0, m.askQty1, m.askQty2, m.askQty3,
            m.bidPrice0, m.bidPrice1, m.bidPrice2, m.bidPrice3, m.askPrice0, m.askPrice1, m.askPrice2, m.askPrice3};
        int holding = (m.securityId == n ? 1 : 0) + (m.time == n ? 1 : 0);
        for (int i = 0; i < values.length; i++) {
            holding += values[i] == n + i / 16.0 ? 1 : 0;
        }
        return holding;
    }
}
