package io.blit.queue.internal;

import io.blit.layout.LayoutDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The segment files of a queue directory: their names ({@code segment-<first index, 20 digits>.blitq}),
 * listing, creation and mapping.
 *
 * <p>Creation is all-or-nothing: the header is written to {@code <name>.tmp-<pid>-<thread id>}, forced,
 * and published with {@link Files#createLink}, which fails if another creator (thread or process) won the
 * race; the loser then uses the winner's file. A reader therefore never sees a file under a final name
 * without a complete header. Files whose names do not match the pattern (temporaries included) are
 * ignored. Stateless; thread-safe.
 */
public final class SegmentFiles {
    private static final Pattern NAME = Pattern.compile("segment-(\\d{20})\\.blitq");
    private static final Pattern TEMPORARY = Pattern.compile("segment-\\d{20}\\.blitq\\.tmp-(\\d+)-\\d+");

    private SegmentFiles() {
    }

    /** The path of the file whose first message index is {@code firstIndex}. */
    public static Path path(Path dir, long firstIndex) {
        return dir.resolve(String.format("segment-%020d.blitq", firstIndex));
    }

    /** The first indices of the directory's segment files, ascending. */
    public static long[] list(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> NAME.matcher(p.getFileName().toString()))
                    .filter(Matcher::matches)
                    .mapToLong(m -> Long.parseLong(m.group(1)))
                    .sorted()
                    .toArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list queue directory " + dir, e);
        }
    }

    /**
     * Deletes the temporaries ({@code <name>.tmp-<pid>-<thread id>}) left by creators whose process is no
     * longer alive; those of live processes may be in use and are left alone.
     *
     * @return how many were deleted
     */
    public static int deleteStaleTemporaries(Path dir) {
        int deleted = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Matcher m = TEMPORARY.matcher(file.getFileName().toString());
                if (m.matches() && !ProcessHandle.of(Long.parseLong(m.group(1))).map(ProcessHandle::isAlive).orElse(false)
                        && Files.deleteIfExists(file)) {
                    deleted++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list queue directory " + dir, e);
        }
        return deleted;
    }

    /** Index into {@code firsts} of the file that holds {@code index}: the last first index not above it, or -1. */
    public static int fileHolding(long[] firsts, long index) {
        int at = Arrays.binarySearch(firsts, index);
        return at >= 0 ? at : -at - 2;
    }

    /** Reads and validates the header of an existing file. */
    public static SegmentHeader.Info readHeader(Path dir, long firstIndex) {
        Path file = path(dir, firstIndex);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            ByteBuffer buffer = ByteBuffer.allocate(SegmentHeader.HEADER_AREA);
            while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) > 0) {
                // read until the header area is full or the file ends
            }
            return SegmentHeader.decode(file, buffer.array(), size, firstIndex);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read queue file " + file, e);
        }
    }

    /**
     * Creates the file of {@code firstIndex} complete, unless it exists; then validates and returns
     * the header of the file now under that name (this creator's or the race winner's).
     */
    public static SegmentHeader.Info createIfAbsent(Path dir, long firstIndex, long segmentSize,
                                                    LayoutDescriptor descriptor) {
        Path file = path(dir, firstIndex);
        if (!Files.exists(file)) {
            long pid = ProcessHandle.current().pid();
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp-" + pid + "-" + Thread.currentThread().threadId());
            byte[] header = SegmentHeader.encode(segmentSize, firstIndex,
                    System.currentTimeMillis() * 1_000_000L, pid, descriptor);
            try {
                try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE, StandardOpenOption.READ)) {
                    ByteBuffer bytes = ByteBuffer.wrap(header);
                    while (bytes.hasRemaining()) {
                        channel.write(bytes, bytes.position());
                    }
                    channel.write(ByteBuffer.allocate(1), segmentSize - 1); // sparse extension to full size
                    channel.force(true);
                }
                try {
                    Files.createLink(file, tmp);
                } catch (FileAlreadyExistsException lostRace) {
                    // another creator published first; use its file
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create queue file " + file, e);
            } finally {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // a leftover temporary is ignored by list() and harmless
                }
            }
        }
        return readHeader(dir, firstIndex);
    }

    /** Maps the whole file read-write into {@code arena}. */
    public static MemorySegment map(SegmentHeader.Info info, Arena arena) {
        try (FileChannel channel = FileChannel.open(info.file(), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, info.segmentSize(), arena);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map queue file " + info.file(), e);
        }
    }
}
