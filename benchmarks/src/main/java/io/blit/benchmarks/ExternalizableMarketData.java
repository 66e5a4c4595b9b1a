package io.blit.benchmarks;

import io.blit.tools.messages.MarketData;

import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;

/**
 * {@link MarketData}'s 18 fields in an {@link Externalizable} class with hand-written
 * {@link #writeExternal}/{@link #readExternal}, the JDK's documented way to take field encoding away
 * from reflection. The stream still carries the class descriptor and block-data framing. Standalone
 * (no superclass); the public no-arg constructor is what {@code ObjectInputStream} requires.
 * Not thread-safe.
 */
public final class ExternalizableMarketData implements Externalizable {
    public long securityId;
    public long time;
    public double bidQty0, bidQty1, bidQty2, bidQty3;
    public double askQty0, askQty1, askQty2, askQty3;
    public double bidPrice0, bidPrice1, bidPrice2, bidPrice3;
    public double askPrice0, askPrice1, askPrice2, askPrice3;

    /** For {@code ObjectInputStream}. */
    public ExternalizableMarketData() {
    }

    /** A copy of {@code m}'s fields. */
    public static ExternalizableMarketData of(MarketData m) {
        ExternalizableMarketData d = new ExternalizableMarketData();
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

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
        out.writeLong(securityId);
        out.writeLong(time);
        out.writeDouble(bidQty0);
        out.writeDouble(bidQty1);
        out.writeDouble(bidQty2);
        out.writeDouble(bidQty3);
        out.writeDouble(askQty0);
        out.writeDouble(askQty1);
        out.writeDouble(askQty2);
        out.writeDouble(askQty3);
        out.writeDouble(bidPrice0);
        out.writeDouble(bidPrice1);
        out.writeDouble(bidPrice2);
        out.writeDouble(bidPrice3);
        out.writeDouble(askPrice0);
        out.writeDouble(askPrice1);
        out.writeDouble(askPrice2);
        out.writeDouble(askPrice3);
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException {
        securityId = in.readLong();
        time = in.readLong();
        bidQty0 = in.readDouble();
        bidQty1 = in.readDouble();
        bidQty2 = in.readDouble();
        bidQty3 = in.readDouble();
        askQty0 = in.readDouble();
        askQty1 = in.readDouble();
        askQty2 = in.readDouble();
        askQty3 = in.readDouble();
        bidPrice0 = in.readDouble();
        bidPrice1 = in.readDouble();
        bidPrice2 = in.readDouble();
        bidPrice3 = in.readDouble();
        askPrice0 = in.readDouble();
        askPrice1 = in.readDouble();
        askPrice2 = in.readDouble();
        askPrice3 = in.readDouble();
    }
}
