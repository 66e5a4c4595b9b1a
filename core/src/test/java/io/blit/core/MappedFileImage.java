package io.blit.core;

import io.blit.layout.JvmFacts;
import io.blit.layout.shapes.Shapes;
import io.blit.layout.shapes.Wide216;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The content of the file that two JVMs exchange in {@link FreshJvmMappedFileTest}: {@link #COUNT}
 * objects of each of {@link #SHAPES}, generated from a seed, in consecutive slots from the unaligned
 * offset {@link #FIRST_SLOT}, one shape after another.
 */
final class MappedFileImage {
    static final List<Class<?>> SHAPES = List.of(Shapes.MarketDataShape.class, Shapes.AllPrimitives.class,
            Shapes.FillsSuperclassHoles.class, Shapes.LongDoubleIntByte.class, Shapes.OddTail.class,
            Shapes.HoleyThree.class, Shapes.NineBooleans.class, Wide216.class);
    static final int COUNT = 5;
    static final long FIRST_SLOT = 5;

    private MappedFileImage() {
    }

    static long fileSize() {
        long size = FIRST_SLOT;
        for (Class<?> shape : SHAPES) {
            size += COUNT * BlockCopier.of(shape).byteSize();
        }
        return size;
    }

    /** The objects of the file, shape by shape, as generated from {@code seed}. */
    static List<Object> objects(long seed) {
        RandomFields random = new RandomFields(seed);
        List<Object> objects = new ArrayList<>();
        for (Class<?> shape : SHAPES) {
            for (int i = 0; i < COUNT; i++) {
                objects.add(random.newFilled(shape));
            }
        }
        return objects;
    }

    /** Writes each shape's objects with one bulk call; the first object of each shape with writeTo. */
    static void write(MemorySegment file, List<Object> objects) {
        write(file, objects, null);
    }

    /** As {@link #write(MemorySegment, List)} with the copiers of {@code engine} (null: {@link BlockCopier#of(Class)}'s). */
    static void write(MemorySegment file, List<Object> objects, CopyEngine engine) {
        long offset = FIRST_SLOT;
        for (int s = 0; s < SHAPES.size(); s++) {
            BlockCopier<Object> copier = copier(SHAPES.get(s), engine);
            Object[] slice = array(SHAPES.get(s));
            for (int i = 0; i < COUNT; i++) {
                slice[i] = objects.get(s * COUNT + i);
            }
            copier.writeTo(slice[0], file, offset);
            copier.writeAll(slice, 1, COUNT - 1, file, offset + copier.byteSize());
            offset += COUNT * copier.byteSize();
        }
    }

    /** Reads every object of the file into fresh instances. */
    static List<Object> read(MemorySegment file) {
        return read(file, null);
    }

    /** As {@link #read(MemorySegment)} with the copiers of {@code engine} (null: {@link BlockCopier#of(Class)}'s). */
    static List<Object> read(MemorySegment file, CopyEngine engine) {
        List<Object> objects = new ArrayList<>();
        long offset = FIRST_SLOT;
        for (Class<?> shape : SHAPES) {
            BlockCopier<Object> copier = copier(shape, engine);
            Object[] slice = array(shape);
            for (int i = 0; i < COUNT; i++) {
                slice[i] = RandomFields.newInstance(shape);
            }
            copier.readAll(file, offset, slice);
            objects.addAll(List.of(slice));
            offset += COUNT * copier.byteSize();
        }
        return objects;
    }

    /** What each side reports: header mode, each shape's fingerprint and each object's digest, one per line. */
    static List<String> describe(List<Object> objects) {
        List<String> lines = new ArrayList<>();
        lines.add("header " + JvmFacts.current().headerMode());
        for (Class<?> shape : SHAPES) {
            lines.add("fingerprint " + shape.getSimpleName() + " " + BlockCopier.of(shape).layout().fingerprint());
        }
        for (int i = 0; i < objects.size(); i++) {
            lines.add("object " + i + " " + objects.get(i).getClass().getSimpleName() + " " + RandomFields.digest(objects.get(i)));
        }
        return lines;
    }

    /** Maps the whole file read-write, creating it with the image's size if asked. */
    static MemorySegment map(Path file, Arena arena, boolean create) throws IOException {
        List<StandardOpenOption> options = new ArrayList<>(List.of(StandardOpenOption.READ, StandardOpenOption.WRITE));
        if (create) {
            options.add(StandardOpenOption.CREATE_NEW);
        }
        try (FileChannel channel = FileChannel.open(file, options.toArray(StandardOpenOption[]::new))) {
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, fileSize(), arena);
        }
    }

    @SuppressWarnings("unchecked")
    private static BlockCopier<Object> copier(Class<?> shape, CopyEngine engine) {
        return (BlockCopier<Object>) (engine == null ? BlockCopier.of(shape) : BlockCopier.of(shape, engine));
    }

    private static Object[] array(Class<?> shape) {
        return (Object[]) Array.newInstance(shape, COUNT);
    }
}
