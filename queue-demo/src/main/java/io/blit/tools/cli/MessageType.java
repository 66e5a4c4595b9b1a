package io.blit.tools.cli;

import io.blit.tools.messages.BookUpdate;
import io.blit.tools.messages.MarketData;
import java.util.function.Supplier;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A message class {@code produce} and {@code check} handle ({@code --type}), with its deterministic content for
 * message {@code n}: {@code marketdata} ({@link MarketData#fillFor}, the default) or {@code book}
 * ({@link BookUpdate#fillFor}). Immutable.
 *
 * @param name       the {@code --type} value
 * @param type       the trivially copyable class
 * @param factory    a new, reusable message
 * @param filler     fills a message for number n with a time
 * @param checker    the number a message carries, and whether its fields are consistent for a number
 */
record MessageType<T>(String name, Class<T> type, Supplier<T> factory, Filler<T> filler, Checker<T> checker) {
    static final MessageType<MarketData> MARKET_DATA = new MessageType<>("marketdata", MarketData.class,
            MarketData::new, MarketData::fillFor, new Checker<>() {
                @Override
                public long number(MarketData message) {
                    return message.securityId;
                }

                @Override
                public boolean consistentFor(MarketData message, long n) {
                    return message.isConsistentFor(n);
                }
            });
    static final MessageType<BookUpdate> BOOK = new MessageType<>("book", BookUpdate.class,
            BookUpdate::new, BookUpdate::fillFor, new Checker<>() {
                @Override
                public long number(BookUpdate message) {
                    return message.sequence;
                }

                @Override
                public boolean consistentFor(BookUpdate message, long n) {
                    return message.isConsistentFor(n);
                }
            });

    /**
     * {@code --type mixed}: MarketData and BookUpdate in one queue ({@link MixedStream}); not one class, so it has no
     * factory, filler or checker of its own.
     */
    static final MessageType<Object> MIXED = new MessageType<>("mixed", Object.class, null, null, null);

    /** Fills {@code message} for number {@code n}; returns it. */
    interface Filler<T> {
        T fill(T message, long n, long timeNanos);
    }

    /** Reads back what a {@link Filler} wrote. */
    interface Checker<T> {
        /** The message number the message carries ({@code securityId}, {@code sequence}). */
        long number(T message);

        /** Whether every checked field holds what the filler writes for {@code n}. */
        boolean consistentFor(T message, long n);
    }

    /** {@code --type}: {@code marketdata}, {@code book} or {@code mixed}; anything else is a conversion error. */
    static final class Converter implements ITypeConverter<MessageType<?>> {
        @Override
        public MessageType<?> convert(String name) {
            return switch (name) {
                case "marketdata" -> MARKET_DATA;
                case "book" -> BOOK;
                case "mixed" -> MIXED;
                default -> throw new TypeConversionException("must be marketdata, book or mixed, got '" + name + "'");
            };
        }
    }

    /** The field that carries the number, for messages. */
    String numberField() {
        return this == BOOK ? "sequence" : "securityId";
    }
}
