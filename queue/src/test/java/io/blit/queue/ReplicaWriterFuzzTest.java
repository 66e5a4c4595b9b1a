package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.testkit.Mutation;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.segment.SegmentHeader;
import io.blit.queue.replica.ReplicaWriter;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32C;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Fuzz properties of {@link ReplicaWriter} (docs/fuzzing.md): hostile file headers, record words and runs, given to a
 * real replica in a temporary directory, are refused with the exception their method documents, within
 * {@link #LIMIT}, with nothing written or created; the replica then takes the event the source really sent, and reads
 * back as the source. An event that is taken was valid: the replica holds its bytes and a tailer reads it. Each try
 * copies a replica's files, so these properties run a fifth of the default tries ({@link FileFuzzTries}).
 */
@AddLifecycleHook(FileFuzzTries.class)
class ReplicaWriterFuzzTest {
    private static final Duration LIMIT = Duration.ofSeconds(20);
    /** Records of the source's first file the replica holds before each try. */
    private static final int HELD = 100;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    private static Path root;
    private static Path source;
    /** A replica of the source's first {@link #HELD} records. */
    private static Path template;
    private static byte[] header;
    private static List<FuzzFiles.Record> records;
    private static byte[] sourceFile;
    private static byte[] templateFile;

    @BeforeContainer
    static void createSourceAndReplica() throws IOException {
        root = FuzzFiles.newRoot("blit-replica-fuzz");
        source = Files.createDirectory(root.resolve("source"));
        FuzzFiles.writeSource(source, 64 << 10, 300, 100);
        byte[][] headerOut = new byte[1][];
        records = FuzzFiles.recordsOfFirstFile(source, headerOut);
        header = headerOut[0];
        template = Files.createDirectory(root.resolve("template"));
        Bounded.run(LIMIT, () -> {
            try (ReplicaWriter writer = ReplicaWriter.open(template, "source")) {
                writer.startFile(header);
                for (FuzzFiles.Record record : records.subList(0, HELD)) {
                    writer.write(record.word(), MemorySegment.ofArray(record.payload()));
                }
            }
        });
        sourceFile = FuzzFiles.bytesOf(source, 0);
        templateFile = FuzzFiles.bytesOf(template, 0);
    }

    @AfterContainer
    static void deleteFiles() {
        FuzzFiles.delete(root);
    }

    @Property
    void editedFileHeadersCreateNothingUnlessValid(@ForAll("headerEdits") List<Mutation> edits, @ForAll boolean fixCrc) {
        byte[] hostile = Mutation.applyAll(edits, header, ByteOrder.LITTLE_ENDIAN);
        if (fixCrc && hostile.length >= SegmentFormat.DESCRIPTOR_OFFSET) {
            int headerLength = ByteBuffer.wrap(hostile).order(ByteOrder.LITTLE_ENDIAN).getInt(SegmentFormat.HEADER_LENGTH_OFFSET);
            if (headerLength >= 0 && headerLength <= hostile.length - 4) {
                CRC32C crc = new CRC32C();
                crc.update(hostile, 0, headerLength);
                ByteBuffer.wrap(hostile).order(ByteOrder.LITTLE_ENDIAN).putInt(headerLength, (int) crc.getValue());
            }
        }
        startsFileOrCreatesNothing(hostile);
    }

    @Property
    void randomFileHeadersCreateNothing(@ForAll @Size(max = 5000) byte[] hostile) {
        startsFileOrCreatesNothing(hostile);
    }

    @Property
    void editedRecordsWriteNothingUnlessValid(@ForAll("wordEdits") List<Mutation> wordEdits,
                                              @ForAll("payloadEdits") List<Mutation> payloadEdits,
                                              @ForAll("offsets") long offset, @ForAll("sizes") long sizeChange) {
        FuzzFiles.Record next = records.get(HELD);
        long word = edit(next.word(), wordEdits);
        byte[] payload = Mutation.applyAll(payloadEdits, next.payload(), NATIVE);
        long size = payload.length + sizeChange;
        inReplica((writer, replica) -> writer.write(word, MemorySegment.ofArray(payload), offset, size),
                taken -> {
                    assertEquals(next.index(), taken.next());
                    byte[] file = FuzzFiles.bytesOf(taken.replica(), 0);
                    assertEquals(word, ByteBuffer.wrap(file).order(NATIVE).getLong((int) next.position()));
                    if (!RecordHeader.isPadding(word)) {
                        assertArrayEquals(Arrays.copyOfRange(payload, (int) offset, (int) (offset + size)),
                                Arrays.copyOfRange(file, (int) next.position() + 8, (int) (next.position() + 8 + size)));
                    }
                }, writer -> writer.write(next.word(), MemorySegment.ofArray(next.payload())), next.end());
    }

    @Property
    void editedRunsWriteNothingUnlessValid(@ForAll @IntRange(min = 1, max = 8) int count,
                                           @ForAll("runEdits") List<Mutation> edits,
                                           @ForAll("runFieldEdits") List<Mutation> fieldEdits) {
        FuzzFiles.Record first = records.get(HELD);
        FuzzFiles.Record last = records.get(HELD + count - 1);
        byte[] run = Mutation.applyAll(edits, Arrays.copyOfRange(sourceFile, (int) first.position(), (int) last.end()),
                NATIVE);
        // the call's own arguments, edited as fields of a record: index, position, offset, length, count
        long[] args = {first.index(), first.position(), 0, run.length, count};
        for (Mutation edit : fieldEdits) {
            args[Math.floorMod(edit.at(), args.length)] += edit.kind().ordinal() < 3 ? edit.value() % 17 : edit.value();
        }
        MemorySegment bytes = MemorySegment.ofArray(run);
        inReplica((writer, replica) -> writer.writeRun(args[0], args[1], bytes, args[2], args[3], (int) args[4]),
                taken -> {
                    assertEquals(first.index() + (int) args[4], taken.next());
                    byte[] file = FuzzFiles.bytesOf(taken.replica(), 0);
                    assertArrayEquals(Arrays.copyOfRange(run, (int) args[2], (int) (args[2] + args[3])),
                            Arrays.copyOfRange(file, (int) first.position(), (int) (first.position() + args[3])));
                },
                writer -> writer.writeRun(first.index(), first.position(), MemorySegment.ofArray(
                        Arrays.copyOfRange(sourceFile, (int) first.position(), (int) last.end())), 0,
                        last.end() - first.position(), count),
                last.end());
    }

    /** A replica with no file: {@code hostile} is refused with nothing created, then the real header is taken. */
    private static void startsFileOrCreatesNothing(byte[] hostile) {
        long statedSize = hostile.length >= 24 ? ByteBuffer.wrap(hostile).order(ByteOrder.LITTLE_ENDIAN).getLong(16) : 0;
        Assume.that(!(SegmentFormat.isValidSegmentSize(statedSize) && statedSize > (1 << 20))); // a valid big file: slow
        Path replica = FuzzFiles.copyOf(null, root);
        try {
            Bounded.run(LIMIT, () -> {
                try (ReplicaWriter writer = ReplicaWriter.open(replica, "source")) {
                    try {
                        writer.startFile(hostile);
                    } catch (IllegalArgumentException refused) {
                        assertTrue(refused.getCause() instanceof QueueCorruptedException, refused.toString());
                        assertEquals(List.of(), FuzzFiles.segmentNames(replica), "nothing created for " + refused);
                        writer.startFile(header);
                        assertEquals(0, writer.nextIndex());
                        return;
                    }
                    long first = SegmentHeader.firstIndexOf(hostile);
                    assertEquals(first, writer.nextIndex());
                    assertArrayEquals(hostile, SegmentFiles.readHeaderBytes(replica, first), "the file has the header");
                    assertEquals(statedSize, Files.size(SegmentFiles.path(replica, first)));
                }
            });
        } finally {
            FuzzFiles.delete(replica);
        }
    }

    /**
     * Runs {@code hostile} on a writer of a copy of the template replica. If it is refused (with an
     * {@link IllegalArgumentException} or {@link IllegalStateException}), the file must be unchanged, the writer must
     * take {@code real} next, and the file then equal the source's up to {@code realEnd}. If it is taken,
     * {@code check} checks it, and a tailer of the replica reads every record without an exception.
     */
    private static void inReplica(Step<Long> hostile, Consumer<Taken> check,
                                  Step1 real, long realEnd) {
        Path replica = FuzzFiles.copyOf(template, root);
        try {
            Bounded.run(LIMIT, () -> {
                long taken = -1;
                RuntimeException refused = null;
                try (ReplicaWriter writer = ReplicaWriter.open(replica, "source")) {
                    try {
                        taken = hostile.run(writer, replica);
                    } catch (IllegalArgumentException | IllegalStateException e) {
                        refused = e;
                        assertFalse(e instanceof QueueCorruptedException, e.toString());
                        assertEquals(HELD, writer.nextIndex(), "refused: " + e);
                        assertArrayEquals(templateFile, FuzzFiles.bytesOf(replica, 0), "nothing written: " + e);
                        real.run(writer);
                    }
                }
                if (refused != null) { // then the real event was taken: the file is the source's up to its end
                    byte[] file = FuzzFiles.bytesOf(replica, 0);
                    assertArrayEquals(Arrays.copyOf(sourceFile, (int) realEnd), Arrays.copyOf(file, (int) realEnd));
                    assertTrue(Arrays.equals(file, (int) realEnd, file.length,
                            new byte[file.length - (int) realEnd], 0, file.length - (int) realEnd), "zeros after it");
                    return;
                }
                check.accept(new Taken(replica, taken));
                readsEveryRecord(replica);
            });
        } finally {
            FuzzFiles.delete(replica);
        }
    }

    private static void readsEveryRecord(Path replica) {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(replica); Tailer<Void> tailer = queue.tailer()) {
            MemorySegment into = MemorySegment.ofArray(new byte[64 << 10]);
            int read = 0;
            while (tailer.readNextBytes(into) >= 0) {
                read++;
            }
            assertTrue(read >= HELD, read + " records read");
        }
    }

    /** The result of a hostile event that was taken. */
    record Taken(Path replica, long next) {
    }

    @FunctionalInterface
    interface Step<T> {
        T run(ReplicaWriter writer, Path replica);
    }

    @FunctionalInterface
    interface Step1 {
        void run(ReplicaWriter writer);
    }

    private static long edit(long word, List<Mutation> edits) {
        byte[] bytes = ByteBuffer.allocate(8).order(NATIVE).putLong(0, word).array();
        return ByteBuffer.wrap(Arrays.copyOf(Mutation.applyAll(edits, bytes, NATIVE), 8)).order(NATIVE).getLong();
    }

    @Provide
    Arbitrary<List<Mutation>> headerEdits() {
        return Mutation.of(header.length, 8, 12, 16, 24, 48, header.length - 4).list().ofMinSize(1).ofMaxSize(3);
    }

    @Provide
    Arbitrary<List<Mutation>> wordEdits() {
        return Mutation.of(8, 0, 4, 7).list().ofMaxSize(3);
    }

    @Provide
    Arbitrary<List<Mutation>> payloadEdits() {
        return Mutation.of(100).list().ofMaxSize(2);
    }

    @Provide
    Arbitrary<List<Mutation>> runEdits() {
        return Mutation.of(8 * 112, 0, 4, 7, 16, 20, 23, 64, 68).list().ofMaxSize(3);
    }

    @Provide
    Arbitrary<List<Mutation>> runFieldEdits() {
        return Mutation.of(5).list().ofMaxSize(2);
    }

    @Provide
    Arbitrary<Long> offsets() {
        return Arbitraries.oneOf(Arbitraries.just(0L), Arbitraries.just(0L), Arbitraries.of(Mutation.EXTREMES));
    }

    @Provide
    Arbitrary<Long> sizes() {
        return Arbitraries.oneOf(Arbitraries.just(0L), Arbitraries.just(0L), Arbitraries.of(Mutation.EXTREMES),
                Arbitraries.longs().between(-8, 8));
    }
}
