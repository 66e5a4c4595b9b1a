package io.blit.benchmarks;

import io.blit.core.TriviallyCopyable;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The set-up checks the block-size sweep shares: a distinct value per word, so that a misplaced or
 * missing word shows, and the comparisons that prove every way of copying stores the same image.
 * Each check throws {@link IllegalStateException}, naming the block size and the first differing
 * byte, so that a broken benchmark fails in {@code @Setup} instead of measuring the wrong thing.
 */
final class SweepImages {
    private SweepImages() {
    }

    /** A heap segment over a fresh {@code long[blockBytes / 8]} whose word {@code i} is distinct from every other. */
    static MemorySegment pattern(int blockBytes) {
        long[] words = new long[blockBytes / Long.BYTES];
        for (int i = 0; i < words.length; i++) {
            words[i] = 0x0101_0101_0000_0000L * (i + 1) + i;
        }
        return MemorySegment.ofArray(words);
    }

    /** Throws unless the first {@code blockBytes} bytes of both segments are equal. */
    static void requireSameImage(MemorySegment expected, MemorySegment actual, int blockBytes, String what) {
        long at = MemorySegment.mismatch(expected, 0, blockBytes, actual, 0, blockBytes);
        if (at != -1) {
            throw new IllegalStateException(what + ": " + blockBytes + "-byte block differs from the pattern at byte " + at);
        }
    }

    /**
     * Throws unless the object's first and last fields ({@code f0}, {@code f<n-1>}) hold the first and
     * last words of {@code pattern}: the block maps to the fields in declaration order.
     */
    static void requireFieldsInOrder(TriviallyCopyable block, MemorySegment pattern, int blockBytes) {
        int last = blockBytes / Long.BYTES - 1;
        long first = field(block, "f0");
        long end = field(block, "f" + last);
        long[] words = pattern.toArray(ValueLayout.JAVA_LONG);
        if (first != words[0] || end != words[last]) {
            throw new IllegalStateException(block.getClass().getName() + ": f0=" + first + " f" + last + "=" + end
                    + ", expected " + words[0] + " and " + words[last]);
        }
    }

    private static long field(TriviallyCopyable block, String name) {
        try {
            return block.getClass().getField(name).getLong(block);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(block.getClass().getName() + " has no public long field " + name, e);
        }
    }
}
