package io.blit.stress;

import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.SegmentHeader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Segment-file images for the jcstress states, each seen through two mappings of one temporary file, as
 * two processes sharing a queue file would see it: {@link Image#writer()} through one, {@link Image#reader()}
 * through the other. Both mappings are in shared arenas (any thread may touch them) and live until the JVM
 * exits; the file is deleted at once (Linux keeps a deleted file's mappings valid).
 *
 * <p>jcstress creates states by the thousand, so a state does not map a file: it {@link #acquire()}s an
 * image from this pool in its constructor (the image's first records and checkpoint slots are zeroed) and
 * {@link #release}s it in its {@code @Arbiter}, which jcstress runs after every actor of that state has
 * finished. An image is therefore never used by two live states, whatever jcstress's batch sizes; a free
 * list (last in, first out) keeps the touched pages few. Thread-safe.
 */
final class SharedImages {
    /** Bytes of one image: a whole segment file of the smallest size (header, checkpoints, one page of records). */
    static final long IMAGE_SIZE = SegmentFormat.MIN_SEGMENT_SIZE;
    /** Images that may be in use at once; running out throws, failing the test visibly. */
    static final int CAPACITY = 16_384;
    /** Bytes zeroed from the start of the checkpoint area on acquire: slots 0..15. */
    static final long CHECKPOINT_BYTES_RESET = 64;

    /** One image: a segment file of {@link #IMAGE_SIZE} bytes seen through both mappings. */
    record Image(int index, MappedSegment writer, MappedSegment reader) {
    }

    private static final MemorySegment WRITER_MAPPING;
    private static final MemorySegment READER_MAPPING;
    private static final SegmentHeader.Info INFO;
    private static final ConcurrentLinkedDeque<Image> FREE = new ConcurrentLinkedDeque<>();
    private static final AtomicInteger CREATED = new AtomicInteger();

    static {
        try {
            Path file = Files.createTempFile("blit-jcstress-", ".blitq");
            long size = IMAGE_SIZE * CAPACITY;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                channel.truncate(0);
                channel.write(java.nio.ByteBuffer.allocate(1), size - 1); // sparse: only touched pages cost
                WRITER_MAPPING = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, Arena.ofShared());
                READER_MAPPING = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, Arena.ofShared());
            } finally {
                Files.deleteIfExists(file);
            }
            INFO = new SegmentHeader.Info(file, IMAGE_SIZE, 0, 0, ProcessHandle.current().pid(), null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the jcstress queue file in " + System.getProperty("java.io.tmpdir"), e);
        }
    }

    private SharedImages() {
    }

    /**
     * An image no live state uses, its whole records area (the tests write at its start and at its end)
     * and first {@link #CHECKPOINT_BYTES_RESET} checkpoint bytes zeroed (plain stores: jcstress publishes
     * the state to its actors).
     *
     * @throws IllegalStateException if {@link #CAPACITY} images are in use
     */
    static Image acquire() {
        Image image = FREE.pollFirst();
        if (image == null) {
            int index = CREATED.getAndIncrement();
            if (index >= CAPACITY) {
                throw new IllegalStateException("more than " + CAPACITY + " jcstress states hold a queue image;"
                        + " raise SharedImages.CAPACITY");
            }
            long offset = index * IMAGE_SIZE;
            image = new Image(index, MappedSegment.view(INFO, WRITER_MAPPING.asSlice(offset, IMAGE_SIZE)),
                    MappedSegment.view(INFO, READER_MAPPING.asSlice(offset, IMAGE_SIZE)));
        }
        MemorySegment segment = image.writer().segment();
        segment.asSlice(SegmentFormat.RECORDS_START).fill((byte) 0);
        segment.asSlice(SegmentFormat.CHECKPOINT_AREA_OFFSET, CHECKPOINT_BYTES_RESET).fill((byte) 0);
        return image;
    }

    /** Returns {@code image} to the pool; call once, after every actor that used it has finished. */
    static void release(Image image) {
        FREE.addFirst(image);
    }
}
