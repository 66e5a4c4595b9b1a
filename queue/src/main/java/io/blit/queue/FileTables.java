package io.blit.queue;

import io.blit.core.LayoutPolicy;
import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.segment.FileCheck;
import io.blit.queue.internal.segment.FileType;
import io.blit.queue.internal.segment.SegmentHeader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A queue object's types and the {@link FileTypeTable} of each type table its files hold: the check a typed queue
 * makes of every file header (not raw, layouts readable under the queue's {@link LayoutPolicy}) and the tables its
 * tailers read with. Thread-safe: shared by every appender and tailer of the queue.
 *
 * @param <T> the queue's common message type, or {@link Void} for a raw queue
 */
final class FileTables<T> implements FileCheck {
    private final Path dir;
    /** The queue's types, or null for a queue opened raw. */
    private final MessageTypes<T> types;
    private final LayoutPolicy layoutPolicy;
    /** The type table appenders of these types write, or null for a queue opened raw. */
    private final List<FileType> writeTypes;
    /** One table per type table met, validated under the policy; files of one table share it. */
    private final Map<List<FileType>, FileTypeTable<T>> tables = new ConcurrentHashMap<>();

    /**
     * @param types the queue's types, or null for a queue opened raw
     */
    FileTables(Path dir, MessageTypes<T> types, LayoutPolicy layoutPolicy) {
        this.dir = dir;
        this.types = types;
        this.layoutPolicy = layoutPolicy;
        this.writeTypes = types == null ? null : fileTypesOf(types);
    }

    /** The type table files written with {@code types} record: each type's id and layout, in ascending id order. */
    static List<FileType> fileTypesOf(MessageTypes<?> types) {
        List<FileType> table = new ArrayList<>(types.size());
        for (int slot = 0; slot < types.size(); slot++) {
            TypeEntry<?> entry = types.entry(slot);
            table.add(new FileType(entry.typeId(), entry.copier().layout().descriptor()));
        }
        return List.copyOf(table);
    }

    /** The queue's types, or null for a queue opened raw. */
    MessageTypes<T> types() {
        return types;
    }

    /** The type table appenders of these types write, or null for a queue opened raw (it writes the newest file's). */
    List<FileType> writeTypes() {
        return writeTypes;
    }

    /**
     * The queue's types.
     *
     * @throws IllegalStateException if the queue is opened raw
     */
    MessageTypes<T> typesOrThrow() {
        if (types == null) {
            throw QueueErrors.openedRaw(dir);
        }
        return types;
    }

    LayoutPolicy layoutPolicy() {
        return layoutPolicy;
    }

    /**
     * @throws IllegalStateException   if the queue is typed and the file raw
     * @throws LayoutMismatchException if a type the queue knows was stored in a layout its policy cannot read
     */
    @Override
    public void check(SegmentHeader.Info info) {
        if (types != null && info.raw()) {
            throw QueueErrors.rawFileOpenedTyped(info.file(), types.toString());
        }
        tableOf(info);
    }

    /** The table of a file the queue's directory checked. */
    FileTypeTable<T> table(SegmentHeader.Info info) {
        FileTypeTable<T> table = tables.get(info.types());
        return table != null ? table : tableOf(info);
    }

    private FileTypeTable<T> tableOf(SegmentHeader.Info info) {
        FileTypeTable<T> table = tables.get(info.types());
        if (table == null) {
            table = new FileTypeTable<>(info, types, layoutPolicy);
            tables.putIfAbsent(info.types(), table);
        }
        return table;
    }
}
