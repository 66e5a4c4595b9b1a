package io.blit.core;

import java.util.List;

/** TriviallyCopyable subclasses for the tests: the way an application uses Blit. */
@SuppressWarnings("unused")
final class TestCopyables {
    private TestCopyables() {
    }

    /** MarketData-like: 2 longs and 16 doubles, 144 bytes in every header mode. */
    static final class Quote extends TriviallyCopyable {
        long securityId;
        long time;
        double bidQty0, bidQty1, bidQty2, bidQty3, askQty0, askQty1, askQty2, askQty3;
        double bidPrice0, bidPrice1, bidPrice2, bidPrice3, askPrice0, askPrice1, askPrice2, askPrice3;
    }

    /** Every size, declared smallest first, with an odd total: the block has a tail and usually padding. */
    static final class MixedSizes extends TriviallyCopyable {
        boolean flag;
        byte tag;
        char letter;
        short small;
        int count;
        float ratio;
        long id;
        double price;
        byte last;
    }

    /** A base class with a hole that the subclass's fields fill. */
    static class Tick extends TriviallyCopyable {
        byte kind;
        long nanos;
    }

    static final class TradeTick extends Tick {
        byte side;
        short venue;
        int quantity;
        double price;
    }

    /** Not trivially copyable: a reference field. */
    static final class WithString extends TriviallyCopyable {
        long id;
        String label;
    }

    static final List<Class<? extends TriviallyCopyable>> GOOD = List.of(Quote.class, MixedSizes.class, Tick.class, TradeTick.class);
}
