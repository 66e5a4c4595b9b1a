package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.core.TestCopyables.MixedSizes;
import io.blit.core.TestCopyables.Quote;
import io.blit.layout.FieldDescriptor;
import io.blit.layout.FieldType;
import io.blit.layout.JvmFacts;
import io.blit.layout.LayoutDescriptor;
import io.blit.layout.internal.UnsafeAccess;
import io.blit.layout.shapes.Shapes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link BlockReader} against writer layouts built by hand in this JVM: reordered, with fields missing
 * or extra, retyped, big-endian. The same reads between real JVM modes are {@link CrossModeReadTest}.
 */
class BlockReaderTest {

    static Stream<Class<?>> classes() {
        return Stream.concat(TestCopyables.GOOD.stream(), Stream.of(Shapes.HoleyThree.class, Shapes.AllPrimitives.class,
                Shapes.NineBooleans.class, io.blit.layout.shapes.Wide216.class));
    }

    @Test
    void identicalLayoutIsOneBulkCopyInBothPolicies() {
        for (LayoutPolicy policy : LayoutPolicy.values()) {
            BlockReader<MixedSizes> reader = BlockReader.of(descriptorOf(MixedSizes.class), MixedSizes.class, policy);
            assertFalse(reader.translates(), reader.toString());
            assertTrue(reader.toString().contains("bulk copy"), reader.toString());
            MixedSizes written = new MixedSizes();
            DistinctValues.fill(written, 0);
            MemorySegment segment = MemorySegment.ofArray(new long[32]);
            written.writeTo(segment, 8);
            MixedSizes read = new MixedSizes();
            reader.readFrom(segment, 8, read);
            assertEquals(List.of(), DistinctValues.mismatches(read, 0));
        }
    }

    @ParameterizedTest
    @MethodSource("classes")
    void reversedFieldOrderTranslatesEveryFieldOfEveryRecordExactly(Class<?> type) {
        LayoutDescriptor writer = reversed(descriptorOf(type));
        assertFalse(writer.compatibility(descriptorOf(type)).identical(), writer.describe());
        assertEveryRecordExact(writer, type);
    }

    @Test
    void strictRefusesAReorderedLayoutNamingEveryMovedFieldWithBothOffsets() {
        LayoutDescriptor mine = descriptorOf(MixedSizes.class);
        LayoutDescriptor writer = reversed(mine);
        IncompatibleLayoutException e = assertThrows(IncompatibleLayoutException.class,
                () -> BlockReader.of(writer, MixedSizes.class, LayoutPolicy.STRICT));
        String message = e.getMessage();
        assertTrue(message.contains("LayoutPolicy.STRICT") && message.contains(MixedSizes.class.getName()), message);
        int moved = 0;
        for (FieldDescriptor field : mine.fields()) {
            int w = writer.field(field.name()).offset() - writer.start();
            int r = field.offset() - mine.start();
            String line = "'" + field.name() + "' moved from +" + w + " (writer) to +" + r + " (reader)";
            assertEquals(w != r, message.contains(line), line + " in:\n" + message);
            moved += w != r ? 1 : 0;
        }
        assertTrue(moved > 0);
        assertEquals(e.comparison().differences().size(), message.lines().count() - 1, message);
    }

