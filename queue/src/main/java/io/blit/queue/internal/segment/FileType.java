package io.blit.queue.internal.segment;

import io.blit.layout.LayoutDescriptor;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import java.util.List;
import java.util.Objects;

/**
 * One entry of a segment file's type table: a message type id and the layout its records were written with.
 *
 * @param typeId     the id the queue's users gave the type, 0 to {@link SegmentFormat#MAX_TYPE_ID}
 * @param descriptor the layout of the type's records in the file
 */
public record FileType(int typeId, LayoutDescriptor descriptor) {
    public FileType {
        Objects.requireNonNull(descriptor, "descriptor");
        if (typeId < 0 || typeId > SegmentFormat.MAX_TYPE_ID) {
            throw new IllegalArgumentException("type id " + typeId + " is not in [0, " + SegmentFormat.MAX_TYPE_ID + "]");
        }
    }

    /** The table of a file of one message class, type id 0, or of raw payloads for a null descriptor. */
    public static List<FileType> single(LayoutDescriptor descriptor) {
        return descriptor == null ? List.of() : List.of(new FileType(0, descriptor));
    }

    /** Whether format 1 expresses {@code types}: raw, or one type of id 0. */
    static boolean formatOneCanHold(List<FileType> types) {
        return types.isEmpty() || (types.size() == 1 && types.getFirst().typeId() == 0);
    }

    /**
     * Checks that {@code types} is a table a file can record: at most {@link RecordHeader#MAX_TYPES} entries in strictly
     * ascending id order.
     *
     * @throws IllegalArgumentException if it is not
     */
    static void checkTable(List<FileType> types) {
        if (types.size() > RecordHeader.MAX_TYPES) {
            throw new IllegalArgumentException(types.size() + " message types; a file records at most "
                    + RecordHeader.MAX_TYPES);
        }
        for (int i = 1; i < types.size(); i++) {
            if (types.get(i).typeId() <= types.get(i - 1).typeId()) {
                throw new IllegalArgumentException("type ids must ascend: " + types.get(i - 1).typeId() + " then "
                        + types.get(i).typeId());
            }
        }
    }

    /**
     * Whether a file whose table is {@code stored} takes records written with {@code writes}: the same ids in the same
     * order, each with an identical layout of the same byte order.
     */
    public static boolean sameTable(List<FileType> stored, List<FileType> writes) {
        if (stored.size() != writes.size()) {
            return false;
        }
        for (int i = 0; i < stored.size(); i++) {
            LayoutDescriptor a = stored.get(i).descriptor();
            LayoutDescriptor b = writes.get(i).descriptor();
            if (stored.get(i).typeId() != writes.get(i).typeId() || !a.compatibility(b).identical()
                    || !a.jvm().byteOrder().equals(b.jvm().byteOrder())) {
                return false;
            }
        }
        return true;
    }

    /** A table in one line, for messages: {@code 1=MarketData(144 bytes), 2=BookUpdate(1024 bytes)}. */
    public static String describe(List<FileType> types) {
        if (types.isEmpty()) {
            return "raw payloads";
        }
        StringBuilder text = new StringBuilder();
        for (FileType type : types) {
            String name = type.descriptor().className();
            text.append(text.isEmpty() ? "" : ", ").append(type.typeId()).append('=')
                    .append(name.substring(name.lastIndexOf('.') + 1)).append('(')
                    .append(type.descriptor().length()).append(" bytes)");
        }
        return text.toString();
    }
}
