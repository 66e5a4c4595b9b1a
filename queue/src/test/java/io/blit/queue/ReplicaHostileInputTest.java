package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentHeader;
import io.blit.queue.replica.ReplicaInputException;
import io.blit.queue.replica.ReplicaWriter;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a {@link ReplicaWriter} does with events no honest source sends: each is refused with the exception its method
 * documents, at once, before anything is written or created, and the valid event that follows is still taken. The
 * fuzzed counterpart is {@link ReplicaWriterFuzzTest}.
 */
class ReplicaHostileInputTest {
    private static final long SIZE = 64 << 10;
    private static final Duration PROMPTLY = Duration.ofSeconds(20);
    private static final long COMMITTED = RecordHeader.STATE_COMMITTED << RecordHeader.STATE_SHIFT;

    @TempDir
    Path root;

    private final byte[] header = SegmentHeader.copyOf(MemorySegment.ofArray(
            SegmentHeader.encode(SIZE, 0, 1, 1, null)), Path.of("source"));

    @Test
    void aCommittedRecordShorterThanTheTimeOfAFormat2FileIsRefusedAloneAndInARun() {
        byte[] format2 = SegmentHeader.copyOf(MemorySegment.ofArray(
                SegmentHeader.encodeTypes(SIZE, 0, 1, 1, java.util.List.of())), Path.of("source"));
        inReplica((writer, dir) -> {
            writer.startFile(format2);
            assertThrows(ReplicaInputException.class,
                    () -> writer.write(COMMITTED | 4, MemorySegment.ofArray(new byte[4])));
            MemorySegment run = Arena.ofAuto().allocate(16, 8);
            run.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, COMMITTED | 4);
            assertThrows(ReplicaInputException.class,
                    () -> writer.writeRun(0, SegmentFormat.RECORDS_START, run, 0, 16, 1));
            assertEquals(0, writer.nextIndex(), "nothing written");
            assertEquals(0, writer.write(COMMITTED | 12, MemorySegment.ofArray(new byte[12])), "time and payload");
        });
    }

    @Test
    void aRunWhoseWordStatesANegativeLengthIsRefusedWithoutLooping() {
        refusesRun(new long[] {COMMITTED | 0xFFFF_FFF8L}, 16, 1); // length -8 as an int: a record of 0 bytes
    }

    @Test
    void aRunWhoseWordStatesTwoGiBOrMoreIsRefused() {
        refusesRun(new long[] {COMMITTED | 0x8000_0000L}, 16, 1);
        refusesRun(new long[] {COMMITTED | 0xFFFF_FFFFL}, 16, 1);
    }

    @Test
    void aRunLongerThanItsFileOrItsBytesIsRefused() {
        long[] twoRecords = {COMMITTED | 8, COMMITTED | 8}; // 32 bytes given
        refusesRun(twoRecords, Long.MAX_VALUE - 7, 1); // position + length overflows
        refusesRun(twoRecords, 48, 3);
    }

    @Test
    void aRecordOfANegativeSizeIsRefused() {
        inReplicaWithItsFirstFile(writer -> {
            MemorySegment bytes = MemorySegment.ofArray(new byte[64]);
            assertThrows(ReplicaInputException.class, () -> writer.write(COMMITTED | 0xFFFF_FFF8L, bytes, 0, -8));
            assertThrows(ReplicaInputException.class, () -> writer.write(COMMITTED | 8, bytes, 60, 8));
            assertThrows(ReplicaInputException.class, () -> writer.write(COMMITTED | 8, bytes, -1, 8));
            assertThrows(ReplicaInputException.class, () -> writer.write(COMMITTED | 0x8000_0000L, bytes, 0, 0x8000_0000L));
            assertThrows(ReplicaInputException.class, () -> writer.write(RecordHeader.padding(1) | 8, bytes, 0, 0));
        });
    }

    @Test
    void aPaddingWordAsAFilesFirstRecordIsRefused() {
        inReplicaWithItsFirstFile(writer -> assertThrows(ReplicaInputException.class,
                () -> writer.write(RecordHeader.padding(1), MemorySegment.ofArray(new byte[0]))));
    }

    @Test
    void aHeaderLongerThanItsCrcCreatesNoFile() {
        for (int extra : new int[] {4, SegmentFormat.HEADER_AREA, 3 * SegmentFormat.HEADER_AREA}) {
            byte[] longer = Arrays.copyOf(header, header.length + extra);
            Arrays.fill(longer, header.length, longer.length, (byte) 0x5a);
            refusesHeader(longer);
        }
    }

    @Test
    void aHeaderShorterThanItsCrcCreatesNoFile() {
        refusesHeader(Arrays.copyOf(header, header.length - 1));
        refusesHeader(Arrays.copyOf(header, 20));
        refusesHeader(new byte[0]);
    }

    @Test
    void aHeaderStatingAnUnusableSegmentSizeCreatesNoFile() {
        // Sizes whose file is cheap to refuse even where the check is missing: not a page multiple, negative, and
        // past what the file system allows (a size above 4 GiB it allows would be zero-filled; SegmentHeaderTest).
        for (long size : new long[] {70_000, -4096, 1L << 62}) {
            refusesHeader(SegmentHeader.copyOf(MemorySegment.ofArray(SegmentHeader.encode(size, 0, 1, 1, null)),
                    Path.of("source")));
        }
    }

    @Test
    void aHeaderStatingANegativeFirstIndexCreatesNoFile() {
        refusesHeader(SegmentHeader.copyOf(MemorySegment.ofArray(SegmentHeader.encode(SIZE, -1, 1, 1, null)),
                Path.of("source")));
    }

    /**
     * Refuses a run of {@code length} bytes said to hold {@code count} records, given as records of 8 payload bytes
     * with the header {@code words}, at the replica's position; then takes the next valid record.
     */
    private void refusesRun(long[] words, long length, int count) {
        inReplicaWithItsFirstFile(writer -> {
            MemorySegment run = Arena.ofAuto().allocate(16L * words.length, 8);
            for (int i = 0; i < words.length; i++) {
                run.set(ValueLayout.JAVA_LONG_UNALIGNED, 16L * i, words[i]);
            }
            assertThrows(ReplicaInputException.class,
                    () -> writer.writeRun(0, SegmentFormat.RECORDS_START, run, 0, length, count));
            assertEquals(0, writer.nextIndex());
        });
    }

    private void refusesHeader(byte[] hostile) {
        inReplica((writer, replica) -> {
            ReplicaInputException refused = assertThrows(ReplicaInputException.class,
                    () -> writer.startFile(hostile), () -> hostile.length + " bytes");
            assertTrue(refused.getCause() instanceof QueueCorruptedException, refused.toString());
            assertEquals(List.of(), segmentNames(replica), "nothing created for a refused header");
            writer.startFile(header);
            assertEquals(0, writer.nextIndex());
        });
    }

    private void inReplicaWithItsFirstFile(WriterStep step) {
        Path replica = inReplica((writer, dir) -> {
            writer.startFile(header);
            step.run(writer);
            MemorySegment payload = MemorySegment.ofArray(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
            assertEquals(0, writer.write(COMMITTED | 8, payload), "the valid continuation is taken");
        });
        try (BlitQueue<Void> queue = BlitQueue.openRaw(replica);
             Tailer<Void> tailer = queue.tailer()) {
            MemorySegment into = MemorySegment.ofArray(new byte[16]);
            assertEquals(8, tailer.readNextBytes(into));
            assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, into.asSlice(0, 8).toArray(ValueLayout.JAVA_BYTE));
            assertEquals(-1, tailer.readNextBytes(into), "nothing was written but the valid record");
        }
    }

    /**
     * Runs {@code step} on a writer of a new replica, in one thread (its mapping is confined), failing if it hangs.
     *
     * @return the replica's directory
     */
    private Path inReplica(ReplicaStep step) {
        Path replica;
        try {
            replica = Files.createTempDirectory(root, "replica");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertTimeoutPreemptively(PROMPTLY, () -> {
            try (ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
                step.run(writer, replica);
            }
        });
        return replica;
    }

    private static List<String> segmentNames(Path replica) {
        try (Stream<Path> files = Files.list(replica)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("segment-")).toList();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @FunctionalInterface
    private interface WriterStep {
        void run(ReplicaWriter writer);
    }

    @FunctionalInterface
    private interface ReplicaStep {
        void run(ReplicaWriter writer, Path replica);
    }

    @Test
    void theHeaderUsedHereIsValid() {
        assertTrue(header.length > SegmentFormat.DESCRIPTOR_OFFSET && header.length < SegmentFormat.HEADER_AREA);
    }
}
