package io.blit.queue;

import io.blit.core.TriviallyCopyable;

/**
 * A message class of mixed field sizes for {@link CompactHeadersLayoutMismatchTest}. On JDK 25 with
 * the default (12-byte) headers the JVM puts c@12 a@16 b@24 d@32, with compact (8-byte) headers
 * a@8 b@16 c@24 d@28, so the offsets RELATIVE to the block start differ between the two modes.
 */
public final class MixedSizes extends TriviallyCopyable {
    public long a;
    public double b;
    public int c;
    public byte d;

    public MixedSizes() {
    }

    /** Fills every field from the message number {@code n}, values that differ in every byte lane. */
    public MixedSizes fillFor(long n) {
        a = 0x0102_0304_0506_0708L * (n + 1);
        b = n + 0.25;
        c = (int) (-1000 * (n + 1));
        d = (byte) (n + 1);
        return this;
    }

    /** The fields as one line, for comparing values across processes. */
    public String values() {
        return "a=" + a + " b=" + b + " c=" + c + " d=" + d;
    }
}
