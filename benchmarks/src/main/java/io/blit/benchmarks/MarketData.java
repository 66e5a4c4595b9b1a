package io.blit.benchmarks;

import io.blit.core.TriviallyCopyable;

/**
 * The benchmarks' copy of the reference message: two longs and sixteen doubles, a 144-byte field
 * block. It mirrors {@code io.blit.tools.messages.MarketData} field for field; the benchmarks keep their own
 * because no module may depend on the queue demo.
 *
 * <p>All fields are 8 bytes wide, so HotSpot keeps them in declaration order in every header mode:
 * the block is {@code securityId, time, bidQty0..3, askQty0..3, bidPrice0..3, askPrice0..3}.
 * Not thread-safe; each benchmark thread owns its instance.
 */
public final class MarketData extends TriviallyCopyable {
    public long securityId;
    public long time;
    public double bidQty0, bidQty1, bidQty2, bidQty3;
    public double askQty0, askQty1, askQty2, askQty3;
    public double bidPrice0, bidPrice1, bidPrice2, bidPrice3;
    public double askPrice0, askPrice1, askPrice2, askPrice3;

    /** Fills every field with a distinct value derived from {@code n}, so that misplaced bytes show. */
    public MarketData fillFor(long n) {
        securityId = n;
        time = n * 1_000;
        bidQty0 = n;
        bidQty1 = n + 1 / 16.0;
        bidQty2 = n + 2 / 16.0;
        bidQty3 = n + 3 / 16.0;
        askQty0 = n + 4 / 16.0;
        askQty1 = n + 5 / 16.0;
        askQty2 = n + 6 / 16.0;
        askQty3 = n + 7 / 16.0;
        bidPrice0 = n + 8 / 16.0;
        bidPrice1 = n + 9 / 16.0;
        bidPrice2 = n + 10 / 16.0;
        bidPrice3 = n + 11 / 16.0;
        askPrice0 = n + 12 / 16.0;
        askPrice1 = n + 13 / 16.0;
        askPrice2 = n + 14 / 16.0;
        askPrice3 = n + 15 / 16.0;
        return this;
    }
}
