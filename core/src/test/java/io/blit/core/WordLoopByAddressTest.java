package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.blit.core.internal.BlockEngine;
import io.blit.layout.BlockLayout;
import io.blit.layout.LayoutVerifier;
import io.blit.layout.shapes.Wide216;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The by-address word loop ({@link BlockEngine#objectToAddress}, {@link BlockEngine#addressToObject})
 * copies exactly {@code length} bytes for every length: its four-words-per-iteration body, the 0-3
 * words left over and the 4/2/1-byte tail. Each prefix of a wide block is compared with the
 * segment-API loop ({@link BlockEngine#objectToSegment}), an independent implementation whose every
 * access the FFM API bounds-checks, and the bytes around it must be left as they were.
 */
// The word loop by address is sun.misc.Unsafe code: it cannot run where Unsafe memory access is denied
// (the deny run covers GENERATED_FFM instead, EngineEquivalenceTest).
@Tag("needs-unsafe")
class WordLoopByAddressTest {
    private static final int GUARD = 16;
    private static final byte GUARD_BYTE = (byte) 0xA5;

    @Test
    void everyPrefixLengthIsCopiedExactlyInBothDirections() {
        BlockLayout layout = LayoutVerifier.verify(Wide216.class);
        long start = layout.start();
        int block = layout.length();
        RandomFields random = new RandomFields(216);
        Wide216 source = random.newFilled(Wide216.class);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment reference = arena.allocate(block);
            BlockEngine.objectToSegment(source, start, block, reference, 0);
            for (int length = 0; length <= Math.min(block, 200); length++) {
                MemorySegment guarded = arena.allocate(block + 2L * GUARD + 3).asSlice(3); // unaligned on purpose
                guarded.fill(GUARD_BYTE);
                BlockEngine.objectToAddress(source, start, length, guarded.address() + GUARD);
                MemorySegment written = guarded.asSlice(GUARD, length);
                long mismatch = written.mismatch(reference.asSlice(0, length));
                if (mismatch != -1) {
                    fail("objectToAddress of " + length + " bytes differs from the segment-API loop at byte " + mismatch);
                }
                requireGuards(guarded, GUARD, length, "objectToAddress of " + length + " bytes");

                Wide216 target = random.newFilled(Wide216.class);
                MemorySegment before = arena.allocate(block);
                BlockEngine.objectToSegment(target, start, block, before, 0);
                BlockEngine.addressToObject(guarded.address() + GUARD, target, start, length);
                MemorySegment after = arena.allocate(block);
                BlockEngine.objectToSegment(target, start, block, after, 0);
                assertEquals(-1, after.asSlice(0, length).mismatch(reference.asSlice(0, length)),
                        "addressToObject of " + length + " bytes: the prefix read back differs");
                assertEquals(-1, after.asSlice(length).mismatch(before.asSlice(length)),
                        "addressToObject of " + length + " bytes changed the object beyond the prefix");
            }
        }
    }

    private static void requireGuards(MemorySegment guarded, int guard, int length, String what) {
        for (long i = 0; i < guard; i++) {
            if (guarded.get(ValueLayout.JAVA_BYTE, i) != GUARD_BYTE) {
                fail(what + " wrote before its target, at byte " + (i - guard));
            }
        }
        for (long i = guard + length; i < guarded.byteSize(); i++) {
            if (guarded.get(ValueLayout.JAVA_BYTE, i) != GUARD_BYTE) {
                fail(what + " wrote past its end, at byte " + (i - guard));
            }
        }
    }
}
