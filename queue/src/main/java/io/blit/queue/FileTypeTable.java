package io.blit.queue;

import io.blit.core.BlockReader;
import io.blit.core.IncompatibleLayoutException;
import io.blit.core.LayoutPolicy;
import io.blit.layout.LayoutDescriptor;
import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.segment.FileType;
import io.blit.queue.internal.segment.SegmentHeader;
import java.util.Arrays;
import java.util.List;

/**
 * How a queue reads and writes the files of one type table ({@link SegmentHeader.Info#types()}): for each record type
 * slot of such a file, the type id stored there, the reading queue's slot for it (or {@link #UNKNOWN}) and the
 * {@link BlockReader} from the stored layout to the queue's class (translating, or refused under the queue's
 * {@link LayoutPolicy} when the table is made). Whether the queue's appenders may write such a file is
 * {@link FileType#sameTable}. A format-1 file has one type and no type bits to trust, so all its slots are that type.
 * Immutable and thread-safe; one per distinct table met, shared by the queue's tailers.
 *
 * @param <T> the queue's common message type
 */
final class FileTypeTable<T> {
    /** The queue slot of a type id the reading queue does not know. */
    static final int UNKNOWN = -1;
    private static final int NO_TYPE = -1;
    private final int[] typeIds = new int[RecordHeader.MAX_TYPES];
    private final int[] queueSlots = new int[RecordHeader.MAX_TYPES];
    private final String[] typeNames = new String[RecordHeader.MAX_TYPES];
    private final LayoutDescriptor[] layouts = new LayoutDescriptor[RecordHeader.MAX_TYPES];
    private final BlockReader<?>[] readers = new BlockReader<?>[RecordHeader.MAX_TYPES];
    private final int size;

    /**
     * @param types  the queue's types, or null for a queue opened raw (which reads bytes only)
     * @throws LayoutMismatchException if a type the queue knows was stored in a layout its policy cannot read
     */
    FileTypeTable(SegmentHeader.Info info, MessageTypes<T> types, LayoutPolicy policy) {
        List<FileType> stored = info.types();
        this.size = stored.size();
        Arrays.fill(typeIds, NO_TYPE);
        Arrays.fill(queueSlots, UNKNOWN);
        for (int slot = 0; slot < stored.size(); slot++) {
            FileType type = stored.get(slot);
            typeIds[slot] = type.typeId();
            String name = type.descriptor().className();
            typeNames[slot] = name.substring(name.lastIndexOf('.') + 1);
            layouts[slot] = type.descriptor();
            TypeEntry<? extends T> entry = types == null ? null : types.entryOf(type.typeId());
            if (entry != null) {
                queueSlots[slot] = entry.slot();
                readers[slot] = reader(info, type, entry, policy);
            }
        }
        if (info.version() == 1 && size == 1) { // format 1: the type bits are not the writer's to trust
            Arrays.fill(typeIds, typeIds[0]);
            Arrays.fill(typeNames, typeNames[0]);
            Arrays.fill(layouts, layouts[0]);
            Arrays.fill(queueSlots, queueSlots[0]);
            Arrays.fill(readers, readers[0]);
        }
    }

    private static <C> BlockReader<C> reader(SegmentHeader.Info info, FileType stored, TypeEntry<C> entry,
                                             LayoutPolicy policy) {
        try {
            return BlockReader.of(stored.descriptor(), entry.copier(), policy);
        } catch (IncompatibleLayoutException e) {
            throw QueueErrors.typeLayoutMismatch(info.file(), stored.typeId(), e);
        }
    }

    int size() {
        return size;
    }

    /** Whether the type slot {@code slot} of a record is one of the file's table. */
    boolean declared(int slot) {
        return typeIds[slot] != NO_TYPE;
    }

    /** The type id stored for record type slot {@code slot}. */
    int typeId(int slot) {
        return typeIds[slot];
    }

    /** The simple class name stored for record type slot {@code slot}, or null if the file declares no such slot. */
    String typeName(int slot) {
        return typeNames[slot];
    }

    /** The layout stored for record type slot {@code slot}, or null if the file declares no such slot. */
    LayoutDescriptor layout(int slot) {
        return layouts[slot];
    }

    /** The reading queue's slot for record type slot {@code slot}, or {@link #UNKNOWN}. */
    int queueSlot(int slot) {
        return queueSlots[slot];
    }

    /** The reader of record type slot {@code slot} into the queue's class, or null if the type is unknown here. */
    BlockReader<?> reader(int slot) {
        return readers[slot];
    }
}
