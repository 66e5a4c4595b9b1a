package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.blit.layout.BlockLayout;
import io.blit.layout.FieldSlot;
import io.blit.layout.shapes.Shapes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shared arena closed by one thread while others copy into and out of its segment: every copy
 * completes or throws IllegalStateException, the JVM survives, and an object being read into only
 * ever holds its prior values (zero) or values from the segment.
 *
 * <p>Each round: region A of a fresh segment holds a known pattern that two readers copy out of
 * (one with readAll, one with readFrom per slot) into freshly allocated objects; a writer copies
 * objects into region B; once every worker has completed a copy, the main thread closes the arena
 * after a random spin. Workers loop until their copy fails, so each round ends with one
 * IllegalStateException per worker.
 *
 * <p>A copy is a sequence of word accesses and the close can land between any two, so a field that
 * straddles two words of the copy loop may legitimately end up half prior, half pattern (a torn
 * field). The MarketData shape has only 8-byte fields at 8-aligned offsets in every header mode, so
 * there each field must be wholly prior or wholly pattern; for OddTail each byte must be one or the other.
 */
class ConcurrentCloseTest {
    private static final int ROUNDS = 300;
    private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(4);
    private static final int MIN_ROUNDS = 30;
    private static final int SLOTS = 32;
    private static final int CHECK_EVERY = 16;
    private static final long WAIT_SECONDS = 20;

    private final ExecutorService workers = Executors.newFixedThreadPool(3);

    @TempDir
    Path directory;

