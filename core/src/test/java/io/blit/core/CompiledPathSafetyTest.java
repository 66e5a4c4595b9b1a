package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.blit.core.TestCopyables.Quote;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The checks survive the JIT's folding: where {@link TriviallyCopyable}'s call site turns the copier's
 * {@link CopyPath} into constants (a final class, warmed up on a confined segment), every misuse through
 * that same call site still throws and copies nothing. Without a long warm-up these would only test the
 * interpreter; the warm-up asserts nothing about time, only that the copies it made were right.
 */
class CompiledPathSafetyTest {
    /** Far above C2's compile threshold (10 000 back-edges/invocations), so the two call sites below are compiled. */
    private static final int WARM_UP_CALLS = 200_000;
    private static final long BLOCK = 144;

    private final RandomFields random = new RandomFields(20261122);

    /** The one write call site that is warmed up and then misused. */
    private static void write(Quote quote, MemorySegment segment, long offset) {
        quote.writeTo(segment, offset);
    }

    /** The one read call site that is warmed up and then misused. */
    private static void read(Quote quote, MemorySegment segment, long offset) {
        quote.readFrom(segment, offset);
    }

    @Test
    void afterWarmUpOnAConfinedSegmentEveryMisuseStillThrowsAndCopiesNothing() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment hot = arena.allocate(BLOCK + 8);
            Quote source = random.newFilled(Quote.class);
            Quote target = new Quote();
            for (int i = 0; i < WARM_UP_CALLS; i++) {
                source.securityId = i;
                write(source, hot, i & 7);
                read(target, hot, i & 7);
            }
            assertEquals(WARM_UP_CALLS - 1, target.securityId, "the warm-up's last copy");
            RandomFields.assertSameBits(source, target);

            Images.paint(hot);
            Map<String, Long> before = RandomFields.snapshot(target);
            assertThrows(IndexOutOfBoundsException.class, () -> write(source, hot, 9));
            assertThrows(IndexOutOfBoundsException.class, () -> write(source, hot, -1));
            assertThrows(IndexOutOfBoundsException.class, () -> read(target, hot, 9));
            assertThrows(IndexOutOfBoundsException.class, () -> read(target, hot, Long.MIN_VALUE));
            assertThrows(IllegalArgumentException.class, () -> write(source, hot.asReadOnly(), 0));
            assertThrows(NullPointerException.class, () -> write(source, null, 0));
            Images.assertPainted(hot, "the warmed-up segment after rejected writes");
            assertEquals(before, RandomFields.snapshot(target), "fields after rejected reads");

            Arena closing = Arena.ofConfined();
            MemorySegment closed = closing.allocate(BLOCK);
            closing.close();
            assertThrows(IllegalStateException.class, () -> write(source, closed, 0));
            assertThrows(IllegalStateException.class, () -> read(target, closed, 0));
            assertEquals(before, RandomFields.snapshot(target), "fields after reading a closed segment");

            assertWrongThread(source, target, before);
        }
    }

    @Test
    void afterWarmUpASharedSegmentStillTakesTheCheckedPathCorrectly() {
        try (Arena confined = Arena.ofConfined(); Arena shared = Arena.ofShared()) {
            MemorySegment hot = confined.allocate(BLOCK);
            Quote source = random.newFilled(Quote.class);
            Quote target = new Quote();
            for (int i = 0; i < WARM_UP_CALLS; i++) {
                write(source, hot, 0);
                read(target, hot, 0);
            }
            MemorySegment other = shared.allocate(BLOCK + 3);
            Quote fresh = random.newFilled(Quote.class);
            write(fresh, other, 3);
            Quote back = new Quote();
            read(back, other, 3);
            RandomFields.assertSameBits(fresh, back);
            write(fresh, hot, 0);
            assertEquals(-1, MemorySegment.mismatch(hot, 0, BLOCK, other, 3, 3 + BLOCK),
                    "the checked path (shared) writes the same image as the by-address path (confined)");
        }
    }

    /** A segment confined to another (live) thread: both directions throw WrongThreadException. */
    private static void assertWrongThread(Quote source, Quote target, Map<String, Long> before) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        CompletableFuture<MemorySegment> foreign = new CompletableFuture<>();
        CompletableFuture<Void> unchanged = new CompletableFuture<>();
        Thread owner = new Thread(() -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment segment = arena.allocate(BLOCK);
                Images.paint(segment);
                foreign.complete(segment);
                done.await(30, TimeUnit.SECONDS);
                Images.assertPainted(segment, "a segment of another thread after rejected writes");
                unchanged.complete(null);
            } catch (Throwable t) {
                unchanged.completeExceptionally(t);
            }
        }, "segment-owner");
        owner.start();
        try {
            MemorySegment segment = foreign.get(30, TimeUnit.SECONDS);
            assertThrows(WrongThreadException.class, () -> write(source, segment, 0));
            assertThrows(WrongThreadException.class, () -> read(target, segment, 0));
            assertEquals(before, RandomFields.snapshot(target), "fields after reading another thread's segment");
        } finally {
            done.countDown();
        }
        unchanged.get(30, TimeUnit.SECONDS); // rethrows the owner's assertion failure, if any
        owner.join(30_000);
    }
}
