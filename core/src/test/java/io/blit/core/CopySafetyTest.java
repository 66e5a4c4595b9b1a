package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.NotTriviallyCopyableException;
import io.blit.layout.shapes.Shapes;
import io.blit.layout.shapes.Shapes.ByteLong;
import io.blit.layout.shapes.Shapes.FillsSuperclassHoles;
import io.blit.layout.shapes.Shapes.OddTail;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Each item of BlockCopier's and TriviallyCopyable's contract: the exception type and message, and
 * that a call which throws has copied nothing (target bytes painted as before, target fields as before).
 */
class CopySafetyTest {
    private final BlockCopier<OddTail> copier = BlockCopier.of(OddTail.class);
    private final long size = copier.byteSize();
    private final RandomFields random = new RandomFields(0xC0FFEE);

    private MemorySegment paintedHeap(long bytes) {
        MemorySegment segment = MemorySegment.ofArray(new byte[Math.toIntExact(bytes)]);
        Images.paint(segment);
        return segment;
    }

    /** Runs {@code call} on {@code target}, expecting {@code type}; then asserts the target's fields did not change. */
    private static <X extends Throwable> X assertThrowsLeavingFields(Class<X> type, Object target, Executable call) {
        Map<String, Long> before = RandomFields.snapshot(target);
        X thrown = assertThrows(type, call);
        assertEquals(before, RandomFields.snapshot(target), "the target object's fields must be unchanged");
        return thrown;
    }

    private static void assertNamesBounds(IndexOutOfBoundsException e, long offset, long length, long capacity) {
        String message = e.getMessage();
        assertTrue(message.contains("offset=" + offset) && message.contains("length=" + length) && message.contains("capacity=" + capacity),
                "message must give offset " + offset + ", length " + length + " and capacity " + capacity + ": " + message);
    }

    /** Every way of copying one OddTail at {@code offset}, each expected to fail as out of bounds. */
    private void assertEveryCopyOutOfBounds(MemorySegment segment, long offset) {
        long capacity = segment.byteSize();
        OddTail source = random.newFilled(OddTail.class);
        assertNamesBounds(assertThrows(IndexOutOfBoundsException.class, () -> copier.writeTo(source, segment, offset)), offset, size, capacity);
        assertNamesBounds(assertThrows(IndexOutOfBoundsException.class, () -> copier.writeAll(new OddTail[] {source}, segment, offset)), offset, size, capacity);
        TestCopyables.MixedSizes mixed = random.newFilled(TestCopyables.MixedSizes.class);
        assertNamesBounds(assertThrows(IndexOutOfBoundsException.class, () -> mixed.writeTo(segment, offset)), offset, mixed.byteSize(), capacity);
        Images.assertPainted(segment, "segment after failed writes at " + offset);

        OddTail target = random.newFilled(OddTail.class);
        assertNamesBounds(assertThrowsLeavingFields(IndexOutOfBoundsException.class, target, () -> copier.readFrom(segment, offset, target)), offset, size, capacity);
        assertNamesBounds(assertThrowsLeavingFields(IndexOutOfBoundsException.class, target, () -> copier.readAll(segment, offset, new OddTail[] {target})), offset, size, capacity);
        assertNamesBounds(assertThrowsLeavingFields(IndexOutOfBoundsException.class, mixed, () -> mixed.readFrom(segment, offset)), offset, mixed.byteSize(), capacity);
    }

    @Test
    void aNegativeOffsetThrowsIndexOutOfBoundsNamingOffsetLengthAndCapacityAndCopiesNothing() {
        MemorySegment segment = paintedHeap(64);
        for (long offset : new long[] {-1, -size, Long.MIN_VALUE}) {
            assertEveryCopyOutOfBounds(segment, offset);
        }
    }

    @Test
    void aBlockEndingPastTheSegmentThrowsIndexOutOfBoundsAndCopiesNothing() {
        MemorySegment segment = paintedHeap(64);
        for (long offset : new long[] {64 - size + 1, 63, 64, 65, Long.MAX_VALUE - 1, Long.MAX_VALUE}) {
            assertEveryCopyOutOfBounds(segment, offset);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeSegment = arena.allocate(40);
            Images.paint(nativeSegment);
            assertEveryCopyOutOfBounds(nativeSegment, 40 - size + 1);
        }
    }

