package io.blit.queue.internal.segment;

import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.format.SegmentFormat;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;

/**
 * A segment file's header as stored, up to and including its CRC (what {@code RecordStream.fileHeader()} gives and a
 * replica compares): reading it and describing it in one line.
 */
public final class FileHeaders {
    private FileHeaders() {
    }

    /**
     * The header of the file of first index {@code firstIndex} in {@code dir} as stored, or null if there is no such
     * file.
     *
     * @throws QueueCorruptedException if the file's header is invalid
     */
    public static byte[] read(Path dir, long firstIndex) {
        try {
            return SegmentFiles.readHeaderBytes(dir, firstIndex);
        } catch (java.io.UncheckedIOException noSuchFile) {
            return null;
        }
    }

    /**
     * The message types a file header as {@link #read} gives it stores, in ascending type id order (empty: raw
     * payloads; format 1: one type of id 0).
     *
     * @throws QueueCorruptedException if the header is invalid
     */
    public static java.util.List<FileType> types(byte[] header) {
        long first = SegmentHeader.firstIndexOf(header);
        return SegmentHeader.decode(SegmentFiles.path(Path.of("."), first), Arrays.copyOf(header, SegmentFormat.HEADER_AREA),
                SegmentHeader.segmentSizeOf(header), first).types();
    }

    /**
     * A one-line description of a file header: first index, creation time, creating pid, segment size and message
     * class (for messages that compare two queues); for an invalid header, why it is invalid.
     */
    public static String describe(byte[] header) {
        long first = SegmentHeader.firstIndexOf(header);
        try {
            SegmentHeader.Info info = SegmentHeader.decode(SegmentFiles.path(Path.of("."), first),
                    Arrays.copyOf(header, SegmentFormat.HEADER_AREA), SegmentHeader.segmentSizeOf(header), first);
            return "file " + first + " created " + Instant.ofEpochSecond(0, info.createdNanos()) + " by pid "
                    + info.creatorPid() + ", segment size " + info.segmentSize() + ", "
                    + (info.raw() ? "raw payloads" : info.types().size() == 1 && info.types().getFirst().typeId() == 0
                    ? "messages " + info.descriptor().className() : "message types " + FileType.describe(info.types()));
        } catch (QueueCorruptedException e) {
            return "an invalid file header (" + e.getMessage() + ")";
        }
    }
}
