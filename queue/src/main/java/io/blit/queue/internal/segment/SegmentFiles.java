package io.blit.queue.internal.segment;

import io.blit.layout.LayoutDescriptor;
import io.blit.queue.internal.file.FileModes;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.writer.WriterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The segment files of a queue directory: their names ({@code segment-<first index, 20 digits>.blitq}),
 * listing, creation and mapping.
 *
 * <p>Creation is all-or-nothing: the header is written to {@code <name>.tmp-<owner>-<thread id>}, forced,
 * and published with {@link Files#createLink}, which fails if another creator (thread or process) won the
 * race; the loser then uses the winner's file. A reader therefore never sees a file under a final name
 * without a complete header. Files whose names do not match the pattern (temporaries included) are
 * ignored. With {@code privateFiles} a temporary is created {@code rw-------} before anything is written to it
 * ({@link FileModes}), so the published file has that mode. Stateless; thread-safe.
 */
public final class SegmentFiles {
    private static final Pattern NAME = Pattern.compile("segment-(\\d{20})\\.blitq");
    /** Bytes written per call when zero-filling a prepared file. */
    private static final int ZERO_CHUNK = 1 << 20;
    private static final Pattern TEMPORARY = Pattern.compile("segment-(?:\\d{20}|blank)\\.blitq\\.tmp-(w?\\d+)-\\d+");

    private SegmentFiles() {
    }

    /** The path of the file whose first message index is {@code firstIndex}. */
    public static Path path(Path dir, long firstIndex) {
        return dir.resolve(String.format("segment-%020d.blitq", firstIndex));
    }

    /** {@return whether {@code name} is a segment file's name, {@code segment-<20 digits>.blitq}} */
    public static boolean isSegmentName(String name) {
        return NAME.matcher(name).matches();
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
     * Deletes the temporaries ({@code <name>.tmp-<owner>-<thread id>}, the owner a writer id {@code w<id>} or a pid:
     * {@link WriterRegistry#temporaryTag}) left by creators that are no longer alive; those of live ones may be in use
     * and are left alone.
     *
     * @return how many were deleted
     */
    public static int deleteStaleTemporaries(Path dir) {
        int deleted = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Matcher m = TEMPORARY.matcher(file.getFileName().toString());
                if (m.matches() && !WriterRegistry.temporaryOwnerAlive(dir, m.group(1)) && Files.deleteIfExists(file)) {
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
        return SegmentHeader.decode(path(dir, firstIndex), readHeaderArea(dir, firstIndex), fileSize(dir, firstIndex),
                firstIndex);
    }

    /** The validated header of an existing file as stored, up to and including its CRC. */
    public static byte[] readHeaderBytes(Path dir, long firstIndex) {
        byte[] area = readHeaderArea(dir, firstIndex);
        Path file = path(dir, firstIndex);
        SegmentHeader.decode(file, area, fileSize(dir, firstIndex), firstIndex);
        return SegmentHeader.copyOf(MemorySegment.ofArray(area), file);
    }

    private static byte[] readHeaderArea(Path dir, long firstIndex) {
        Path file = path(dir, firstIndex);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer buffer = ByteBuffer.allocate(SegmentFormat.HEADER_AREA);
            while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) > 0) {
                // read until the header area is full or the file ends
            }
            return buffer.array();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read queue file " + file, e);
        }
    }

    private static long fileSize(Path dir, long firstIndex) {
        Path file = path(dir, firstIndex);
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read queue file " + file, e);
        }
    }

    /**
     * Creates the file of {@code firstIndex} complete and zero-filled, unless it exists; then validates and returns
     * the header of the file now under that name (this creator's or the race winner's). Zero-filled, every block of the
     * file is allocated before its first record is written, so a full file system fails here, with an
     * {@link UncheckedIOException} naming the file and the reason ("No space left on device"), and never later in a
     * write to the mapping (a fault the JVM reports as an {@code InternalError}).
     */
    public static SegmentHeader.Info createIfAbsent(Path dir, long firstIndex, long segmentSize,
                                                    LayoutDescriptor descriptor) {
        return createIfAbsent(dir, firstIndex, segmentSize, descriptor, false);
    }

    /** As {@link #createIfAbsent(Path, long, long, LayoutDescriptor)}; {@code rw-------} if {@code privateFiles}. */
    public static SegmentHeader.Info createIfAbsent(Path dir, long firstIndex, long segmentSize,
                                                    LayoutDescriptor descriptor, boolean privateFiles) {
        return createIfAbsent(dir, firstIndex, segmentSize, FileType.single(descriptor), privateFiles);
    }

    /** As {@link #createIfAbsent(Path, long, long, LayoutDescriptor)}, for a file recording the type table {@code types}. */
    public static SegmentHeader.Info createIfAbsent(Path dir, long firstIndex, long segmentSize, List<FileType> types,
                                                    boolean privateFiles) {
        return createIfAbsent(dir, firstIndex, segmentSize, types, privateFiles, 0);
    }

    /**
     * As {@link #createIfAbsent(Path, long, long, List, boolean)}, for a file created in term {@code term}, which its
     * header records ({@link SegmentHeader#termOf}).
     */
    public static SegmentHeader.Info createIfAbsent(Path dir, long firstIndex, long segmentSize, List<FileType> types,
                                                    boolean privateFiles, long term) {
        return createIfAbsent(dir, firstIndex, segmentSize, types, privateFiles, term, SegmentFormat.FORMAT_VERSION);
    }

    /**
     * As {@link #createIfAbsent(Path, long, long, List, boolean, long)}, a file of format {@code version} if it is
     * created here ({@link SegmentFormat#FORMAT_VERSION}, or {@link SegmentFormat#CHECKSUM_FORMAT}: record checksums).
     */
    public static SegmentHeader.Info createIfAbsent(Path dir, long firstIndex, long segmentSize, List<FileType> types,
                                                    boolean privateFiles, long term, int version) {
        if (!Files.exists(path(dir, firstIndex))) { // zero-filled: every block held before a record is written
            publish(dir, firstIndex, prepare(dir, firstIndex, segmentSize, types, true, privateFiles, term, version));
        }
        return readHeader(dir, firstIndex);
    }

    /**
     * Writes the complete file of {@code firstIndex} under this thread's temporary name
     * ({@code <name>.tmp-<pid>-<thread id>}), which no reader or appender looks at: the header, forced to storage
     * with the file's full (sparse) size, then, if {@code zeroFill}, zeros over everything after the header
     * (checkpoint slots and records). Zero-filling puts every page of the file in the page cache with its blocks reserved, so that an appender's first write to
     * a page of its mapping later is a minor fault instead of allocating, zeroing and reserving the page (see
     * {@code docs/queue-performance.md}). The zeros are not forced: a crash leaves holes, which read as the same
     * zeros. On failure the temporary is deleted.
     *
     * @return the temporary, to {@link #publish} (or delete)
     * @throws UncheckedIOException if the file system fails
     */
    public static Path prepare(Path dir, long firstIndex, long segmentSize, LayoutDescriptor descriptor,
                               boolean zeroFill) {
        return prepare(dir, firstIndex, segmentSize, descriptor, zeroFill, false);
    }

    /** As {@link #prepare(Path, long, long, LayoutDescriptor, boolean)}; {@code rw-------} if {@code privateFiles}. */
    public static Path prepare(Path dir, long firstIndex, long segmentSize, LayoutDescriptor descriptor,
                               boolean zeroFill, boolean privateFiles) {
        return prepare(dir, firstIndex, segmentSize, FileType.single(descriptor), zeroFill, privateFiles);
    }

    /** As {@link #prepare(Path, long, long, LayoutDescriptor, boolean)}, for a file recording the table {@code types}. */
    public static Path prepare(Path dir, long firstIndex, long segmentSize, List<FileType> types, boolean zeroFill,
                               boolean privateFiles) {
        return prepare(dir, firstIndex, segmentSize, types, zeroFill, privateFiles, 0);
    }

    /** As {@link #prepare(Path, long, long, List, boolean, boolean)}, for a file created in term {@code term}. */
    public static Path prepare(Path dir, long firstIndex, long segmentSize, List<FileType> types, boolean zeroFill,
                               boolean privateFiles, long term) {
        return prepare(dir, firstIndex, segmentSize, types, zeroFill, privateFiles, term, SegmentFormat.FORMAT_VERSION);
    }

    /** As {@link #prepare(Path, long, long, List, boolean, boolean, long)}, a file of format {@code version}. */
    public static Path prepare(Path dir, long firstIndex, long segmentSize, List<FileType> types, boolean zeroFill,
                               boolean privateFiles, long term, int version) {
        byte[] header = SegmentHeader.encodeTypes(version, segmentSize, firstIndex,
                System.currentTimeMillis() * 1_000_000L, ProcessHandle.current().pid(), types, term);
        return prepare(dir, firstIndex, segmentSize, header, zeroFill, privateFiles);
    }

    /**
     * As {@link #prepare(Path, long, long, LayoutDescriptor, boolean)}, with the header bytes given: a replica's
     * copy of its source's file header ({@link SegmentHeader#copyOf}), which the caller has validated.
     */
    public static Path prepare(Path dir, long firstIndex, long segmentSize, byte[] header, boolean zeroFill) {
        return prepare(dir, firstIndex, segmentSize, header, zeroFill, false);
    }

    /** As {@link #prepare(Path, long, long, byte[], boolean)}; {@code rw-------} if {@code privateFiles}. */
    public static Path prepare(Path dir, long firstIndex, long segmentSize, byte[] header, boolean zeroFill,
                               boolean privateFiles) {
        Path file = path(dir, firstIndex);
        Path tmp = file.resolveSibling(file.getFileName() + temporarySuffix(file.getParent()));
        return writeTemporary(tmp, file, segmentSize, header, zeroFill, privateFiles);
    }

    /**
     * Writes a blank file of {@code segmentSize} bytes under this thread's temporary name
     * ({@code segment-blank.blitq.tmp-<owner>-<thread id>}): its full (sparse) size forced to storage, then zeros over
     * all of it, not forced (see {@link #prepare(Path, long, long, LayoutDescriptor, boolean)}). A replica
     * prepares it before it knows the next file's header; {@link #completeBlank} writes that header, and
     * {@link #publish} gives it its name.
     *
     * @throws UncheckedIOException if the file system fails (nothing is left behind)
     */
    public static Path prepareBlank(Path dir, long segmentSize) {
        return prepareBlank(dir, segmentSize, false);
    }

    /** As {@link #prepareBlank(Path, long)}; {@code rw-------} if {@code privateFiles}. */
    public static Path prepareBlank(Path dir, long segmentSize, boolean privateFiles) {
        return writeTemporary(dir.resolve("segment-blank.blitq" + temporarySuffix(dir)), dir, segmentSize, null, true,
                privateFiles);
    }

    /**
     * Writes {@code header} (validated by the caller) at the start of a blank from {@link #prepareBlank} and forces
     * just those bytes to storage, so that the file is complete when {@link #publish} names it.
     *
     * @throws UncheckedIOException if the file system fails
     */
    public static void completeBlank(Path blank, byte[] header) {
        try (FileChannel channel = FileChannel.open(blank, StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS);
             Arena arena = Arena.ofConfined()) {
            MemorySegment start = channel.map(FileChannel.MapMode.READ_WRITE, 0, header.length, arena);
            MemorySegment.copy(header, 0, start, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, header.length);
            start.force(); // msync of the header's pages only: the zeros behind it need not reach the disk
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the header of " + blank, e);
        }
    }

    private static String temporarySuffix(Path dir) {
        return ".tmp-" + WriterRegistry.temporaryTag(dir) + "-" + Thread.currentThread().threadId();
    }

    /**
     * Writes {@code tmp} (header if not null, full size forced, zeros if asked), {@code rw-------} from its creation
     * on if {@code privateFiles}; deletes it on failure.
     */
    private static Path writeTemporary(Path tmp, Path named, long segmentSize, byte[] header, boolean zeroFill,
                                       boolean privateFiles) {
        boolean done = false;
        try {
            Files.deleteIfExists(tmp); // an earlier preparation of this thread that was never published
            try (FileChannel channel = FileModes.open(tmp, privateFiles, EnumSet.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, StandardOpenOption.READ))) {
                if (header != null) {
                    writeFully(channel, ByteBuffer.wrap(header), 0);
                }
                channel.write(ByteBuffer.allocate(1), segmentSize - 1); // sparse extension to full size
                channel.force(true);
                if (zeroFill) {
                    // from the header's end: the checkpoint slots behind it are written later too, and on a full
                    // file system a write to a page that was never allocated faults
                    ByteBuffer zeros = ByteBuffer.allocateDirect(ZERO_CHUNK);
                    for (long at = header == null ? 0 : header.length; at < segmentSize; at += ZERO_CHUNK) {
                        zeros.clear().limit((int) Math.min(ZERO_CHUNK, segmentSize - at));
                        writeFully(channel, zeros, at);
                    }
                }
            }
            done = true;
            return tmp;
        } catch (IOException e) { // "No space left on device" among them: said in the message, nothing left behind
            throw new UncheckedIOException("cannot create queue file " + named + ": " + e.getMessage(), e);
        } finally {
            if (!done) {
                deleteQuietly(tmp);
            }
        }
    }

    /**
     * Publishes a temporary written by {@link #prepare} as the file of {@code firstIndex} with
     * {@link Files#createLink} (if another creator published that file first, its file is kept), and deletes the
     * temporary.
     *
     * @throws UncheckedIOException if the file system fails
     */
    public static void publish(Path dir, long firstIndex, Path tmp) {
        Path file = path(dir, firstIndex);
        try {
            Files.createLink(file, tmp);
        } catch (FileAlreadyExistsException lostRace) {
            // another creator published first; use its file
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create queue file " + file, e);
        } finally {
            deleteQuietly(tmp);
        }
    }

    /** Deletes {@code tmp} if it exists; a leftover temporary is ignored by {@link #list} and harmless. */
    public static void deleteQuietly(Path tmp) {
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
            // a leftover temporary is ignored by list() and deleted by the next open once its process is gone
        }
    }

    private static void writeFully(FileChannel channel, ByteBuffer bytes, long at) throws IOException {
        long position = at;
        while (bytes.hasRemaining()) {
            position += channel.write(bytes, position);
        }
    }

    /** Maps the whole file read-write into {@code arena}. */
    public static MemorySegment map(SegmentHeader.Info info, Arena arena) {
        return map(info, arena, false);
    }

    /**
     * As {@link #map(SegmentHeader.Info, Arena)}; with {@code readOnly}, the file is opened for reading only and
     * mapped {@code READ_ONLY} (a read-only mount, a file the process may only read): any write to the segment throws.
     */
    public static MemorySegment map(SegmentHeader.Info info, Arena arena, boolean readOnly) {
        try (FileChannel channel = readOnly
                ? FileChannel.open(info.file(), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)
                : FileChannel.open(info.file(), StandardOpenOption.READ, StandardOpenOption.WRITE,
                        LinkOption.NOFOLLOW_LINKS)) {
            return channel.map(readOnly ? FileChannel.MapMode.READ_ONLY : FileChannel.MapMode.READ_WRITE, 0,
                    info.segmentSize(), arena);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map queue file " + info.file(), e);
        }
    }
}