    @Test
    void aFieldTheWriterLacksReadsAsZeroAndTheOthersExactly() {
        LayoutDescriptor mine = descriptorOf(MixedSizes.class);
        for (FieldDescriptor dropped : mine.fields()) {
            List<FieldDescriptor> fields = new ArrayList<>(mine.fields());
            fields.remove(dropped);
            LayoutDescriptor writer = LayoutDescriptor.of(mine.className(), fields, mine.jvm());
            BlockReader<MixedSizes> reader = BlockReader.of(writer, MixedSizes.class, LayoutPolicy.TRANSLATE);
            assertEquals(List.of(dropped.name()), reader.zeroedFields());
            assertEquals(List.of(), reader.ignoredFields());
            for (int record = 0; record < DistinctValues.RECORDS; record++) {
                MixedSizes source = new MixedSizes();
                DistinctValues.fill(source, record);
                MixedSizes target = new MixedSizes();
                DistinctValues.fill(target, (record + 1) % DistinctValues.RECORDS);
                reader.readFrom(image(writer, source), 0, target);
                Field zeroed = RandomFields.field(MixedSizes.class, dropped.name());
                assertEquals(0L, RandomFields.rawBits(zeroed, target), dropped.name());
                RandomFields.setRawBits(zeroed, target, RandomFields.rawBits(zeroed, source));
                assertEquals(List.of(), DistinctValues.mismatches(target, record), "dropped " + dropped.name());
            }
            assertThrows(IncompatibleLayoutException.class, () -> BlockReader.of(writer, MixedSizes.class, LayoutPolicy.STRICT));
        }
    }

    @Test
    void aFieldOnlyTheWriterHasIsIgnoredAndAdjacentFieldsCoalesceIntoOneRun() {
        LayoutDescriptor mine = descriptorOf(Quote.class);
        List<FieldDescriptor> fields = new ArrayList<>();
        fields.add(new FieldDescriptor("sequence", "com.acme.Quote", FieldType.LONG, mine.start()));
        for (FieldDescriptor field : mine.fields()) {
            fields.add(new FieldDescriptor(field.name(), field.declaringClassName(), field.type(), field.offset() + 8));
        }
        LayoutDescriptor writer = LayoutDescriptor.of("com.acme.Quote", fields, mine.jvm());
        BlockReader<Quote> reader = BlockReader.of(writer, Quote.class, LayoutPolicy.TRANSLATE);
        assertEquals(List.of("sequence"), reader.ignoredFields());
        assertEquals(List.of(), reader.zeroedFields());
        assertEquals(152, reader.byteSize());
        assertTrue(reader.toString().contains("1 run [+8->+0 (144)]"), reader.toString());
        assertEveryRecordExact(writer, Quote.class);
    }

    @Test
    void aChangedTypeIsRefusedInBothPoliciesNamingTheClassTheFieldAndBothTypes() {
        LayoutDescriptor mine = descriptorOf(MixedSizes.class);
        List<FieldDescriptor> fields = new ArrayList<>();
        for (FieldDescriptor field : mine.fields()) {
            FieldType type = field.name().equals("count") ? FieldType.FLOAT : field.type();
            fields.add(new FieldDescriptor(field.name(), field.declaringClassName(), type, field.offset()));
        }
        LayoutDescriptor writer = LayoutDescriptor.of(mine.className(), fields, mine.jvm());
        String translate = assertThrows(IncompatibleLayoutException.class,
                () -> BlockReader.of(writer, MixedSizes.class, LayoutPolicy.TRANSLATE)).getMessage();
        assertTrue(translate.contains(MixedSizes.class.getName() + ": field 'count' type changed from float (writer, ")
                && translate.contains(") to int (reader, "), translate);
        assertTrue(translate.contains("never converts a type"), translate);
        String strict = assertThrows(IncompatibleLayoutException.class,
                () -> BlockReader.of(writer, MixedSizes.class, LayoutPolicy.STRICT)).getMessage();
        assertTrue(strict.contains("field 'count' type changed from float (writer) to int (reader)"), strict);
    }

