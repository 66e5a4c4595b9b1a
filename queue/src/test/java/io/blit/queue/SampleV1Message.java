package io.blit.queue;

import io.blit.core.TriviallyCopyable;

/**
 * The message class of the committed format-version-1 sample ({@code src/test/resources/format-v1/typed},
 * {@link FormatSampleWriter}, {@link FormatSampleTest}): one field of each primitive type, every value a pure function
 * of the message's index ({@link #fillFor}).
 *
 * <p>The sample's file headers record this class's name and layout, and its records hold the values {@link #fillFor}
 * gives: do not rename, move or change this class, its fields or {@link #fillFor}, or the sample no longer describes
 * it. A reader of another layout of the class is {@link FormatSampleTest}'s business, not a reason to edit this one.
 */
public final class SampleV1Message extends TriviallyCopyable {
    public long index;
    public byte b;
    public short s;
    public char c;
    public int i;
    public long l;
    public float f;
    public double d;
    public boolean z;

    public SampleV1Message() {
    }

    /** Fills every field from the message index {@code n}: values that differ in most byte lanes. */
    public SampleV1Message fillFor(long n) {
        index = n;
        b = (byte) (n * 7 - 100);
        s = (short) (n * 1009 - 30_000);
        c = (char) (0x4E00 + n * 3);
        i = (int) (n * 0x9E37_79B1L) ^ 0x5A5A_5A5A;
        l = (n + 1) * 0x0102_0304_0506_0708L ^ Long.MIN_VALUE;
        f = n + 0.375f;
        d = -n - 1.0 / 1024;
        z = n % 3 == 1;
        return this;
    }

    /** Whether every field holds what {@link #fillFor} writes for {@code n}. */
    public boolean isFor(long n) {
        return values().equals(new SampleV1Message().fillFor(n).values());
    }

    /** The fields as one line, for assertion messages and for comparing values across processes. */
    public String values() {
        return "index=" + index + " b=" + b + " s=" + s + " c=" + (int) c + " i=" + i + " l=" + l + " f=" + f + " d=" + d
                + " z=" + z;
    }
}
