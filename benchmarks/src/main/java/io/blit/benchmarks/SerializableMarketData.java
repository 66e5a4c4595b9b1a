package io.blit.benchmarks;

import io.blit.tools.messages.MarketData;

import java.io.Serial;
import java.io.Serializable;

/**
 * {@link MarketData}'s 18 fields in a plain {@link Serializable} class, the way a user writes a DTO for
 * JDK serialisation: no custom {@code writeObject}, the JDK reflects over the fields. Standalone (no
 * superclass) so that the stream carries one class descriptor, as in the published comparison.
 * Not thread-safe.
 */
public final class SerializableMarketData implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    public long securityId;
    public long time;
    public double bidQty0, bidQty1, bidQty2, bidQty3;
    public double askQty0, askQty1, askQty2, askQty3;
    public double bidPrice0, bidPrice1, bidPrice2, bidPrice3;
    public double askPrice0, askPrice1, askPrice2, askPrice3;

    /** A copy of {@code m}'s fields. */
    public static SerializableMarketData of(MarketData m) {
        SerializableMarketData d = new SerializableMarketData();
        d.securityId = m.securityId;
        d.time = m.time;
        d.bidQty0 = m.bidQty0;
        d.bidQty1 = m.bidQty1;
        d.bidQty2 = m.bidQty2;
        d.bidQty3 = m.bidQty3;
        d.askQty0 = m.askQty0;
        d.askQty1 = m.askQty1;
        d.askQty2 = m.askQty2;
        d.askQty3 = m.askQty3;
        d.bidPrice0 = m.bidPrice0;
        d.bidPrice1 = m.bidPrice1;
        d.bidPrice2 = m.bidPrice2;
        d.bidPrice3 = m.bidPrice3;
        d.askPrice0 = m.askPrice0;
        d.askPrice1 = m.askPrice1;
        d.askPrice2 = m.askPrice2;
        d.askPrice3 = m.askPrice3;
        return d;
    }

    /** This DTO's fields as a {@link MarketData}, for round-trip checks. */
    public MarketData toMarketData() {
        MarketData m = new MarketData();
        m.securityId = securityId;
        m.time = time;
        m.bidQty0 = bidQty0;
        m.bidQty1 = bidQty1;
        m.bidQty2 = bidQty2;
        m.bidQty3 = bidQty3;
        m.askQty0 = askQty0;
        m.askQty1 = askQty1;
        m.askQty2 = askQty2;
        m.askQty3 = askQty3;
        m.bidPrice0 = bidPrice0;
        m.bidPrice1 = bidPrice1;
        m.bidPrice2 = bidPrice2;
        m.bidPrice3 = bidPrice3;
        m.askPrice0 = askPrice0;
        m.askPrice1 = askPrice1;
        m.askPrice2 = askPrice2;
        m.askPrice3 = askPrice3;
        return m;
    }
}
