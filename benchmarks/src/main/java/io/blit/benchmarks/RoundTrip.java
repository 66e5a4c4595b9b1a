package io.blit.benchmarks;

import io.blit.tools.messages.MarketData;

import java.lang.foreign.MemorySegment;

/**
 * The benchmarks' fail-fast check that a format read back what it wrote. Compares field by field
 * through the hand-written per-field image ({@link MarketDataCopyBenchmark#writeFields}), so that a
 * fault of Blit itself cannot hide behind Blit-made images. Stateless.
 */
final class RoundTrip {
    private static final int FIELD_BYTES = 144;

    private RoundTrip() {
    }

    /**
     * Throws unless {@code actual} holds exactly {@code expected}'s field values.
     *
     * @throws IllegalStateException naming the variant and the first differing field's byte offset
     */
    static void check(String variant, MarketData expected, MarketData actual) {
        MemorySegment want = MemorySegment.ofArray(new byte[FIELD_BYTES]);
        MemorySegment got = MemorySegment.ofArray(new byte[FIELD_BYTES]);
        MarketDataCopyBenchmark.writeFields(expected, want, 0);
        MarketDataCopyBenchmark.writeFields(actual, got, 0);
        long mismatch = want.mismatch(got);
        if (mismatch != -1) {
            long field = mismatch / Long.BYTES;
            throw new IllegalStateException(variant + " did not round-trip MarketData: field #" + field
                    + " (byte " + mismatch + " of securityId, time, bidQty0..3, askQty0..3, bidPrice0..3, askPrice0..3)"
                    + " differs; the benchmark would measure a broken format");
        }
    }
}
