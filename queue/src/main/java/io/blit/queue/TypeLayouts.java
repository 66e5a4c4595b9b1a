package io.blit.queue;

import io.blit.layout.LayoutComparison;
import io.blit.layout.LayoutDescriptor;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.FileType;
import io.blit.queue.internal.segment.SegmentHeader;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The message types of a queue as its files record them: each type id with its layout, no class needed. What a replica
 * tells its source it expects (the handshake compares every type's layout) and what the source holds. Encoded as a
 * type count (u32, little-endian) followed by a type table as segment headers hold it ({@code docs/format.md}, "Type
 * table"). Immutable and thread-safe.
 */
public final class TypeLayouts {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** The most bytes an encoding takes: a count and a table that fits a file header. */
    public static final int MAX_ENCODED = 4 + SegmentFormat.HEADER_AREA - 4 - SegmentFormat.DESCRIPTOR_OFFSET;
    private final List<FileType> types;

    private TypeLayouts(List<FileType> types) {
        this.types = List.copyOf(types);
    }

    /**
     * {@return the layouts of {@code types} in this JVM}
     *
     * @param types a queue's message types
     */
    public static TypeLayouts of(MessageTypes<?> types) {
        return new TypeLayouts(FileTables.fileTypesOf(types));
    }

    /**
     * {@return one message class's layout, under type id 0 (a queue of one class)}
     *
     * @param layout the class's layout
     */
    public static TypeLayouts of(LayoutDescriptor layout) {
        return new TypeLayouts(FileType.single(layout));
    }

    /**
     * {@return what the newest file of {@code queue} records now (no type: raw payloads)}
     *
     * @param queue an open queue
     */
    public static TypeLayouts ofNewestFile(BlitQueue<?> queue) {
        long[] firsts = queue.fileFirstIndices();
        return new TypeLayouts(queue.files().file(firsts[firsts.length - 1]).types());
    }

    /**
     * {@return the encoding} A type count u32, then per type in ascending id order: id u32, descriptor length u32,
     * descriptor.
     */
    public byte[] encode() {
        byte[] table = SegmentHeader.typeTable(types);
        byte[] encoded = new byte[4 + table.length];
        MemorySegment.ofArray(encoded).set(INT, 0, types.size());
        System.arraycopy(table, 0, encoded, 4, table.length);
        return encoded;
    }

    /**
     * Decodes bytes from the network or a file as {@link #encode} writes them, every length checked first.
     *
     * @param encoded the encoding, at most {@link #MAX_ENCODED} bytes
     * @return the layouts it states
     * @throws IllegalArgumentException saying why they are not such an encoding
     */
    public static TypeLayouts decode(byte[] encoded) {
        if (encoded.length < 4 || encoded.length > MAX_ENCODED) {
            throw new IllegalArgumentException("type layouts of " + encoded.length + " bytes (4 to " + MAX_ENCODED + ")");
        }
        int count = MemorySegment.ofArray(encoded).get(INT, 0);
        if (count == 0) {
            if (encoded.length != 4) {
                throw new IllegalArgumentException("type layouts of no type followed by " + (encoded.length - 4)
                        + " bytes");
            }
            return new TypeLayouts(List.of());
        }
        byte[] header = new byte[SegmentFormat.DESCRIPTOR_OFFSET + encoded.length - 4];
        System.arraycopy(encoded, 4, header, SegmentFormat.DESCRIPTOR_OFFSET, encoded.length - 4);
        try {
            return new TypeLayouts(io.blit.queue.internal.segment.TypeTables.decode(MemorySegment.ofArray(header), count,
                    encoded.length - 4));
        } catch (QueueCorruptedException e) {
            throw new IllegalArgumentException("type layouts that do not decode: " + e.getMessage(), e);
        }
    }

    /** {@return the class name recorded for each type id, in ascending id order (empty: raw payloads)} */
    public java.util.SortedMap<Integer, String> classNames() {
        java.util.SortedMap<Integer, String> names = new java.util.TreeMap<>();
        for (FileType type : types) {
            names.put(type.typeId(), type.descriptor().className());
        }
        return java.util.Collections.unmodifiableSortedMap(names);
    }

    /** {@return whether no type is recorded (raw payloads)} */
    public boolean raw() {
        return types.isEmpty();
    }

    /**
     * {@return what differs between {@code held} and these expected layouts, type by type, or null if nothing does}
     * Nothing differs when both have the same ids with identical layouts.
     *
     * @param held the layouts a source holds
     */
    public String differenceFrom(TypeLayouts held) {
        StringBuilder text = new StringBuilder();
        for (FileType expected : types) {
            FileType found = held.find(expected.typeId());
            if (found == null) {
                text.append("; type ").append(expected.typeId()).append(" (").append(expected.descriptor().className())
                        .append(") is not held");
            } else {
                LayoutComparison comparison = LayoutComparison.of(found.descriptor(), expected.descriptor());
                if (!comparison.identical()) {
                    text.append("; type ").append(expected.typeId()).append(": ").append(comparison.report());
                }
            }
        }
        for (FileType extra : held.types) {
            if (find(extra.typeId()) == null) {
                text.append("; type ").append(extra.typeId()).append(" (").append(extra.descriptor().className())
                        .append(") is held but not expected");
            }
        }
        return text.isEmpty() ? null : text.substring(2);
    }

    private FileType find(int typeId) {
        for (FileType type : types) {
            if (type.typeId() == typeId) {
                return type;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return FileType.describe(types);
    }
}
