package io.blit.queue;

import io.blit.core.TriviallyCopyable;

/**
 * The queue's reference message, a market-data tick: two longs and sixteen doubles, a 144-byte field block.
 *
 * <p>Integrity convention used by the demo and tests: for message number {@code n},
 * {@code securityId = n} and double field {@code i} (0..15 in declaration order) {@code = n + i / 16.0}.
 */
public final class MarketData extends TriviallyCopyable {
    public long securityId;
    public long time;
    public double bidQty0, bidQty1, bidQty2, bidQty3;
    public double askQty0, askQty1, askQty2, askQty3;
    public double bidPrice0, bidPrice1, bidPrice2, bidPrice3;
    public double askPrice0, askPrice1, askPrice2, askPrice3;

    /** Fills every field from the message number {@code n} as the class comment describes. */
    public MarketData fillFor(long n, long timeNanos) {
        securityId = n;
        time = timeNanos;
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

    /** Whether every field holds what {@link #fillFor} wrote for message {@code n} (time excepted). */
    public boolean isConsistentFor(long n) {
        double[] values = {bidQty0, bidQty1, bidQty2, bidQty3, askQty0, askQty1, askQty2, askQty3,
            bidPrice0, bidPrice1, bidPrice2, bidPrice3, askPrice0, askPrice1, askPrice2, askPrice3};
        if (securityId != n) {
            return false;
        }
        for (int i = 0; i < values.length; i++) {
            if (values[i] != n + i / 16.0) {
                return false;
            }
        }
        return true;
    }
}
