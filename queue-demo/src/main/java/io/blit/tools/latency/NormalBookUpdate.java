package io.blit.tools.latency;

import io.blit.tools.messages.BookUpdate;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The "normal object" twin of {@link BookUpdate}, as the published persisted-queue comparison describes it:
 * symbol, exchange and send time as {@code String}s, bids and asks as {@code List}s of {@link PriceLevel}, serialised with
 * {@link java.io.ObjectOutputStream} (see {@link SerializedBookEndpoints}). Same content as {@link BookUpdate#fillFor}
 * for message {@code n}; the send time is the decimal {@link System#nanoTime()} value the message was meant to be
 * sent at. Immutable once built.
 */
public final class NormalBookUpdate implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String symbol;
    private final String exchange;
    private final long sequence;
    private final String sendTime;
    private final List<PriceLevel> bids;
    private final List<PriceLevel> asks;

    public NormalBookUpdate(String symbol, String exchange, long sequence, String sendTime,
                            List<PriceLevel> bids, List<PriceLevel> asks) {
        this.symbol = symbol;
        this.exchange = exchange;
        this.sequence = sequence;
        this.sendTime = sendTime;
        this.bids = bids;
        this.asks = asks;
    }

    /** Message {@code n} with the content {@link BookUpdate#fillFor} gives it. */
    public static NormalBookUpdate forMessage(long n, long sendTimeNanos) {
        List<PriceLevel> bids = new ArrayList<>(BookUpdate.LEVELS);
        List<PriceLevel> asks = new ArrayList<>(BookUpdate.LEVELS);
        for (int i = 0; i < BookUpdate.LEVELS; i++) {
            bids.add(new PriceLevel(n + i / 32.0, n + (5 + i) / 32.0));
            asks.add(new PriceLevel(n + (10 + i) / 32.0, n + (15 + i) / 32.0));
        }
        return new NormalBookUpdate(BookUpdate.SYMBOL, BookUpdate.EXCHANGE, n, Long.toString(sendTimeNanos), bids, asks);
    }

    public long sequence() {
        return sequence;
    }

    /** The intended send time, parsed from its decimal string. */
    public long sendTimeNanos() {
        return Long.parseLong(sendTime);
    }

    /** Whether this holds what {@link #forMessage} builds for message {@code n} (send time excepted). */
    public boolean isConsistentFor(long n) {
        if (!BookUpdate.SYMBOL.equals(symbol) || !BookUpdate.EXCHANGE.equals(exchange) || sequence != n
                || bids.size() != BookUpdate.LEVELS || asks.size() != BookUpdate.LEVELS) {
            return false;
        }
        for (int i = 0; i < BookUpdate.LEVELS; i++) {
            PriceLevel bid = bids.get(i);
            PriceLevel ask = asks.get(i);
            if (bid.price() != n + i / 32.0 || bid.quantity() != n + (5 + i) / 32.0
                    || ask.price() != n + (10 + i) / 32.0 || ask.quantity() != n + (15 + i) / 32.0) {
                return false;
            }
        }
        return true;
    }
}