    @Test
    void aBigEndianWriterIsByteSwappedUnderTranslateAndRefusedUnderStrict() {
        assertEquals(ByteOrder.LITTLE_ENDIAN, ByteOrder.nativeOrder(), "this test assumes a little-endian machine");
        for (Class<?> type : List.of(MixedSizes.class, Quote.class, Shapes.AllPrimitives.class)) {
            LayoutDescriptor mine = descriptorOf(type);
            JvmFacts j = mine.jvm();
            LayoutDescriptor writer = new LayoutDescriptor(mine.className(), mine.start(), mine.length(), mine.fields(),
                    new JvmFacts(j.objectHeaderSize(), j.compactObjectHeaders(), j.compressedClassPointers(), j.objectAlignment(),
                            j.vmName(), j.vmVersion(), ByteOrder.BIG_ENDIAN), mine.fingerprint());
            BlockReader<?> reader = BlockReader.of(writer, type, LayoutPolicy.TRANSLATE);
            assertTrue(reader.translates(), reader.toString());
            assertTrue(reader.toString().contains("swapped"), reader.toString());
            assertEveryRecordExact(writer, type);
            String strict = assertThrows(IncompatibleLayoutException.class,
                    () -> BlockReader.of(writer, type, LayoutPolicy.STRICT)).getMessage();
            assertTrue(strict.contains("byte order changed from BIG_ENDIAN (writer) to LITTLE_ENDIAN (reader)"), strict);
        }
    }