    @Test
    void aSegmentSmallerThanOneBlockThrowsIndexOutOfBoundsAndCopiesNothing() {
        assertEveryCopyOutOfBounds(paintedHeap(size - 1), 0);
        assertEveryCopyOutOfBounds(paintedHeap(1), 0);
        assertEveryCopyOutOfBounds(MemorySegment.ofArray(new byte[0]), 0);
    }

    @Test
    void bulkSlotsPastTheEndThrowIndexOutOfBoundsBeforeTheFirstSlotIsCopied() {
        MemorySegment segment = paintedHeap(3 + 2 * size + size / 2);
        long capacity = segment.byteSize();
        OddTail[] three = {random.newFilled(OddTail.class), random.newFilled(OddTail.class), random.newFilled(OddTail.class)};
        assertNamesBounds(assertThrows(IndexOutOfBoundsException.class, () -> copier.writeAll(three, segment, 3)), 3, 3 * size, capacity);
        assertNamesBounds(assertThrows(IndexOutOfBoundsException.class, () -> copier.writeAll(three, 0, 3, segment, 3)), 3, 3 * size, capacity);
        Images.assertPainted(segment, "no slot may be written, not even the ones that fit");

        OddTail[] targets = {random.newFilled(OddTail.class), random.newFilled(OddTail.class), random.newFilled(OddTail.class)};
        for (OddTail target : targets) {
            assertNamesBounds(assertThrowsLeavingFields(IndexOutOfBoundsException.class, target, () -> copier.readAll(segment, 3, targets)), 3, 3 * size, capacity);
            assertNamesBounds(assertThrowsLeavingFields(IndexOutOfBoundsException.class, target, () -> copier.readAll(segment, 3, targets, 0, 3)), 3, 3 * size, capacity);
        }

        // No element: the slots [offset, offset) fit up to the very end, and not one byte further.
        copier.writeAll(new OddTail[0], segment, capacity);
        copier.readAll(segment, capacity, targets, 1, 0);
        assertNamesBounds(assertThrows(IndexOutOfBoundsException.class, () -> copier.writeAll(new OddTail[0], segment, capacity + 1)), capacity + 1, 0, capacity);
        Images.assertPainted(segment, "after empty bulk copies");
    }

    @Test
    void anArrayRangeOutsideTheArrayThrowsIndexOutOfBoundsAndCopiesNothing() {
        MemorySegment segment = paintedHeap(8 * size);
        OddTail[] array = {random.newFilled(OddTail.class), random.newFilled(OddTail.class), random.newFilled(OddTail.class)};
        int[][] ranges = {{-1, 1}, {0, -1}, {0, 4}, {2, 2}, {3, 1}, {4, 0}, {1, Integer.MAX_VALUE}, {Integer.MAX_VALUE, 1}, {Integer.MIN_VALUE, 2}};
        for (int[] range : ranges) {
            String expected = "from=" + range[0] + " count=" + range[1] + " length=3";
            IndexOutOfBoundsException write = assertThrows(IndexOutOfBoundsException.class, () -> copier.writeAll(array, range[0], range[1], segment, 0));
            assertTrue(write.getMessage().contains(expected), write.getMessage());
            Images.assertPainted(segment, "after writeAll of range " + expected);
            for (OddTail target : array) {
                IndexOutOfBoundsException read = assertThrowsLeavingFields(IndexOutOfBoundsException.class, target,
                        () -> copier.readAll(segment, 0, array, range[0], range[1]));
                assertTrue(read.getMessage().contains(expected), read.getMessage());
            }
        }
    }

