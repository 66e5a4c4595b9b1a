package io.blit.cli;

import io.blit.queue.BlitQueue;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A position in a queue given on the command line as a message index ({@code 1200}) or an ISO-8601 instant
 * ({@code 2026-11-26T09:30:00Z}, any offset: {@code 2026-11-26T10:30:00+01:00}); exactly one of the two is set.
 */
record IndexOrTime(Long index, Instant time) {
    /** The index for a start: the index itself, or the first message appended at or after the time. */
    long fromIndex(BlitQueue<?> queue) {
        return index != null ? index : queue.firstIndexAtOrAfter(time);
    }

    /**
     * The index for an end, included: the index itself, or the last index before the first message appended after the
     * time (every message appended at or before it is in).
     */
    long toIndex(BlitQueue<?> queue) {
        return index != null ? index : queue.firstIndexAtOrAfter(time.plusNanos(1)) - 1;
    }

    @Override
    public String toString() {
        return index != null ? index.toString() : time.toString();
    }

    /** An integer is an index; anything else must be an ISO-8601 instant with an offset. */
    static final class Converter implements ITypeConverter<IndexOrTime> {
        @Override
        public IndexOrTime convert(String value) {
            try {
                return new IndexOrTime(Long.parseLong(value), null);
            } catch (NumberFormatException notAnIndex) {
                return new IndexOrTime(null, instant(value));
            }
        }
    }

    /** Parses an ISO-8601 instant ({@code 2026-11-26T09:30:00Z}, or with an offset such as {@code +01:00}). */
    static Instant instant(String value) {
        return instant(value, "a message index or an ISO-8601 instant");
    }

    private static Instant instant(String value, String expected) {
        try {
            return java.time.OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            throw new TypeConversionException("expects " + expected + " such as 2026-11-26T09:30:00Z, got '" + value
                    + "'");
        }
    }

    /** {@code --from-time}: an ISO-8601 instant only. */
    static final class InstantConverter implements ITypeConverter<Instant> {
        @Override
        public Instant convert(String value) {
            return instant(value, "an ISO-8601 instant");
        }
    }
}
