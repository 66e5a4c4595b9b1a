package io.blit.tools.cli;

import io.blit.cli.BadInputException;
import io.blit.cli.QueueFiles;
import io.blit.layout.FieldDescriptor;
import io.blit.layout.LayoutDescriptor;
import io.blit.queue.BlitQueue;
import io.blit.queue.TypeLayouts;
import io.blit.tools.messages.BookUpdate;
import io.blit.tools.messages.MarketData;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code produce}, the content {@code check} and {@code replicate follow --type} share about the queues produce
 * writes: which message classes a queue holds, and printing a message's fields. Stateless.
 */
final class ProducedQueues {

    private ProducedQueues() {
    }

    /**
     * Refuses a queue written with another message class. The queue's default layout policy matches fields by
     * name, which is meant for versions of one class (a field added, other JVM flags); a BookUpdate queue read as
     * MarketData would share some field names and give a misleading result, so the tool names both classes.
     *
     * @throws BadInputException naming both classes
     */
    static void requireMessageClass(Path dir, Class<?> type) {
        try (BlitQueue<Void> raw = BlitQueue.openRaw(dir, QueueFiles.READ_ONLY)) {
            TypeLayouts types = TypeLayouts.ofNewestFile(raw);
            Map<Integer, String> names = types.classNames();
            if (names.size() > 1 || (names.size() == 1 && !names.containsKey(0))) {
                throw new BadInputException("queue " + dir + " holds message types " + types + ", not only "
                        + type.getName() + " messages (--type mixed reads MarketData 1 and BookUpdate 2)");
            }
            if (names.size() == 1 && !names.get(0).equals(type.getName())) {
                throw new BadInputException("queue " + dir + " holds " + names.get(0) + " messages, not "
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
        try (BlitQueue<Void> raw = BlitQueue.openRaw(dir, QueueFiles.READ_ONLY)) {
            TypeLayouts types = TypeLayouts.ofNewestFile(raw);
            if (!types.classNames().equals(Map.of(1, MarketData.class.getName(), 2, BookUpdate.class.getName()))) {
                throw new BadInputException("queue " + dir + " holds " + (types.raw() ? "" : "message types ") + types
                        + ", not the mixed stream's types 1=MarketData, 2=BookUpdate");
            }
        }
    }

    /**
     * What the newest file of the queue in {@code dir} records, as {@code --type} names it: {@link MessageType#MIXED}
     * for the mixed stream's types, {@link MessageType#BOOK} for BookUpdate messages, else
     * {@link MessageType#MARKET_DATA} (a queue of another class is then refused by {@link #requireMessageClass},
     * naming it).
     */
    static MessageType<?> typeOfQueue(Path dir) {
        try (BlitQueue<Void> raw = BlitQueue.openRaw(dir, QueueFiles.READ_ONLY)) {
            Map<Integer, String> names = TypeLayouts.ofNewestFile(raw).classNames();
            if (names.equals(Map.of(1, MarketData.class.getName(), 2, BookUpdate.class.getName()))) {
                return MessageType.MIXED;
            }
            return names.equals(Map.of(0, BookUpdate.class.getName())) ? MessageType.BOOK : MessageType.MARKET_DATA;
        }
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
}
