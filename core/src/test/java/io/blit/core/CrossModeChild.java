package io.blit.core;

import io.blit.layout.FieldDescriptor;
import io.blit.layout.JvmFacts;
import io.blit.layout.LayoutDescriptor;
import io.blit.layout.shapes.Shapes;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A child JVM of {@link CrossModeReadTest}, run under explicit header flags. Prints "MODE header-mode" first.
 * <ul>
 *   <li>{@code write <dir>}: for every concrete shape of {@link Shapes}, writes {@code <dir>/<Simple>.blk}: the
 *       shape's layout descriptor at 0, then {@link DistinctValues#RECORDS} blocks from the first multiple of 8
 *       after it, each written with the shape's {@link BlockCopier}; prints "WROTE n".</li>
 *   <li>{@code read <mode>=<dir> ...}: for every writer directory and shape, reads every block with
 *       {@link LayoutPolicy#TRANSLATE} and {@link LayoutPolicy#STRICT} and checks every field of every record, and
 *       every refusal's message against its own field-by-field comparison of the two layouts; prints
 *       "CASE writerMode shape translates=true|false strict=exact|refused" per pair, or "FAIL writerMode shape why".</li>
 * </ul>
 */
public final class CrossModeChild {
    private CrossModeChild() {
    }

    public static void main(String[] args) throws IOException {
        System.out.println("MODE " + JvmFacts.current().headerMode());
        switch (args[0]) {
            case "write" -> write(Path.of(args[1]));
            case "read" -> {
                for (int i = 1; i < args.length; i++) {
                    String[] modeAndDir = args[i].split("=", 2);
                    read(modeAndDir[0], Path.of(modeAndDir[1]));
                }
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.flush();
    }

    private static void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        int files = 0;
        for (Class<?> shape : Shapes.concrete()) {
            writeShape(dir.resolve(shape.getSimpleName() + ".blk"), shape);
            files++;
        }
        System.out.println("WROTE " + files);
    }

    private static <T> void writeShape(Path file, Class<T> shape) throws IOException {
        BlockCopier<T> copier = BlockCopier.of(shape);
        LayoutDescriptor descriptor = copier.layout().descriptor();
        long base = recordsStart(descriptor.encodedSize());
        try (Arena arena = Arena.ofConfined();
             FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, base + DistinctValues.RECORDS * copier.byteSize(), arena);
            descriptor.encodeTo(mapped, 0);
            T message = RandomFields.newInstance(shape);
            for (int record = 0; record < DistinctValues.RECORDS; record++) {
                DistinctValues.fill(message, record);
                copier.writeTo(message, mapped, base + record * copier.byteSize());
            }
            mapped.force();
        }
    }

    private static void read(String writerMode, Path dir) throws IOException {
        for (Class<?> shape : Shapes.concrete()) {
            String context = writerMode + " " + shape.getSimpleName();
            try (Arena arena = Arena.ofConfined();
                 FileChannel channel = FileChannel.open(dir.resolve(shape.getSimpleName() + ".blk"), StandardOpenOption.READ)) {
                MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
                LayoutDescriptor writer = LayoutDescriptor.decode(mapped, 0);
                List<String> problems = new ArrayList<>();
                boolean translates = readAll(mapped, writer, shape, LayoutPolicy.TRANSLATE, problems);
                String strict = strict(mapped, writer, shape, problems);
                if (problems.isEmpty()) {
                    System.out.println("CASE " + context + " translates=" + translates + " strict=" + strict);
                } else {
                    System.out.println("FAIL " + context + " " + String.join(" | ", problems).replace('\n', '/'));
                }
            } catch (RuntimeException e) {
                System.out.println("FAIL " + context + " unexpected " + e.toString().replace('\n', '/'));
            }
        }
    }

    /** Reads every record with the policy; returns whether the reader translates. Mismatches go to {@code problems}. */
    private static <T> boolean readAll(MemorySegment mapped, LayoutDescriptor writer, Class<T> shape, LayoutPolicy policy,
                                       List<String> problems) {
        BlockReader<T> reader = BlockReader.of(writer, shape, policy);
        long base = recordsStart(writer.encodedSize());
        if (mapped.byteSize() != base + DistinctValues.RECORDS * reader.byteSize()) {
            problems.add("file of " + mapped.byteSize() + " bytes for " + DistinctValues.RECORDS + " blocks of " + reader.byteSize());
        }
        T target = RandomFields.newInstance(shape);
        for (int record = 0; record < DistinctValues.RECORDS; record++) {
            DistinctValues.fill(target, (record + 1) % DistinctValues.RECORDS);
            reader.readFrom(mapped, base + record * reader.byteSize(), target);
            List<String> wrong = DistinctValues.mismatches(target, record);
            if (!wrong.isEmpty()) {
                problems.add(policy + " record " + record + " wrong fields " + wrong + " with " + reader);
            }
        }
        return reader.translates();
    }

    /**
     * STRICT must read exactly when the layouts agree field by field (compared here, independently of the
     * fingerprint), and otherwise refuse naming exactly the fields that moved, with both offsets.
     */
    private static String strict(MemorySegment mapped, LayoutDescriptor writer, Class<?> shape, List<String> problems) {
        LayoutDescriptor reader = BlockCopier.of(shape).layout().descriptor();
        Map<String, Integer> writerOffsets = relativeOffsets(writer);
        Map<String, Integer> readerOffsets = relativeOffsets(reader);
        if (!writerOffsets.keySet().equals(readerOffsets.keySet())) {
            problems.add("writer and reader have different fields: " + writerOffsets.keySet() + " vs " + readerOffsets.keySet());
        }
        List<String> moved = new ArrayList<>();
        for (String field : readerOffsets.keySet()) {
            if (!readerOffsets.get(field).equals(writerOffsets.get(field))) {
                moved.add(field);
            }
        }
        boolean sameLength = writer.length() == reader.length();
        if (moved.isEmpty() && sameLength) {
            readAll(mapped, writer, shape, LayoutPolicy.STRICT, problems);
            return "exact";
        }
        try {
            BlockReader.of(writer, shape, LayoutPolicy.STRICT);
            problems.add("STRICT accepted a layout whose fields " + moved + " moved (lengths " + writer.length() + "/" + reader.length() + ")");
            return "accepted";
        } catch (IncompatibleLayoutException e) {
            String message = e.getMessage();
            if (!message.contains(shape.getName())) {
                problems.add("refusal does not name the class: " + message);
            }
            for (String field : readerOffsets.keySet()) {
                String expected = "'" + field + "' moved from +" + writerOffsets.get(field) + " (writer) to +"
                        + readerOffsets.get(field) + " (reader)";
                if (moved.contains(field) != message.contains(expected)) {
                    problems.add("refusal " + (moved.contains(field) ? "misses" : "wrongly names") + " [" + expected + "]: " + message);
                }
                if (!moved.contains(field) && message.contains("'" + field + "'")) {
                    problems.add("refusal names unmoved field " + field + ": " + message);
                }
            }
            String length = "block length changed from " + writer.length() + " (writer) to " + reader.length() + " (reader)";
            if (sameLength == message.contains(length)) {
                problems.add("refusal and length change disagree [" + length + "]: " + message);
            }
            return "refused";
        }
    }

    private static Map<String, Integer> relativeOffsets(LayoutDescriptor descriptor) {
        Map<String, Integer> offsets = new HashMap<>();
        for (FieldDescriptor field : descriptor.fields()) {
            offsets.put(field.name(), field.offset() - descriptor.start());
        }
        return offsets;
    }

    private static long recordsStart(int descriptorSize) {
        return (descriptorSize + 7L) & ~7L;
    }
}