    @Test
    void aClosedArenaThrowsIllegalStateExceptionAndReadsNothing() {
        for (Supplier<Arena> kind : java.util.List.<Supplier<Arena>>of(Arena::ofConfined, Arena::ofShared)) {
            Arena arena = kind.get();
            MemorySegment segment = arena.allocate(200);
            arena.close();
            OddTail source = random.newFilled(OddTail.class);
            assertThrows(IllegalStateException.class, () -> copier.writeTo(source, segment, 0));
            assertThrows(IllegalStateException.class, () -> copier.writeAll(new OddTail[] {source, source}, segment, 1));
            TestCopyables.Quote quote = random.newFilled(TestCopyables.Quote.class);
            assertThrows(IllegalStateException.class, () -> quote.writeTo(segment, 0));

            OddTail target = random.newFilled(OddTail.class);
            assertThrowsLeavingFields(IllegalStateException.class, target, () -> copier.readFrom(segment, 3, target));
            assertThrowsLeavingFields(IllegalStateException.class, target, () -> copier.readAll(segment, 0, new OddTail[] {target}));
            TestCopyables.MixedSizes mixed = random.newFilled(TestCopyables.MixedSizes.class);
            assertThrowsLeavingFields(IllegalStateException.class, mixed, () -> mixed.readFrom(segment, 0));
        }
    }

