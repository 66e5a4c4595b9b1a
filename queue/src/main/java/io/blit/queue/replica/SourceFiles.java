package io.blit.queue.replica;

import io.blit.layout.LayoutDescriptor;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.segment.FileHeaders;
import io.blit.queue.internal.segment.FileType;
import io.blit.queue.internal.segment.SegmentHeader;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The segment-file headers of a source queue as a replica compares them: bytes as stored, the first index they state,
 * a one-line description for messages. Stateless; thread-safe.
 */
public final class SourceFiles {
    private SourceFiles() {
    }

    /**
     * The header of {@code queue}'s file of first index {@code firstIndex} as stored, CRC included (as a replica
     * compares it), or null if there is no such file.
     *
     * @param queue      the source queue
     * @param firstIndex the file's first message index (its name)
     * @return the header bytes, or null
     * @throws QueueCorruptedException if the file's header is invalid
     */
    public static byte[] fileHeader(BlitQueue<?> queue, long firstIndex) {
        return FileHeaders.read(queue.directory(), firstIndex);
    }

    /**
     * The first message index a file header as {@link #fileHeader} gives it states.
     *
     * @param header header bytes from a file or a peer (not trusted)
     * @return the first index, or -1 if the bytes are too short to hold it
     */
    public static long firstIndex(byte[] header) {
        return SegmentHeader.firstIndexOf(header);
    }

    /**
     * The layouts a file header as {@link #fileHeader} gives it stores, by type id in ascending order (empty: raw
     * payloads; a format-1 file's one class has id 0).
     *
     * @param header header bytes of a file, as {@link #fileHeader} read them
     * @return type id to stored layout, in ascending id order; unmodifiable
     * @throws QueueCorruptedException if the header is invalid
     */
    public static SortedMap<Integer, LayoutDescriptor> storedTypes(byte[] header) {
        SortedMap<Integer, LayoutDescriptor> types = new TreeMap<>();
        for (FileType type : FileHeaders.types(header)) {
            types.put(type.typeId(), type.descriptor());
        }
        return Collections.unmodifiableSortedMap(types);
    }

    /**
     * A file header as {@link #fileHeader} gives it in one line: first index, created, pid, size, message types.
     *
     * @param header header bytes from a file or a peer (not trusted)
     * @return the description (of what can be decoded, for a damaged header)
     */
    public static String describe(byte[] header) {
        return FileHeaders.describe(header);
    }
}
