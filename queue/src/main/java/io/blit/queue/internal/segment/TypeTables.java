package io.blit.queue.internal.segment;

import io.blit.queue.internal.format.SegmentFormat;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;

/** Type tables outside a file ({@link io.blit.queue.TypeLayouts}): decoded as a format-2 header's. Stateless. */
public final class TypeTables {
    private static final Path NOT_A_FILE = Path.of("(type layouts)");

    private TypeTables() {
    }

    /**
     * Decodes a table laid out as in a header (from {@link SegmentFormat#DESCRIPTOR_OFFSET} to the end of
     * {@code header}), every length checked first.
     *
     * @throws io.blit.queue.QueueCorruptedException saying why it does not decode
     */
    public static List<FileType> decode(MemorySegment header, int count, int tableLength) {
        return TypeTableDecoder.decode(NOT_A_FILE, header, SegmentFormat.DESCRIPTOR_OFFSET, count, tableLength);
    }
}
