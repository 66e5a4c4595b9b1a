package io.blit.cli;

/**
 * A tiny JSON writer for the {@code --json} output of the commands (docs/operations.md, "JSON output"): objects,
 * arrays, strings escaped as RFC 8259 requires, integers, booleans and null, appended to a {@link StringBuilder}, so
 * that {@code blit.jar} needs no JSON library. It checks nothing of the nesting: each command writes a fixed shape.
 * A {@code double} that JSON cannot hold (NaN, an infinity) is written as the string {@code "NaN"},
 * {@code "Infinity"} or {@code "-Infinity"}. Not thread-safe.
 */
final class JsonWriter {
    /** Nesting depth at most 64: one bit per open container, set while it has no member yet. */
    private long empty;
    private int depth;
    /** Set by {@link #name}: the value that follows takes no comma. */
    private boolean afterName;
    private final StringBuilder text;

    /** @param text where the JSON is appended (not cleared) */
    JsonWriter(StringBuilder text) {
        this.text = text;
    }

    /** A writer of its own text; {@link #toString} returns it. */
    JsonWriter() {
        this(new StringBuilder(256));
    }

    JsonWriter beginObject() {
        return open('{');
    }

    JsonWriter endObject() {
        return close('}');
    }

    JsonWriter beginArray() {
        return open('[');
    }

    JsonWriter endArray() {
        return close(']');
    }

    /** The name of the next member of the object being written. */
    JsonWriter name(String name) {
        separate();
        string(name);
        text.append(':');
        afterName = true;
        return this;
    }

    /** A string, or null. */
    JsonWriter value(String value) {
        separate();
        if (value == null) {
            text.append("null");
        } else {
            string(value);
        }
        return this;
    }

    JsonWriter value(long value) {
        separate();
        text.append(value);
        return this;
    }

    JsonWriter value(boolean value) {
        separate();
        text.append(value);
        return this;
    }

    /** A number; NaN and the infinities as strings (JSON has no literal for them). */
    JsonWriter value(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return value(Double.toString(value));
        }
        separate();
        text.append(value);
        return this;
    }

    /** A float as its shortest decimal ({@link Float#toString}); NaN and the infinities as strings. */
    JsonWriter value(float value) {
        if (Float.isNaN(value) || Float.isInfinite(value)) {
            return value(Float.toString(value));
        }
        separate();
        text.append(value);
        return this;
    }

    JsonWriter nullValue() {
        separate();
        text.append("null");
        return this;
    }

    /** {@code "name":value} for a string or null. */
    JsonWriter member(String name, String value) {
        return name(name).value(value);
    }

    JsonWriter member(String name, long value) {
        return name(name).value(value);
    }

    JsonWriter member(String name, boolean value) {
        return name(name).value(value);
    }

    /** {@return the text written so far} */
    @Override
    public String toString() {
        return text.toString();
    }

    private JsonWriter open(char bracket) {
        if (depth == Long.SIZE) {
            throw new IllegalStateException("JSON nested deeper than " + Long.SIZE);
        }
        separate();
        text.append(bracket);
        empty |= 1L << depth++;
        return this;
    }

    private JsonWriter close(char bracket) {
        depth--;
        empty &= ~(1L << depth);
        text.append(bracket);
        return this;
    }

    /** A comma before every member or element but a container's first, and none after a name. */
    private void separate() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (depth > 0) {
            long bit = 1L << (depth - 1);
            if ((empty & bit) == 0) {
                text.append(',');
            }
            empty &= ~bit;
        }
    }

    /** A JSON string: quote, backslash and the control characters escaped; everything else as it is (UTF-16). */
    private void string(String value) {
        text.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> text.append("\\\"");
                case '\\' -> text.append("\\\\");
                case '\n' -> text.append("\\n");
                case '\r' -> text.append("\\r");
                case '\t' -> text.append("\\t");
                case '\b' -> text.append("\\b");
                case '\f' -> text.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        text.append(String.format("\\u%04x", (int) c));
                    } else {
                        text.append(c);
                    }
                }
            }
        }
        text.append('"');
    }
}