    @AfterEach
    void stopWorkers() throws InterruptedException {
        workers.shutdownNow();
        assertTrue(workers.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS), "workers must stop");
    }

    @Test
    void closingANativeSharedArenaDuringCopiesOfWholeWordFieldsFailsThemCleanly() throws Exception {
        run(Shapes.MarketDataShape.class, true, "native memory", (arena, bytes) -> arena.allocate(bytes));
    }

    @Test
    void closingANativeSharedArenaDuringCopiesOfMixedFieldsLeavesOnlyPriorOrSegmentBytes() throws Exception {
        run(Shapes.OddTail.class, false, "native memory", (arena, bytes) -> arena.allocate(bytes));
    }

    @Test
    void closingTheSharedArenaOfAMappedFileDuringCopiesFailsThemCleanly() throws Exception {
        Path file = directory.resolve("concurrent-close.bin");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            SegmentFactory mapped = (arena, bytes) -> {
                try {
                    return channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes, arena);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            };
            run(Shapes.MarketDataShape.class, true, "a mapped file", mapped);
            run(Shapes.OddTail.class, false, "a mapped file", mapped);
        }
    }

    interface SegmentFactory {
        MemorySegment allocate(Arena arena, long bytes);
    }

    /** What one round's readers saw when their copy failed. */
    record Stats(long completedCopies, long partialReads, long tornFields) {
        Stats plus(Stats other) {
            return new Stats(completedCopies + other.completedCopies, partialReads + other.partialReads, tornFields + other.tornFields);
        }
    }

    private void run(Class<?> shape, boolean wholeFields, String memory, SegmentFactory factory) throws Exception {
        @SuppressWarnings("unchecked")
        BlockCopier<Object> copier = (BlockCopier<Object>) BlockCopier.of(shape);
        long region = SLOTS * copier.byteSize();
        MemorySegment pattern = MemorySegment.ofArray(new byte[Math.toIntExact(region)]);
        Images.paint(pattern);
        Expectation expectation = new Expectation(copier.layout(), pattern);
        SplittableRandom random = new SplittableRandom(shape.getName().hashCode());
        RandomFields fields = new RandomFields(7);
        Object[] sources = newArray(shape);
        for (int i = 0; i < SLOTS; i++) {
            sources[i] = fields.newFilled(shape);
        }

        Stats total = new Stats(0, 0, 0);
        int rounds = 0;
        long start = System.nanoTime();
        while (rounds < ROUNDS && System.nanoTime() - start < BUDGET_NANOS) {
            Arena arena = Arena.ofShared();
            MemorySegment segment = factory.allocate(arena, 2 * region);
            MemorySegment.copy(pattern, 0, segment, 0, region);
            CountDownLatch copiedOnce = new CountDownLatch(3);
            List<Future<Stats>> futures = new ArrayList<>();
            futures.add(workers.submit(reader(copier, segment, expectation, wholeFields, true, copiedOnce)));
            futures.add(workers.submit(reader(copier, segment, expectation, wholeFields, false, copiedOnce)));
            futures.add(workers.submit(writer(copier, segment.asSlice(region), sources, copiedOnce)));
            assertTrue(copiedOnce.await(WAIT_SECONDS, TimeUnit.SECONDS), "every worker completes a copy before the close");
            for (int spin = random.nextInt(20_000); spin > 0; spin--) {
                Thread.onSpinWait(); // varies where the close lands; not synchronisation
            }
            arena.close();
            assertFalse(segment.scope().isAlive());
            for (Future<Stats> future : futures) {
                total = total.plus(outcome(future));
            }
            rounds++;
        }
        System.out.printf("%s over %s: %d rounds, %d completed copies, %d reads cut short mid-array, %d torn fields%n",
                shape.getSimpleName(), memory, rounds, total.completedCopies(), total.partialReads(), total.tornFields());
        assertTrue(rounds >= MIN_ROUNDS, "only " + rounds + " rounds in the time budget");
        assertTrue(total.completedCopies() >= 3L * rounds, "every worker completed at least one copy per round");
        if (wholeFields) {
            assertEquals(0, total.tornFields(), "fields that are whole words of the copy loop cannot tear");
        }
    }

    private static Stats outcome(Future<Stats> future) throws Exception {
        try {
            return future.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            // Anything but IllegalStateException escapes the worker and fails the test with its cause.
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /** Reads region A into fresh objects until a copy fails; checks completed reads sometimes, the failed one always. */
    private static Callable<Stats> reader(BlockCopier<Object> copier, MemorySegment segment, Expectation expectation,
                                          boolean wholeFields, boolean bulk, CountDownLatch copiedOnce) {
        return () -> {
            long completed = 0;
            while (true) {
                Object[] targets = newArray(copier.type());
                for (int i = 0; i < SLOTS; i++) {
                    targets[i] = RandomFields.newInstance(copier.type());
                }
                try {
                    if (bulk) {
                        copier.readAll(segment, 0, targets);
                    } else {
                        for (int i = 0; i < SLOTS; i++) {
                            copier.readFrom(segment, i * copier.byteSize(), targets[i]);
                        }
                    }
                } catch (IllegalStateException closed) {
                    copiedOnce.countDown(); // only matters if the close came first, which the latch excludes
                    long[] counts = expectation.checkPriorOrPattern(targets, wholeFields);
                    boolean partial = counts[0] > 0 && counts[1] > 0;
                    return new Stats(completed, partial ? 1 : 0, counts[2]);
                }
                if (completed++ % CHECK_EVERY == 0) {
                    expectation.checkPattern(targets);
                }
                copiedOnce.countDown();
            }
        };
    }

    /** Writes objects into region B until a copy fails. */
    private static Callable<Stats> writer(BlockCopier<Object> copier, MemorySegment regionB, Object[] sources, CountDownLatch copiedOnce) {
        return () -> {
            long completed = 0;
            while (true) {
                try {
                    copier.writeAll(sources, regionB, 0);
                } catch (IllegalStateException closed) {
                    copiedOnce.countDown();
                    return new Stats(completed, 0, 0);
                }
                completed++;
                copiedOnce.countDown();
            }
        };
    }

    private static Object[] newArray(Class<?> shape) {
        return (Object[]) Array.newInstance(shape, SLOTS);
    }

    /** The bits each field of each slot must hold after a complete read, taken from the pattern without the copier. */
    private static final class Expectation {
        private final Field[] fields;
        private final int[] sizes;
        private final long[][] bits;

        Expectation(BlockLayout layout, MemorySegment pattern) {
            List<FieldSlot> slots = layout.fields();
            fields = new Field[slots.size()];
            sizes = new int[slots.size()];
            bits = new long[SLOTS][slots.size()];
            for (int f = 0; f < slots.size(); f++) {
                FieldSlot slot = slots.get(f);
                fields[f] = RandomFields.field(layout.type(), slot.name());
                sizes[f] = slot.size();
                for (int s = 0; s < SLOTS; s++) {
                    bits[s][f] = Images.bitsAt(pattern, (long) s * layout.length() + slot.offset() - layout.start(), slot.type());
                }
            }
        }

        void checkPattern(Object[] targets) {
            for (int s = 0; s < SLOTS; s++) {
                for (int f = 0; f < fields.length; f++) {
                    long got = RandomFields.rawBits(fields[f], targets[s]);
                    if (got != bits[s][f]) {
                        fail("complete read, slot " + s + " " + fields[f].getName() + ": 0x" + Long.toHexString(got)
                                + " instead of 0x" + Long.toHexString(bits[s][f]));
                    }
                }
            }
        }

        /** Counts of {fields from the pattern, fields still zero, torn fields}; fails on any other value. */
        long[] checkPriorOrPattern(Object[] targets, boolean wholeFields) {
            long[] counts = new long[3];
            for (int s = 0; s < SLOTS; s++) {
                for (int f = 0; f < fields.length; f++) {
                    long got = RandomFields.rawBits(fields[f], targets[s]);
                    if (got == bits[s][f]) {
                        counts[0]++;
                    } else if (got == 0) {
                        counts[1]++;
                    } else if (!wholeFields && eachByteIsZeroOrPattern(got, bits[s][f], sizes[f])) {
                        counts[2]++;
                    } else {
                        fail("after a failed read, slot " + s + " " + fields[f].getName() + " holds 0x" + Long.toHexString(got)
                                + ", which is neither its prior value 0 nor the segment's 0x" + Long.toHexString(bits[s][f])
                                + (wholeFields ? "" : " nor a byte-wise mix of both"));
                    }
                }
            }
            return counts;
        }

        private static boolean eachByteIsZeroOrPattern(long got, long want, int size) {
            for (int shift = 0; shift < 8 * size; shift += 8) {
                long b = (got >>> shift) & 0xFF;
                if (b != 0 && b != ((want >>> shift) & 0xFF)) {
                    return false;
                }
            }
            return true;
        }
    }
}