    @Test
    void aConfinedSegmentUsedFromAnotherThreadThrowsWrongThreadExceptionAndCopiesNothing() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(64);
            Images.paint(segment);
            OddTail source = random.newFilled(OddTail.class);
            TestCopyables.MixedSizes mixed = random.newFilled(TestCopyables.MixedSizes.class);
            OddTail target = random.newFilled(OddTail.class);
            Map<String, Long> targetBefore = RandomFields.snapshot(target);
            Map<String, Long> mixedBefore = RandomFields.snapshot(mixed);
            Executable[] calls = {
                () -> copier.writeTo(source, segment, 1),
                () -> copier.writeAll(new OddTail[] {source, source}, segment, 0),
                () -> mixed.writeTo(segment, 0),
                () -> copier.readFrom(segment, 1, target),
                () -> copier.readAll(segment, 0, new OddTail[] {target}),
                () -> mixed.readFrom(segment, 0),
            };
            for (Executable call : calls) {
                Throwable thrown = CompletableFuture.supplyAsync(() -> {
                    try {
                        call.execute();
                        return null;
                    } catch (Throwable t) {
                        return t;
                    }
                }, runnable -> new Thread(runnable, "not-the-owner").start()).get(10, TimeUnit.SECONDS);
                assertTrue(thrown instanceof WrongThreadException, "expected WrongThreadException, got " + thrown);
            }
            Images.assertPainted(segment, "segment after copies from a thread that does not own it");
            assertEquals(targetBefore, RandomFields.snapshot(target));
            assertEquals(mixedBefore, RandomFields.snapshot(mixed));
        }
    }

    /** FFM rejects writes to a read-only segment with IllegalArgumentException (the MemorySegment.set contract), not UnsupportedOperationException. */
    @Test
    void aReadOnlySegmentRejectsWritesWithIllegalArgumentExceptionAndStaysUnchanged() {
        byte[] backing = new byte[64];
        MemorySegment writable = MemorySegment.ofArray(backing);
        Images.paint(writable);
        byte[] painted = backing.clone();
        try (Arena arena = Arena.ofConfined()) {
            for (MemorySegment readOnly : new MemorySegment[] {writable.asReadOnly(), arena.allocate(64).asReadOnly()}) {
                OddTail source = random.newFilled(OddTail.class);
                assertThrows(IllegalArgumentException.class, () -> copier.writeTo(source, readOnly, 0));
                assertThrows(IllegalArgumentException.class, () -> copier.writeAll(new OddTail[] {source, source}, readOnly, 5));
                TestCopyables.MixedSizes mixed = random.newFilled(TestCopyables.MixedSizes.class);
                assertThrows(IllegalArgumentException.class, () -> mixed.writeTo(readOnly, 1));
            }
        }
        assertArrayEquals(painted, backing, "the array behind the read-only view must be unchanged");

        // Reading from a read-only segment is allowed.
        OddTail written = random.newFilled(OddTail.class);
        copier.writeTo(written, writable, 9);
        OddTail read = new OddTail();
        copier.readFrom(writable.asReadOnly(), 9, read);
        RandomFields.assertSameBits(written, read);
    }

    private static void assertNullNamed(String name, Executable call) {
        NullPointerException e = assertThrows(NullPointerException.class, call, name);
        assertTrue(e.getMessage() != null && e.getMessage().matches("(?s).*(?<![\\w$])" + java.util.regex.Pattern.quote(name) + "(?![\\w$\\[]).*"),
                "the message must name '" + name + "': " + e.getMessage());
    }

    @Test
    void everyNullArgumentThrowsNullPointerExceptionNamingItAndCopiesNothing() {
        MemorySegment segment = paintedHeap(64);
        OddTail object = random.newFilled(OddTail.class);
        OddTail[] array = {object};
        Map<String, Long> before = RandomFields.snapshot(object);
        assertNullNamed("type", () -> BlockCopier.of(null));
        assertNullNamed("source", () -> copier.writeTo(null, segment, 0));
        assertNullNamed("target", () -> copier.writeTo(object, null, 0));
        assertNullNamed("source", () -> copier.readFrom(null, 0, object));
        assertNullNamed("target", () -> copier.readFrom(segment, 0, null));
        assertNullNamed("sources", () -> copier.writeAll(null, segment, 0));
        assertNullNamed("sources", () -> copier.writeAll(null, 0, 0, segment, 0));
        assertNullNamed("target", () -> copier.writeAll(array, null, 0));
        assertNullNamed("target", () -> copier.writeAll(array, 0, 1, null, 0));
        assertNullNamed("source", () -> copier.readAll(null, 0, array));
        assertNullNamed("source", () -> copier.readAll(null, 0, array, 0, 1));
        assertNullNamed("targets", () -> copier.readAll(segment, 0, null));
        assertNullNamed("targets", () -> copier.readAll(segment, 0, null, 0, 0));
        TestCopyables.Quote quote = random.newFilled(TestCopyables.Quote.class);
        Map<String, Long> quoteBefore = RandomFields.snapshot(quote);
        assertNullNamed("segment", () -> quote.writeTo(null, 0));
        assertNullNamed("segment", () -> quote.readFrom(null, 0));
        Images.assertPainted(segment, "segment after calls with a null argument");
        assertEquals(before, RandomFields.snapshot(object));
        assertEquals(quoteBefore, RandomFields.snapshot(quote));
    }

    @Test
    void aNullElementThrowsNullPointerExceptionBeforeTheFirstElementIsCopied() {
        MemorySegment segment = paintedHeap(8 * size);
        OddTail first = random.newFilled(OddTail.class);
        OddTail[] sources = {first, null, random.newFilled(OddTail.class)};
        assertNullNamed("sources[1]", () -> copier.writeAll(sources, segment, 0));
        assertNullNamed("sources[1]", () -> copier.writeAll(sources, 0, 2, segment, 0));
        Images.assertPainted(segment, "no element may be written before the null one is found");
        assertThrowsLeavingFields(NullPointerException.class, first, () -> copier.readAll(segment, 0, sources));
        assertNullNamed("targets[1]", () -> copier.readAll(segment, 0, sources, 0, 3));

        // A null outside the range is not an element of the copy.
        OddTail[] withNullOutside = {null, first, null};
        copier.writeAll(withNullOutside, 1, 1, segment, 2);
        Images.assertImage(segment, 2, copier.layout(), first);
    }

    @Test
    void anElementOfAnotherClassThrowsIllegalArgumentExceptionBeforeTheFirstElementIsCopied() {
        BlockCopier<ByteLong> base = BlockCopier.of(ByteLong.class);
        MemorySegment segment = paintedHeap(8 * base.byteSize());
        ByteLong first = random.newFilled(ByteLong.class);
        FillsSuperclassHoles sub = random.newFilled(FillsSuperclassHoles.class);
        ByteLong[] mixed = {first, first, sub};
        assertThrows(IllegalArgumentException.class, () -> base.writeAll(mixed, segment, 0));
        assertThrows(IllegalArgumentException.class, () -> base.writeAll(mixed, 1, 2, segment, 0));
        Images.assertPainted(segment, "no element may be written before the wrong-class one is found");
        assertThrowsLeavingFields(IllegalArgumentException.class, first, () -> base.readAll(segment, 0, mixed));
        assertThrowsLeavingFields(IllegalArgumentException.class, sub, () -> base.readAll(segment, 0, mixed, 1, 2));
    }

    @Test
    void aSubclassInstanceIsRejectedByItsSuperclassCopierAndLeftUntouched() {
        BlockCopier<ByteLong> base = BlockCopier.of(ByteLong.class);
        MemorySegment segment = paintedHeap(64);
        FillsSuperclassHoles sub = random.newFilled(FillsSuperclassHoles.class);
        IllegalArgumentException write = assertThrows(IllegalArgumentException.class, () -> base.writeTo(sub, segment, 0));
        assertTrue(write.getMessage().contains(ByteLong.class.getName()) && write.getMessage().contains(FillsSuperclassHoles.class.getName()),
                write.getMessage());
        Images.assertPainted(segment, "a rejected subclass instance must write nothing");

        // A valid ByteLong image whose bytes would land in the subclass's hole-filling fields z, w, v.
        base.writeTo(random.newFilled(ByteLong.class), segment, 0);
        IllegalArgumentException read = assertThrowsLeavingFields(IllegalArgumentException.class, sub, () -> base.readFrom(segment, 0, sub));
        assertTrue(read.getMessage().contains(FillsSuperclassHoles.class.getName()), read.getMessage());
    }

    @Test
    void aTriviallyCopyableSubclassWithAReferenceFieldFailsOnEveryCallNamingTheField() {
        TestCopyables.WithString bad = new TestCopyables.WithString();
        bad.id = 42;
        MemorySegment segment = paintedHeap(64);
        String firstMessage = null;
        for (int round = 0; round < 2; round++) {
            for (Executable call : new Executable[] {bad::byteSize, bad::layout, () -> bad.writeTo(segment, 0), () -> bad.readFrom(segment, 0)}) {
                NotTriviallyCopyableException e = assertThrows(NotTriviallyCopyableException.class, call);
                assertEquals(TestCopyables.WithString.class, e.type());
                assertTrue(e.getMessage().contains("WithString.label") && e.getMessage().contains("java.lang.String"), e.getMessage());
                firstMessage = firstMessage == null ? e.getMessage() : firstMessage;
                assertEquals(firstMessage, e.getMessage(), "every call fails with the same verdict");
            }
        }
        Images.assertPainted(segment, "nothing may be written for a class that is not trivially copyable");
        assertEquals(42, bad.id);
    }

    @SuppressWarnings("unused")
    private static final class WithFinal { long id; final int version = 1; }

    /** javac (18+) omits this$0 from an inner class that never uses its enclosing instance; this one does. */
    @SuppressWarnings("unused")
    private final class Inner {
        long id;

        Object outer() {
            return CopySafetyTest.this;
        }
    }

    private record Point(int x, int y) { }

    @Test
    void blockCopierOfAClassThatIsNotTriviallyCopyableFailsOnEveryCallNamingTheCause() {
        Map<Class<?>, String> causes = Map.of(
                TestCopyables.WithString.class, "WithString.label",
                WithFinal.class, "WithFinal.version",
                Inner.class, "this$0",
                Point.class, "record",
                Runnable.class, "interface",
                Object.class, "no instance fields",
                Shapes.class, "no instance fields");
        causes.forEach((type, cause) -> {
            NotTriviallyCopyableException first = assertThrows(NotTriviallyCopyableException.class, () -> BlockCopier.of(type));
            assertTrue(first.getMessage().contains(type.getName()) && first.getMessage().contains(cause), first.getMessage());
            NotTriviallyCopyableException again = assertThrows(NotTriviallyCopyableException.class, () -> BlockCopier.of(type));
            assertEquals(first.getMessage(), again.getMessage());
        });
    }
}
