package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.testkit.Mutation;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.replica.RecordStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Fuzz property of the readers of segment files (docs/fuzzing.md): a queue whose files have corrupted record header
 * words, payload bytes, checkpoint slots or header fields is read by a {@link Tailer} (from the start, from an index,
 * from the end) and a {@link RecordStream}; every call returns (within {@link #LIMIT}) or throws
 * {@link QueueCorruptedException} (and {@code tailerFrom} an index past the end, {@link IllegalArgumentException}),
 * nothing else, and the readers write nothing into the files. Each try copies the files, so the property runs a fifth
 * of the default tries ({@link FileFuzzTries}).
 */
@AddLifecycleHook(FileFuzzTries.class)
class CorruptFileFuzzTest {
    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final long SEGMENT = 192 << 10;
    private static final int RECORDS = 7_000;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private static Path root;
    private static Path template;
    private static long[] files;
    /** Offsets the edits aim at: the first records' header words (both halves), checkpoint slots, header fields. */
    private static int[] targets;

    @BeforeContainer
    static void createQueue() throws IOException {
        root = FuzzFiles.newRoot("blit-corrupt-fuzz");
        template = Files.createDirectory(root.resolve("template"));
        FuzzFiles.writeSource(template, SEGMENT, RECORDS, 40);
        files = SegmentFiles.list(template);
        assertTrue(files.length >= 2 && slot(1) != 0, "the queue rolls and has a checkpoint");
        List<Integer> offsets = new ArrayList<>(List.of(SegmentFormat.HEADER_LENGTH_OFFSET,
                SegmentFormat.SEGMENT_SIZE_OFFSET, SegmentFormat.DESCRIPTOR_LENGTH_OFFSET,
                (int) SegmentFormat.CHECKPOINT_AREA_OFFSET + 4, (int) SegmentFormat.CHECKPOINT_AREA_OFFSET + 8));
        for (FuzzFiles.Record record : FuzzFiles.recordsOfFirstFile(template, new byte[1][]).subList(0, 40)) {
            offsets.add((int) record.position());
            offsets.add((int) record.position() + 4);
        }
        targets = offsets.stream().mapToInt(Integer::intValue).toArray();
    }

    @AfterContainer
    static void deleteFiles() {
        FuzzFiles.delete(root);
    }

    @Property
    void corruptFilesAreReadOrReportedAsCorrupt(@ForAll @IntRange(max = 1) int file,
                                                @ForAll("edits") List<Mutation> edits,
                                                @ForAll @LongRange(max = RECORDS + 10) long from,
                                                @ForAll @IntRange(min = 1, max = 4096) int maxRunBytes) throws IOException {
        Path dir = FuzzFiles.copyOf(template, root);
        try {
            Path corrupted = SegmentFiles.path(dir, files[file]);
            byte[] original = Files.readAllBytes(corrupted);
            byte[] bytes = Mutation.applyAll(edits, original, NATIVE);
            Files.write(corrupted, bytes.length > SEGMENT + 4096 ? java.util.Arrays.copyOf(bytes, (int) SEGMENT) : bytes);
            byte[] written = Files.readAllBytes(corrupted);
            Bounded.run(LIMIT, () -> readEverything(dir, from, maxRunBytes));
            assertArrayEquals(written, Files.readAllBytes(corrupted), "the readers wrote nothing");
        } finally {
            FuzzFiles.delete(dir);
        }
    }

    /** Every way of reading the queue in {@code dir}, each until it ends or reports the file corrupt. */
    private static void readEverything(Path dir, long from, int maxRunBytes) {
        long bound = files.length * SEGMENT / 8; // more calls than records there can be: a loop
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir)) {
            corruptOr(() -> {
                try (Tailer<Void> tailer = queue.tailer()) {
                    MemorySegment into = Arena.ofAuto().allocate(SEGMENT);
                    for (long n = 0; tailer.readNextBytes(into) >= 0; n++) {
                        assertTrue(n < bound, "a tailer read more records than its files hold");
                    }
                }
            });
            corruptOr(() -> {
                try (RecordStream stream = RecordStream.open(dir, QueueOptions.defaults(), 0)) {
                    MemorySegment run = Arena.ofAuto().allocate(SEGMENT);
                    for (long n = 0; stream.pollRun(maxRunBytes) != RecordStream.NONE; n++) {
                        assertTrue(n < bound, "a record stream returned more events than its files hold");
                        if (stream.runCount() > 0) {
                            stream.copyRun(run, 0);
                        }
                    }
                }
            });
            corruptOr(() -> {
                try (Tailer<Void> tailer = queue.tailerFrom(from)) {
                    tailer.readNextBytes(Arena.ofAuto().allocate(SEGMENT));
                } catch (IllegalArgumentException beyondTheEnd) {
                    assertTrue(beyondTheEnd.getMessage().contains("beyond the end"), beyondTheEnd.getMessage());
                }
            });
            corruptOr(() -> {
                try (Tailer<Void> tailer = queue.tailerFromEnd()) {
                    tailer.readNextBytes(Arena.ofAuto().allocate(SEGMENT));
                }
            });
        } catch (QueueCorruptedException refusedAtOpen) {
            // a corrupt header: the queue does not open
        }
    }

    private static void corruptOr(Runnable read) {
        try {
            read.run();
        } catch (QueueCorruptedException reported) {
            assertTrue(reported.getMessage().contains(" at byte " + reported.offset() + ": "), reported.getMessage());
        }
    }

    private static int slot(int k) throws IOException {
        byte[] bytes = FuzzFiles.bytesOf(template, files[0]);
        return java.nio.ByteBuffer.wrap(bytes).order(NATIVE).getInt((int) SegmentFormat.CHECKPOINT_AREA_OFFSET + 4 * k);
    }

    @Provide
    Arbitrary<List<Mutation>> edits() {
        Arbitrary<Mutation> inRecords = Arbitraries.integers().between(0, RECORDS).map(n -> n * 8)
                .flatMap(at -> Mutation.of(8, 0, 4).map(m -> new Mutation(m.kind(),
                        (int) (SegmentFormat.RECORDS_START + at + m.at() % 8), m.value())));
        return Arbitraries.oneOf(Mutation.of((int) SEGMENT, targets), inRecords).list().ofMinSize(1).ofMaxSize(4);
    }
}
