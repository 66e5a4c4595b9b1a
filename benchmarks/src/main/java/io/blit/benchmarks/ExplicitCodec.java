package io.blit.benchmarks;

import io.blit.tools.messages.MarketData;

import java.nio.ByteBuffer;

/**
 * The "explicit" format: one relative {@code putLong}/{@code putDouble} per field at the buffer's
 * moving position, in declaration order, as a user of a streaming buffer writes it by hand. Callers
 * rewind ({@code clear()}/{@code rewind()}) before and {@code flip()} after, as with any
 * {@link ByteBuffer}. Shared by {@link MarketDataFormatsBenchmark} and {@link SerializedSizes}.
 * Stateless; the buffer and message are the caller's.
 */
final class ExplicitCodec {
    private ExplicitCodec() {
    }

    /** Puts {@code m}'s 18 fields at {@code buffer}'s position, advancing it. */
    static void write(MarketData m, ByteBuffer buffer) {
        buffer.putLong(m.securityId);
        buffer.putLong(m.time);
        buffer.putDouble(m.bidQty0);
        buffer.putDouble(m.bidQty1);
        buffer.putDouble(m.bidQty2);
        buffer.putDouble(m.bidQty3);
        buffer.putDouble(m.askQty0);
        buffer.putDouble(m.askQty1);
        buffer.putDouble(m.askQty2);
        buffer.putDouble(m.askQty3);
        buffer.putDouble(m.bidPrice0);
        buffer.putDouble(m.bidPrice1);
        buffer.putDouble(m.bidPrice2);
        buffer.putDouble(m.bidPrice3);
        buffer.putDouble(m.askPrice0);
        buffer.putDouble(m.askPrice1);
        buffer.putDouble(m.askPrice2);
        buffer.putDouble(m.askPrice3);
    }

    /** Gets {@code m}'s 18 fields from {@code buffer}'s position, advancing it. */
    static void read(ByteBuffer buffer, MarketData m) {
        m.securityId = buffer.getLong();
        m.time = buffer.getLong();
        m.bidQty0 = buffer.getDouble();
        m.bidQty1 = buffer.getDouble();
        m.bidQty2 = buffer.getDouble();
        m.bidQty3 = buffer.getDouble();
        m.askQty0 = buffer.getDouble();
        m.askQty1 = buffer.getDouble();
        m.askQty2 = buffer.getDouble();
        m.askQty3 = buffer.getDouble();
        m.bidPrice0 = buffer.getDouble();
        m.bidPrice1 = buffer.getDouble();
        m.bidPrice2 = buffer.getDouble();
        m.bidPrice3 = buffer.getDouble();
        m.askPrice0 = buffer.getDouble();
        m.askPrice1 = buffer.getDouble();
        m.askPrice2 = buffer.getDouble();
        m.askPrice3 = buffer.getDouble();
    }
}
