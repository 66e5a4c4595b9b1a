package io.blit.queue.internal.segment;

import io.blit.layout.CorruptDescriptorException;
import io.blit.layout.LayoutDescriptor;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes and validates the type table of a segment header of format 2 or later ({@link SegmentHeader}; layout in
 * {@code docs/format.md}, "Type table"): bytes from a file or the
 * network, so every length is checked against the bytes there before it is used. Stateless; thread-safe.
 */
final class TypeTableDecoder {
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private TypeTableDecoder() {
    }

    /**
     * @param header      the header's bytes up to (not including) its CRC; the table fills them from
     *                    {@code tableOffset} to the end
     * @param tableOffset where the table starts ({@link SegmentHeader#tableOffset})
     * @param count       the type count the header states
     * @param tableLength the table length the header states
     * @throws QueueCorruptedException naming the file and the offset of the first problem: a count above
     *                                 {@link RecordHeader#MAX_TYPES} or negative, a table length other than the header's
     *                                 rest, an entry running past the table, ids not strictly ascending or above
     *                                 {@link SegmentFormat#MAX_TYPE_ID}, a descriptor that is invalid or not exactly
     *                                 its stated length
     */
    static List<FileType> decode(Path file, MemorySegment header, int tableOffset, int count, int tableLength) {
        long end = header.byteSize();
        if (count < 0 || count > RecordHeader.MAX_TYPES) {
            throw corrupt(file, SegmentFormat.TYPE_COUNT_OFFSET, "type count " + count + " is not in [0, "
                    + RecordHeader.MAX_TYPES + "] (0: raw payloads)");
        }
        if (tableLength != end - tableOffset) {
            throw corrupt(file, SegmentFormat.TYPE_TABLE_LENGTH_OFFSET, "type table length " + tableLength
                    + " does not match header length " + end);
        }
        List<FileType> types = new ArrayList<>(count);
        long at = tableOffset;
        for (int i = 0; i < count; i++) {
            if (at + 8 > end) {
                throw corrupt(file, at, "type table ends inside entry " + i + " of " + count);
            }
            int id = header.get(INT, at);
            int length = header.get(INT, at + 4);
            if (id < 0 || id > SegmentFormat.MAX_TYPE_ID || (!types.isEmpty() && id <= types.getLast().typeId())) {
                throw corrupt(file, at, "type id " + id + " is out of range or not above the previous one");
            }
            if (length <= 0 || length > end - at - 8) {
                throw corrupt(file, at + 4, "descriptor length " + length + " of type " + id
                        + " does not fit in the table");
            }
            types.add(new FileType(id, descriptor(file, header.asSlice(0, at + 8 + length), at + 8, id)));
            at += 8 + length;
        }
        if (at != end) {
            throw corrupt(file, at, (end - at) + " bytes after the last type of the table");
        }
        return types;
    }

    private static LayoutDescriptor descriptor(Path file, MemorySegment upToItsEnd, long offset, int id) {
        try {
            int size = LayoutDescriptor.encodedSizeAt(upToItsEnd, offset);
            if (size != upToItsEnd.byteSize() - offset) {
                throw corrupt(file, offset, "descriptor of type " + id + " is " + size + " bytes, its entry says "
                        + (upToItsEnd.byteSize() - offset));
            }
            return LayoutDescriptor.decode(upToItsEnd, offset);
        } catch (CorruptDescriptorException e) {
            QueueCorruptedException corrupt = corrupt(file, e.offset(), "type " + id + ": " + e.getMessage());
            corrupt.initCause(e);
            throw corrupt;
        }
    }

    private static QueueCorruptedException corrupt(Path file, long offset, String message) {
        return new QueueCorruptedException(file, offset, message);
    }
}
