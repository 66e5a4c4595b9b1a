package io.blit.stress;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.record.RecordCursor;
import io.blit.queue.internal.record.RecordProtocol;

/**
 * The claim of {@code Appender.append}, in the order it takes the record protocol's steps: the in-place claim of
 * its common case ({@link RecordProtocol#tryClaimInPlace}: the record fits and its word is free), and where that
 * fails the general claim ({@link RecordProtocol#claim}: skip the records others won, pad at the file's end). The
 * jcstress actors claim through this so that they race the calls production makes, in production's order.
 */
final class AppendSteps {
    private AppendSteps() {
    }

    /**
     * Claims at or after {@code cursor} with {@code claimWord}, padding with the claimer's padding word where the
     * record does not fit.
     *
     * @return true if claimed (the cursor holds the claim); false if the file is full
     */
    static boolean claim(RecordCursor cursor, long claimWord) {
        long recordLength = RecordHeader.recordLength(RecordHeader.length(claimWord));
        return RecordProtocol.tryClaimInPlace(cursor, claimWord, recordLength)
                || RecordProtocol.claim(cursor, claimWord, RecordHeader.padding(RecordHeader.claimer(claimWord)));
    }
}