    @Test
    void boundsAreCheckedWithTheWritersLengthBeforeAnythingIsRead() {
        LayoutDescriptor writer = reversed(descriptorOf(Quote.class));
        List<FieldDescriptor> longer = new ArrayList<>(writer.fields());
        longer.add(new FieldDescriptor("trailer", "com.acme.Quote", FieldType.INT, writer.end()));
        LayoutDescriptor wide = LayoutDescriptor.of("com.acme.Quote", longer, writer.jvm());
        BlockReader<Quote> reader = BlockReader.of(wide, Quote.class, LayoutPolicy.TRANSLATE);
        assertEquals(148, reader.byteSize());
        Quote source = new Quote();
        DistinctValues.fill(source, 1);
        MemorySegment exact = image(wide, source);
        assertEquals(148, exact.byteSize());
        Quote target = new Quote();
        reader.readFrom(exact, 0, target);
        assertEquals(List.of(), DistinctValues.mismatches(target, 1));

        Quote untouched = new Quote();
        DistinctValues.fill(untouched, 2);
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                () -> reader.readFrom(exact.asSlice(0, 147), 0, untouched));
        assertEquals("offset=0 length=148 capacity=147", e.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> reader.readFrom(exact, 1, untouched));
        assertThrows(IndexOutOfBoundsException.class, () -> reader.readFrom(exact, -1, untouched));
        assertEquals(List.of(), DistinctValues.mismatches(untouched, 2));
    }

    @Test
    void aClosedOrForeignThreadSegmentFailsBeforeTheTargetIsTouched() throws Exception {
        LayoutDescriptor writer = reversed(descriptorOf(MixedSizes.class));
        BlockReader<MixedSizes> reader = BlockReader.of(writer, MixedSizes.class, LayoutPolicy.TRANSLATE);
        MixedSizes target = new MixedSizes();
        DistinctValues.fill(target, 3);
        Arena shared = Arena.ofShared();
        MemorySegment closed = shared.allocate(writer.length());
        shared.close();
        assertThrows(IllegalStateException.class, () -> reader.readFrom(closed, 0, target));
        try (Arena confined = Arena.ofConfined()) {
            MemorySegment mine = confined.allocate(writer.length());
            try (ExecutorService other = Executors.newSingleThreadExecutor()) {
                Future<Throwable> failure = other.submit(() -> {
                    try {
                        reader.readFrom(mine, 0, target);
                        return null;
                    } catch (Throwable t) {
                        return t;
                    }
                });
                assertTrue(failure.get() instanceof WrongThreadException, String.valueOf(failure.get()));
            }
        }
        assertEquals(List.of(), DistinctValues.mismatches(target, 3));
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void argumentsAreChecked() {
        BlockReader reader = BlockReader.of(reversed(descriptorOf(MixedSizes.class)), MixedSizes.class, LayoutPolicy.TRANSLATE);
        MemorySegment segment = MemorySegment.ofArray(new byte[reader.copier().layout().length() + 64]);
        assertThrows(IllegalArgumentException.class, () -> reader.readFrom(segment, 0, new Quote()));
        assertThrows(NullPointerException.class, () -> reader.readFrom(null, 0, new MixedSizes()));
        assertThrows(NullPointerException.class, () -> reader.readFrom(segment, 0, null));
        assertThrows(NullPointerException.class, () -> BlockReader.of(null, MixedSizes.class, LayoutPolicy.TRANSLATE));
        assertThrows(NullPointerException.class, () -> BlockReader.of(descriptorOf(MixedSizes.class), MixedSizes.class, null));
    }

    @Test
    void aWriterLayoutWithTwoFieldsOfOneNameIsRefused() {
        LayoutDescriptor mine = descriptorOf(Quote.class);
        List<FieldDescriptor> fields = new ArrayList<>(mine.fields());
        fields.add(new FieldDescriptor("time", "com.acme.Base", FieldType.LONG, mine.end()));
        LayoutDescriptor writer = LayoutDescriptor.of(mine.className(), fields, mine.jvm());
        String message = assertThrows(IncompatibleLayoutException.class,
                () -> BlockReader.of(writer, Quote.class, LayoutPolicy.TRANSLATE)).getMessage();
        assertTrue(message.contains("two fields named 'time'"), message);
    }

    /** The engines this JVM offers: all three, or only GENERATED_FFM when sun.misc.Unsafe memory access is denied. */
    static Stream<CopyEngine> engines() {
        return UnsafeAccess.memoryAccessAllowed() ? Stream.of(CopyEngine.values()) : Stream.of(CopyEngine.GENERATED_FFM);
    }

    @ParameterizedTest
    @MethodSource("engines")
    void everyEngineTranslatesExactlyGeneratedCodeExceptTheWordLoopWhichUsesScratch(CopyEngine engine) {
        for (Class<?> type : classes().toList()) {
            LayoutDescriptor writer = reversed(descriptorOf(type));
            BlockReader<?> reader = BlockReader.of(writer, BlockCopier.of(type, engine), LayoutPolicy.TRANSLATE);
            String how = engine == CopyEngine.WORD_LOOP ? "translated through scratch" : "translated by generated code";
            assertTrue(reader.toString().contains(how), reader.toString());
            assertEveryRecordExact(reader);
        }
    }

    @Test
    void readersOfOneWriterLayoutShareTheirGeneratedCode() {
        LayoutDescriptor writer = reversed(descriptorOf(MixedSizes.class));
        BlockReader<MixedSizes> first = BlockReader.of(writer, MixedSizes.class, LayoutPolicy.TRANSLATE);
        BlockReader<MixedSizes> second = BlockReader.of(writer, MixedSizes.class, LayoutPolicy.TRANSLATE);
        assertSame(first.translator(), second.translator());
        assertNotNull(first.translator());
    }

    @ParameterizedTest
    @MethodSource("engines")
    void aGeneratedTranslatedReadAllocatesNothing(CopyEngine engine) {
        if (engine == CopyEngine.WORD_LOOP) {
            return; // its scratch is allocated once per thread, not per read; not what this test is about
        }
        LayoutDescriptor writer = reversed(descriptorOf(MixedSizes.class));
        BlockReader<MixedSizes> reader = BlockReader.of(writer, BlockCopier.of(MixedSizes.class, engine), LayoutPolicy.TRANSLATE);
        MixedSizes source = new MixedSizes();
        DistinctValues.fill(source, 1);
        MixedSizes target = new MixedSizes();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment confined = arena.allocate(writer.length());
            MemorySegment.copy(image(writer, source), 0, confined, 0, writer.length());
            MemorySegment heap = image(writer, source);
            for (MemorySegment segment : List.of(confined, heap)) {
                reader.readFrom(segment, 0, target); // first read: class initialisation, not per read
                long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < 100_000; i++) {
                    reader.readFrom(segment, 0, target);
                }
                long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                // Interpreted, then compiled: an allocation per read would be >= 1.6 MB here.
                assertTrue(allocated < 16_384, engine + ", " + (segment.isNative() ? "confined native" : "heap")
                        + " segment: 100,000 reads allocated " + allocated + " bytes");
                assertEquals(List.of(), DistinctValues.mismatches(target, 1));
            }
        }
    }

    @Test
    void concurrentTranslatedReadsDoNotInterfere() throws Exception {
        LayoutDescriptor writer = reversed(descriptorOf(MixedSizes.class));
        BlockReader<MixedSizes> reader = BlockReader.of(writer, MixedSizes.class, LayoutPolicy.TRANSLATE);
        List<MemorySegment> images = new ArrayList<>();
        for (int record = 0; record < 4; record++) {
            MixedSizes source = new MixedSizes();
            DistinctValues.fill(source, record);
            images.add(image(writer, source));
        }
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<List<String>>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int record = t;
                results.add(pool.submit(() -> {
                    MixedSizes target = new MixedSizes();
                    for (int i = 0; i < 2_000; i++) {
                        reader.readFrom(images.get(record), 0, target);
                        List<String> wrong = DistinctValues.mismatches(target, record);
                        if (!wrong.isEmpty()) {
                            return wrong;
                        }
                    }
                    return List.of();
                }));
            }
            for (Future<List<String>> result : results) {
                assertEquals(List.of(), result.get());
            }
        }
    }

    // ---- helpers

    static LayoutDescriptor descriptorOf(Class<?> type) {
        return BlockCopier.of(type).layout().descriptor();
    }

    /** The same fields packed without gaps in the reverse of their offset order, from the same start. */
    static LayoutDescriptor reversed(LayoutDescriptor layout) {
        List<FieldDescriptor> fields = new ArrayList<>();
        int offset = layout.start();
        for (FieldDescriptor field : layout.fields().reversed()) {
            fields.add(new FieldDescriptor(field.name(), field.declaringClassName(), field.type(), offset));
            offset += field.size();
        }
        return LayoutDescriptor.of(layout.className(), fields, layout.jvm());
    }

    /**
     * A writer's block image of {@code values} under {@code writer}: each field's bits at its offset in the
     * writer's byte order; fields {@code values} lacks get 0xA5 bytes.
     */
    static MemorySegment image(LayoutDescriptor writer, Object values) {
        Map<String, Long> bits = RandomFields.snapshot(values);
        MemorySegment image = MemorySegment.ofArray(new byte[writer.length()]);
        boolean big = writer.jvm().byteOrder() == ByteOrder.BIG_ENDIAN;
        for (FieldDescriptor field : writer.fields()) {
            long value = bits.getOrDefault(field.name(), 0xA5A5_A5A5_A5A5_A5A5L);
            int at = field.offset() - writer.start();
            for (int j = 0; j < field.size(); j++) {
                int lane = big ? field.size() - 1 - j : j;
                image.set(java.lang.foreign.ValueLayout.JAVA_BYTE, at + lane, (byte) (value >>> (8 * j)));
            }
        }
        return image;
    }

    /** Every record of {@link DistinctValues}, written under {@code writer}, reads back exactly into a dirty target. */
    private static <T> void assertEveryRecordExact(LayoutDescriptor writer, Class<T> type) {
        assertEveryRecordExact(BlockReader.of(writer, type, LayoutPolicy.TRANSLATE));
    }

    /** As above, with {@code reader} (through a confined native segment: by address where the engine can). */
    private static <T> void assertEveryRecordExact(BlockReader<T> reader) {
        Class<T> type = reader.copier().type();
        LayoutDescriptor writer = reader.writerLayout();
        assertTrue(reader.translates(), reader.toString());
        for (int record = 0; record < DistinctValues.RECORDS; record++) {
            T source = RandomFields.newInstance(type);
            DistinctValues.fill(source, record);
            T target = RandomFields.newInstance(type);
            DistinctValues.fill(target, (record + 1) % DistinctValues.RECORDS);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment native_ = arena.allocate(writer.length() + 3L);
                MemorySegment.copy(image(writer, source), 0, native_, 3, writer.length());
                reader.readFrom(native_, 3, target);
            }
            assertEquals(List.of(), DistinctValues.mismatches(target, record), type.getSimpleName() + " record " + record + " " + reader);
        }
    }
}
