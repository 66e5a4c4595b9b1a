package io.blit.queue.replica;

import io.blit.queue.BlitQueue;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.segment.FileHeaders;
import io.blit.queue.internal.segment.SegmentHeader;

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
     * A file header as {@link #fileHeader} gives it in one line: first index, created, pid, size, message types.
     *
     * @param header header bytes from a file or a peer (not trusted)
     * @return the description (of what can be decoded, for a damaged header)
     */
    public static String describe(byte[] header) {
        return FileHeaders.describe(header);
    }
}
