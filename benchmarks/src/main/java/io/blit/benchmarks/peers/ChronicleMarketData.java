package io.blit.benchmarks.peers;

import io.blit.tools.messages.MarketData;
import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesMarshallable;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.bytes.BytesUtil;

/**
 * MarketData as Chronicle's documentation writes a trivially copyable message (as {@link ChronicleBookUpdate} does
 * for BookUpdate): the primitive field block of the very {@link MarketData} Blit's throughput harness appends, 144
 * bytes, copied by {@code unsafeWriteObject}/{@code unsafeReadObject} between {@code static final} bounds. Not
 * thread-safe.
 */
public final class ChronicleMarketData implements BytesMarshallable {
    static final int START = BytesUtil.triviallyCopyableStart(MarketData.class);
    /** The block's length in bytes. */
    public static final int LENGTH = BytesUtil.triviallyCopyableLength(MarketData.class);

    /** The message whose fields travel. */
    public final MarketData data = new MarketData();

    @Override
    public void writeMarshallable(BytesOut<?> bytes) {
        bytes.unsafeWriteObject(data, START, LENGTH);
    }

    @Override
    public void readMarshallable(BytesIn<?> bytes) {
        bytes.unsafeReadObject(data, START, LENGTH);
    }
}
