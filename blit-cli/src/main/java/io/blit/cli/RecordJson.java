package io.blit.cli;

import io.blit.layout.FieldDescriptor;
import io.blit.layout.LayoutDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Instant;

/**
 * One record as one JSON object, the {@code --json} line of {@code dump} and {@code tail} (docs/operations.md, "JSON
 * output"), decoded as {@link RecordLine} decodes it: with nothing but the layout its file stores for the record's
 * type.
 *
 * <pre>
 * {"index":I,"type":"MarketData","appended":"2026-11-28T04:50:12.123456789Z","damaged":false,"fields":{"bid":1.5,...}}
 * {"index":I,"type":null,"appended":null,"damaged":false,"length":8,"bytes":"0100000000000000"}
 * </pre>
 *
 * {@code type} is the class's simple name, null for a raw payload; {@code appended} null in a file of format 1;
 * {@code fields} (typed records whose payload is as long as their layout) by name in layout order, each a JSON number
 * ({@code char} as its code, NaN and infinities as strings) or boolean; else {@code length} and {@code bytes} (hex, a
 * damaged record's first 256 bytes). Stateless.
 */
final class RecordJson {
    private RecordJson() {
    }

    /**
     * Appends the record's object to {@code json}.
     *
     * @return false if the record is damaged: its payload's length is not its layout's
     */
    static boolean append(JsonWriter json, long index, LayoutDescriptor layout, MemorySegment payload, long length,
                          long timeNanos) {
        boolean damaged = layout != null && length != layout.length();
        json.beginObject().member("index", index);
        String name = layout == null ? null : layout.className();
        json.member("type", name == null ? null : name.substring(name.lastIndexOf('.') + 1));
        json.member("appended", timeNanos == 0 ? null : RecordLine.appended(Instant.ofEpochSecond(0, timeNanos)));
        json.member("damaged", damaged);
        if (layout == null || damaged) {
            json.member("length", length);
            json.member("bytes", hex(payload, layout == null ? length : Math.min(length, 256)));
        } else {
            json.name("fields").beginObject();
            for (FieldDescriptor field : layout.fields()) {
                json.name(field.name());
                value(json, payload, field.offset() - layout.start(), field);
            }
            json.endObject();
        }
        json.endObject();
        return !damaged;
    }

    private static void value(JsonWriter json, MemorySegment payload, long offset, FieldDescriptor field) {
        switch (field.type()) {
            case BOOLEAN -> json.value(payload.get(ValueLayout.JAVA_BYTE, offset) != 0);
            case BYTE -> json.value(payload.get(ValueLayout.JAVA_BYTE, offset));
            case CHAR -> json.value(payload.get(ValueLayout.JAVA_CHAR_UNALIGNED, offset));
            case SHORT -> json.value(payload.get(ValueLayout.JAVA_SHORT_UNALIGNED, offset));
            case INT -> json.value(payload.get(ValueLayout.JAVA_INT_UNALIGNED, offset));
            case FLOAT -> json.value(payload.get(ValueLayout.JAVA_FLOAT_UNALIGNED, offset));
            case LONG -> json.value(payload.get(ValueLayout.JAVA_LONG_UNALIGNED, offset));
            case DOUBLE -> json.value(payload.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, offset));
        }
    }

    private static String hex(MemorySegment payload, long length) {
        StringBuilder hex = new StringBuilder((int) (2 * length));
        for (long i = 0; i < length; i++) {
            int b = payload.get(ValueLayout.JAVA_BYTE, i) & 0xff;
            hex.append(Character.forDigit(b >>> 4, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return hex.toString();
    }
}
