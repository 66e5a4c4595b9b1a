package io.blit.cli;

import io.blit.layout.FieldDescriptor;
import io.blit.layout.LayoutDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * One record as a line of text, decoded with nothing but the layout its file stores for the record's type (field
 * names, types and offsets; native byte order): {@code index=I type=Name field=value ... appended=T}, or
 * {@code index=I length=L bytes=<hex> appended=T} for a raw payload. {@code T} is the time the record was appended at,
 * in ISO-8601 UTC with nine fraction digits ({@code 2026-11-28T04:50:12.123456789Z}), or {@code -} for a record of a
 * format-1 file, which carries no time. It comes last and is named {@code appended}, not {@code time}, so that a
 * message field named {@code time} keeps its name and every earlier field keeps its place. What {@code dump} and
 * {@code tail} print. Stateless.
 */
final class RecordLine {
    /** Nine fraction digits always, so that the lines of one queue align and sort as text. */
    private static final DateTimeFormatter APPENDED = DateTimeFormatter
            .ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private RecordLine() {
    }

    /**
     * Appends the record's line to {@code line} (after clearing it).
     *
     * @param layout    the stored layout of the record's type, or null for a raw payload
     * @param timeNanos the time the record was appended at (epoch ns), 0 if its file records none (format 1)
     * @return false if the payload's length is not the layout's block length (the line then says DAMAGED and shows
     *         at most 256 bytes in hex)
     */
    static boolean append(StringBuilder line, long index, LayoutDescriptor layout, MemorySegment payload, long length,
                          long timeNanos) {
        boolean whole = appendRecord(line, index, layout, payload, length);
        line.append(" appended=");
        if (timeNanos == 0) {
            line.append('-');
        } else {
            APPENDED.formatTo(Instant.ofEpochSecond(0, timeNanos), line);
        }
        return whole;
    }

    /** {@code time} as the {@code appended} of a line: ISO-8601 UTC with nine fraction digits. */
    static String appended(Instant time) {
        return APPENDED.format(time);
    }

    private static boolean appendRecord(StringBuilder line, long index, LayoutDescriptor layout, MemorySegment payload,
                                        long length) {
        line.setLength(0);
        line.append("index=").append(index);
        if (layout == null) {
            line.append(" length=").append(length).append(" bytes=");
            appendHex(line, payload, length);
            return true;
        }
        String name = layout.className();
        line.append(" type=").append(name, name.lastIndexOf('.') + 1, name.length());
        if (length != layout.length()) {
            line.append(" DAMAGED payload length ").append(length).append(", descriptor says ")
                    .append(layout.length()).append(" bytes=");
            appendHex(line, payload, Math.min(length, 256));
            return false;
        }
        for (FieldDescriptor field : layout.fields()) {
            line.append(' ').append(field.name()).append('=');
            appendValue(line, payload, field.offset() - layout.start(), field);
        }
        return true;
    }

    private static void appendValue(StringBuilder line, MemorySegment payload, long offset, FieldDescriptor field) {
        switch (field.type()) {
            case BOOLEAN -> line.append(payload.get(ValueLayout.JAVA_BYTE, offset) != 0);
            case BYTE -> line.append(payload.get(ValueLayout.JAVA_BYTE, offset));
            case CHAR -> line.append((int) payload.get(ValueLayout.JAVA_CHAR_UNALIGNED, offset));
            case SHORT -> line.append(payload.get(ValueLayout.JAVA_SHORT_UNALIGNED, offset));
            case INT -> line.append(payload.get(ValueLayout.JAVA_INT_UNALIGNED, offset));
            case FLOAT -> line.append(payload.get(ValueLayout.JAVA_FLOAT_UNALIGNED, offset));
            case LONG -> line.append(payload.get(ValueLayout.JAVA_LONG_UNALIGNED, offset));
            case DOUBLE -> line.append(payload.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, offset));
        }
    }

    private static void appendHex(StringBuilder line, MemorySegment payload, long length) {
        for (long i = 0; i < length; i++) {
            int b = payload.get(ValueLayout.JAVA_BYTE, i) & 0xff;
            line.append(Character.forDigit(b >>> 4, 16)).append(Character.forDigit(b & 0xf, 16));
        }
    }
}
