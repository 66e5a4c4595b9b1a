package io.blit.tools.cli;

import io.blit.layout.FieldDescriptor;
import io.blit.layout.LayoutDescriptor;
import io.blit.queue.BlitQueue;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What the reading commands share: finding a queue, checking its message class, printing fields. Stateless. */
final class QueueFiles {
    /**
     * How the reading commands open a queue: read-only, so that they work on a read-only mount or files they may only
     * read, and change nothing (a record claimed by a dead writer is stepped over, not marked).
     */
    static final BlitQueue.Options READ_ONLY = BlitQueue.Options.defaults().readOnly(true);

    private QueueFiles() {
    }

    /**
     * The directory of an existing queue.
     *
     * @throws BadInputException naming what is missing: the directory, or any segment file in it
     */
    static Path existingQueue(Path dir) {
        if (!Files.exists(dir)) {
            throw new BadInputException("no such directory: " + dir);
        }
        if (!Files.isDirectory(dir)) {
            throw new BadInputException("not a directory: " + dir);
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "segment-*.blitq")) {
            if (!files.iterator().hasNext()) {
                throw new BadInputException("no queue in " + dir + " (no segment-*.blitq file)");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        return dir;
    }

    /**
     * Refuses a queue written with another message class. The queue's default layout policy matches fields by
     * name, which is meant for versions of one class (a field added, other JVM flags); a BookUpdate queue read as
     * MarketData would share some field names and give a misleading result, so the tool names both classes.
     *
     * @throws BadInputException naming both classes
     */
    static void requireMessageClass(Path dir, Class<?> type) {
        try (BlitQueue<Void> raw = BlitQueue.openRaw(dir, READ_ONLY)) {
            String types = newestTypes(raw);
            if (types.startsWith("message types ")) {
                throw new BadInputException("queue " + dir + " holds " + types + ", not only " + type.getName()
                        + " messages (--type mixed reads MarketData 1 and BookUpdate 2)");
            }
            LayoutDescriptor stored = raw.descriptor();
            if (stored != null && !stored.className().equals(type.getName())) {
                throw new BadInputException("queue " + dir + " holds " + stored.className() + " messages, not "
                        + type.getName() + " (--type selects the message class)");
            }
        }
    }

    /**
     * Refuses a queue that is not of the mixed stream's types (MarketData under type id 1, BookUpdate under 2).
     *
     * @throws BadInputException naming what the queue holds
     */
    static void requireMixedTypes(Path dir) {
        try (BlitQueue<Void> raw = BlitQueue.openRaw(dir, READ_ONLY)) {
            String types = newestTypes(raw);
            if (!types.startsWith("message types 1=MarketData(") || !types.contains(", 2=BookUpdate(")) {
                throw new BadInputException("queue " + dir + " holds " + types + ", not the mixed stream's types "
                        + "1=MarketData, 2=BookUpdate");
            }
        }
    }

    /** The type names (simple class names) and type ids, as text, of the newest file of {@code queue}. */
    static java.util.Set<String> typeNamesOf(BlitQueue<?> queue) {
        java.util.Set<String> names = new java.util.HashSet<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)=(\\w+)\\(")
                .matcher(io.blit.queue.TypeLayouts.ofNewestFile(queue).toString());
        while (m.find()) {
            names.add(m.group(1));
            names.add(m.group(2));
        }
        return names;
    }

    /** Whether a record of stored layout {@code layout} and type id {@code typeId} is of type {@code nameOrId}. */
    static boolean isType(LayoutDescriptor layout, int typeId, String nameOrId) {
        if (layout == null) {
            return false;
        }
        String name = layout.className();
        return name.substring(name.lastIndexOf('.') + 1).equals(nameOrId) || Integer.toString(typeId).equals(nameOrId);
    }

    /** What the newest file holds, as its header's description says: "messages C", "message types ..." or raw. */
    private static String newestTypes(BlitQueue<Void> raw) {
        long[] firsts = raw.fileFirstIndices();
        String header = BlitQueue.describeFileHeader(raw.fileHeader(firsts[firsts.length - 1]));
        int at = Math.max(header.indexOf(", messages "), Math.max(header.indexOf(", message types "),
                header.indexOf(", raw payloads")));
        return at < 0 ? header : header.substring(at + 2);
    }

    /** The public fields of {@code type} in the order of the stored layout (offset order). */
    static Field[] fieldsInLayoutOrder(Class<?> type, LayoutDescriptor descriptor) {
        List<Field> fields = new ArrayList<>();
        for (FieldDescriptor fd : descriptor.fields()) {
            try {
                fields.add(type.getField(fd.name()));
            } catch (NoSuchFieldException e) {
                throw new IllegalStateException(type.getSimpleName() + " has no public field " + fd.name(), e);
            }
        }
        return fields.toArray(Field[]::new);
    }

    /** Appends {@code " name=value"} for every field of {@code message}. */
    static StringBuilder appendFields(StringBuilder line, Field[] fields, Object message) {
        for (Field field : fields) {
            try {
                line.append(' ').append(field.getName()).append('=').append(field.get(message));
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        return line;
    }

    /** Prints {@code # indices A..B abandoned} when {@code index} skipped indices after {@code expected}. */
    static void reportGap(PrintStream out, long expected, long index) {
        if (index > expected) {
            out.println("# indices " + expected + ".." + (index - 1) + " abandoned");
        }
    }
}
