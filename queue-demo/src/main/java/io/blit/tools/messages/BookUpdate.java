package io.blit.tools.messages;

import io.blit.core.TriviallyCopyable;

/**
 * An order-book update with five levels a side, the trivially copyable message of the end-to-end latency
 * comparison (two services passing order-book updates through a memory-mapped queue): symbol and exchange packed into longs by
 * {@link SymbolCodec}, then sequence, intended send time and 5 × (price, quantity) per side — 4 longs and 20
 * doubles, a 192-byte field block that Blit copies in one sweep. {@link NormalBookUpdate} is its twin as a
 * "normal" Java object.
 *
 * <p>Deterministic content of message {@code n} ({@link #fillFor}, checked by {@link #isConsistentFor}, used by
 * {@code produce --type book} and {@code check --type book}): symbol {@value #SYMBOL}, exchange
 * {@value #EXCHANGE}, {@code sequence = n}, and for level {@code i} (0..4): {@code bidPrice_i = n + i/32.0},
 * {@code bidQty_i = n + (5 + i)/32.0}, {@code askPrice_i = n + (10 + i)/32.0}, {@code askQty_i = n + (15 + i)/32.0}
 * (exact in a double for {@code n < 2^47}). {@code sendTimeNanos} carries the time the message was meant to be sent
 * ({@link System#nanoTime()} scale) and is not part of the check.
 *
 * <p>Not thread-safe (a plain mutable message, reused by its owner).
 */
public final class BookUpdate extends TriviallyCopyable {
    public static final String SYMBOL = "EURUSD";
    public static final String EXCHANGE = "XLON";
    /** Levels per side. */
    public static final int LEVELS = 5;
    static final long SYMBOL_CODE = SymbolCodec.encode(SYMBOL);
    static final long EXCHANGE_CODE = SymbolCodec.encode(EXCHANGE);

    public long symbol;
    public long exchange;
    public long sequence;
    public long sendTimeNanos;
    public double bidPrice0, bidPrice1, bidPrice2, bidPrice3, bidPrice4;
    public double bidQty0, bidQty1, bidQty2, bidQty3, bidQty4;
    public double askPrice0, askPrice1, askPrice2, askPrice3, askPrice4;
    public double askQty0, askQty1, askQty2, askQty3, askQty4;

    /** An update with every field zero; fill it with {@link #fillFor} or by hand. */
    public BookUpdate() {
        // explicit so the exported package documents its constructor
    }

    /** Fills every field for message {@code n} as the class comment describes; returns this. */
    public BookUpdate fillFor(long n, long sendTimeNanos) {
        symbol = SYMBOL_CODE;
        exchange = EXCHANGE_CODE;
        sequence = n;
        this.sendTimeNanos = sendTimeNanos;
        double base = n;
        bidPrice0 = base;
        bidPrice1 = base + 1 / 32.0;
        bidPrice2 = base + 2 / 32.0;
        bidPrice3 = base + 3 / 32.0;
        bidPrice4 = base + 4 / 32.0;
        bidQty0 = base + 5 / 32.0;
        bidQty1 = base + 6 / 32.0;
        bidQty2 = base + 7 / 32.0;
        bidQty3 = base + 8 / 32.0;
        bidQty4 = base + 9 / 32.0;
        askPrice0 = base + 10 / 32.0;
        askPrice1 = base + 11 / 32.0;
        askPrice2 = base + 12 / 32.0;
        askPrice3 = base + 13 / 32.0;
        askPrice4 = base + 14 / 32.0;
        askQty0 = base + 15 / 32.0;
        askQty1 = base + 16 / 32.0;
        askQty2 = base + 17 / 32.0;
        askQty3 = base + 18 / 32.0;
        askQty4 = base + 19 / 32.0;
        return this;
    }

    /**
     * Whether every field but {@code sendTimeNanos} holds what {@link #fillFor} writes for message {@code n}.
     * Allocates nothing (the latency harness calls it for every message it receives).
     */
    public boolean isConsistentFor(long n) {
        double b = n;
        return symbol == SYMBOL_CODE && exchange == EXCHANGE_CODE && sequence == n
                && bidPrice0 == b && bidPrice1 == b + 1 / 32.0 && bidPrice2 == b + 2 / 32.0
                && bidPrice3 == b + 3 / 32.0 && bidPrice4 == b + 4 / 32.0
                && bidQty0 == b + 5 / 32.0 && bidQty1 == b + 6 / 32.0 && bidQty2 == b + 7 / 32.0
                && bidQty3 == b + 8 / 32.0 && bidQty4 == b + 9 / 32.0
                && askPrice0 == b + 10 / 32.0 && askPrice1 == b + 11 / 32.0 && askPrice2 == b + 12 / 32.0
                && askPrice3 == b + 13 / 32.0 && askPrice4 == b + 14 / 32.0
                && askQty0 == b + 15 / 32.0 && askQty1 == b + 16 / 32.0 && askQty2 == b + 17 / 32.0
                && askQty3 == b + 18 / 32.0 && askQty4 == b + 19 / 32.0;
    }

    @Override
    public String toString() {
        return "BookUpdate[" + SymbolCodec.decode(symbol) + "@" + SymbolCodec.decode(exchange) + " #" + sequence
                + " sendTime=" + sendTimeNanos + " bid " + bidPrice0 + " x " + bidQty0 + " ask " + askPrice0 + " x "
                + askQty0 + "]";
    }
}
