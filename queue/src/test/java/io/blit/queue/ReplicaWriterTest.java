package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.segment.SegmentHeader;
import io.blit.queue.replica.RecordStream;
import io.blit.queue.replica.ReplicaDivergedException;
import io.blit.queue.replica.ReplicaInputException;
import io.blit.queue.replica.ReplicaWriter;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link RecordStream} into {@link ReplicaWriter}: byte-identical files, resumption, refusals. */
class ReplicaWriterTest {
    static final QueueOptions SMALL = QueueOptions.defaults().segmentSize(64 << 10);

    @TempDir
    Path source;
    @TempDir
    Path replica;

    @TempDir
    Path outside;

    @Test
    void aReplicaOfMarkerPlantedAsALinkIsRefusedAndItsTargetKept() throws IOException {
        Path precious = Files.writeString(outside.resolve("precious"), "precious");
        Files.createSymbolicLink(replica.resolve("replica-of"), precious);

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> ReplicaWriter.open(replica, "test").close());

        assertTrue(refused.getMessage().contains("replica-of") && refused.getMessage().contains("symbolic link")
                && refused.getMessage().contains(precious.toString()), refused.getMessage());
        assertEquals("precious", Files.readString(precious), "nothing written through the link");
    }

    @Test
    void aLinkPlantedAsTheNextSegmentFileIsRefusedAndItsTargetKept() throws IOException {
        appendMarketData(0, 2_000, -1);
        long[] firsts = SegmentFiles.list(source);
        assertTrue(firsts.length > 2, "the source rolled");
        Path precious = Files.writeString(outside.resolve("precious"), "precious");
        Path missing = outside.resolve("missing");
        copy(0, firsts[1] - 1);
        for (Path target : List.of(precious, missing)) {
            Path planted = SegmentFiles.path(replica, firsts[1]);
            IllegalStateException atRoll = assertThrows(IllegalStateException.class, () -> {
                try (BlitQueue<Void> queue = BlitQueue.openRaw(source, SMALL);
                     ReplicaWriter writer = ReplicaWriter.open(replica, "test");
                     RecordStream stream = RecordStream.open(source, SMALL, writer.nextIndex())) {
                    Files.createSymbolicLink(planted, target); // while the replica runs, before it rolls
                    for (int event = stream.poll(); event != RecordStream.NONE; event = stream.poll()) {
                        if (event == RecordStream.FILE) {
                            writer.startFile(stream.fileHeader());
                        } else {
                            writer.write(stream.word(), stream.payload());
                        }
                    }
                }
            });
            assertTrue(atRoll.getMessage().contains(planted.toString())
                    && atRoll.getMessage().contains("symbolic link"), atRoll.getMessage());
            IllegalStateException atOpen = assertThrows(IllegalStateException.class,
                    () -> ReplicaWriter.open(replica, "test").close());
            assertTrue(atOpen.getMessage().contains(planted.toString())
                    && atOpen.getMessage().contains("symbolic link"), atOpen.getMessage());
            assertEquals("precious", Files.readString(precious), "nothing written through the link");
            assertTrue(Files.notExists(missing, java.nio.file.LinkOption.NOFOLLOW_LINKS), "nothing created through it");
            Files.delete(planted);
        }
        long next;
        try (ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
            next = writer.nextIndex();
        }
        assertTrue(next >= firsts[1] - 1, "what it held stays held: " + next);
        copy(next, Long.MAX_VALUE);
        assertIdenticalFiles();
    }

    @Test
    void copiesEveryFileByteForByteAcrossRollsAndAnAbandonedRecord() throws IOException {
        appendMarketData(0, 2_000, 700);
        long copied = copy(0, Long.MAX_VALUE);
        assertEquals(2_001, copied, "2,000 messages, one abandoned index");
        assertIdenticalFiles();
        try (BlitQueue<MarketData> queue = BlitQueue.open(replica, MarketData.class)) {
            Tailer<MarketData> tailer = queue.tailer();
            MarketData in = new MarketData();
            long read = 0;
            while (tailer.readNext(in)) {
                read++;
            }
            assertEquals(2_000, read);
            assertEquals(2_001, tailer.index());
        }
    }

    @Test
    void resumesAtTheFirstEmptyWordAfterAPartlyWrittenPayload() throws IOException {
        appendMarketData(0, 1_500, -1);
        copy(0, 1_000);
        long next;
        try (ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
            next = writer.nextIndex();
        }
        assertEquals(1_000, next);
        scribbleBehindTheTail();
        try (ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
            assertEquals(1_000, writer.nextIndex(), "payload bytes behind an empty word are not a record");
        }
        copy(1_000, Long.MAX_VALUE);
        assertIdenticalFiles();
    }

    @Test
    void copiesRunsOfEverySizeByteForByteAcrossRollsAndAnAbandonedRecord() throws IOException {
        appendMarketData(0, 2_000, 700);
        Random random = new Random(7);
        assertEquals(2_001, copyRuns(0, () -> 8 + random.nextInt(4_000)), "2,000 messages, one abandoned index");
        assertIdenticalFiles();
    }

    @Test
    void resumesAfterAWriterKilledInTheMiddleOfARun() throws IOException {
        appendMarketData(0, 1_500, -1);
        copy(0, 1_000);
        // a killed writer's run: every byte of records 1000..1009 but the first header word
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, SMALL);
             RecordStream stream = RecordStream.open(source, SMALL, 1_000)) {
            assertEquals(RecordStream.FILE, stream.pollRun(10 * 160));
            assertEquals(RecordStream.RUN, stream.pollRun(10 * 160));
            MemorySegment run = Arena.ofAuto().allocate(stream.runLength());
            stream.copyRun(run, 0);
            long[] files = SegmentFiles.list(replica);
            try (FileChannel channel = FileChannel.open(SegmentFiles.path(replica, files[files.length - 1]),
                    StandardOpenOption.WRITE)) {
                channel.write(run.asSlice(8).asByteBuffer(), stream.runPosition() + 8);
            }
        }
        try (ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
            assertEquals(1_000, writer.nextIndex(), "records behind an empty first word are not held");
        }
        int[] sizes = {3 * 160, 5_000}; // other run boundaries than the killed writer's
        int[] call = {0};
        copyRuns(1_000, () -> sizes[call[0]++ % 2]);
        assertIdenticalFiles();
    }

    @Test
    void refusesARunThatDoesNotHoldWhatItAnnouncesAndWritesNothing() throws IOException {
        appendMarketData(0, 100, -1);
        copy(0, 10);
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, SMALL);
             RecordStream stream = RecordStream.open(source, SMALL, 10);
             ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
            assertEquals(RecordStream.FILE, stream.pollRun(4 * 160));
            writer.startFile(stream.fileHeader());
            assertEquals(RecordStream.RUN, stream.pollRun(4 * 160));
            assertEquals(4, stream.runCount());
            MemorySegment run = Arena.ofAuto().allocate(stream.runLength());
            stream.copyRun(run, 0);
            long at = stream.runPosition();
            long length = stream.runLength();
            assertThrows(ReplicaInputException.class, () -> writer.writeRun(10, at, run, 0, length, 5));
            assertThrows(ReplicaInputException.class, () -> writer.writeRun(10, at, run, 0, length - 8, 4));
            assertThrows(ReplicaDivergedException.class, () -> writer.writeRun(11, at, run, 0, length, 4));
            assertThrows(ReplicaDivergedException.class, () -> writer.writeRun(10, at + 8, run, 0, length, 4));
            MemorySegment claimed = Arena.ofAuto().allocate(length).copyFrom(run);
            claimed.set(ValueLayout.JAVA_LONG_UNALIGNED, 160, 0L); // the second record's word (160-byte records): empty
            assertThrows(ReplicaInputException.class, () -> writer.writeRun(10, at, claimed, 0, length, 4));
            assertEquals(10, writer.nextIndex(), "nothing was written");
            assertEquals(14, writer.writeRun(10, at, run, 0, length, 4));
        }
    }

    @Test
    void refusesLocalAppendsAndOpeningBeforeTheFirstFile() {
        try (ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
            assertEquals(-1, writer.nextIndex());
            assertNull(writer.newestFileHeader());
        }
        IllegalStateException empty = assertThrows(IllegalStateException.class,
                () -> BlitQueue.open(replica, MarketData.class));
        assertTrue(empty.getMessage().contains("has received no file yet"), empty.getMessage());
        appendMarketData(0, 10, -1);
        copy(0, Long.MAX_VALUE);
        try (BlitQueue<MarketData> queue = BlitQueue.open(replica, MarketData.class)) {
            ReplicaAppendException refused = assertThrows(ReplicaAppendException.class, queue::appender);
            assertTrue(refused.getMessage().contains("is a replica of test:")
                    && refused.getMessage().contains("append on the primary it follows (test)")
                    && !refused.getMessage().contains("promote"), refused.getMessage());
        }
    }

    @Test
    void refusesADirectoryThatHoldsAQueueOfItsOwn() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(replica, MarketData.class)) {
            queue.appender().append(new MarketData().fillFor(1, 1));
        }
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> ReplicaWriter.open(replica, "test"));
        assertTrue(refused.getMessage().contains("is not a replica"), refused.getMessage());
    }

    @Test
    void refusesTheFileOfAnotherQueueAndAGap(@TempDir Path other) throws IOException {
        appendMarketData(0, 10, -1);
        copy(0, Long.MAX_VALUE);
        try (BlitQueue<MarketData> queue = BlitQueue.open(other, MarketData.class, SMALL)) {
            queue.appender().append(new MarketData().fillFor(1, 1));
        }
        byte[] foreign = headerOf(other.resolve(SegmentFiles.path(other, 0).getFileName()));
        try (ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
            ReplicaDivergedException another = assertThrows(ReplicaDivergedException.class, () -> writer.startFile(foreign));
            assertTrue(another.getMessage().contains("a replica of another queue"), another.getMessage());
            byte[] later = SegmentHeader.encode(64 << 10, 500, 1, 1, null);
            byte[] laterCopy = Arrays.copyOf(later, SegmentFormat.DESCRIPTOR_OFFSET + 4);
            ReplicaDivergedException gap = assertThrows(ReplicaDivergedException.class, () -> writer.startFile(laterCopy));
            assertTrue(gap.getMessage().contains("expects index 10 next"), gap.getMessage());
        }
    }

    /** Appends {@code count} MarketData from {@code from}; where {@code failAt} >= 0, that append's filler fails. */
    private void appendMarketData(long from, int count, long failAt) {
        try (BlitQueue<MarketData> queue = BlitQueue.open(source, MarketData.class, SMALL)) {
            Appender<MarketData> appender = queue.appender();
            MarketData out = new MarketData();
            for (long n = from; n < from + count; n++) {
                if (n == failAt) {
                    assertThrows(IllegalStateException.class, () -> appender.append(out, (m, index) -> {
                        throw new IllegalStateException("filler fails");
                    }));
                }
                appender.append(out.fillFor(n, n));
            }
        }
    }

    /** Streams the source's records from {@code from} into the replica until {@code until} or the end; returns the count. */
    private long copy(long from, long until) {
        long records = 0;
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, SMALL);
             RecordStream stream = RecordStream.open(source, SMALL, from);
             ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
            while (true) {
                int event = stream.poll();
                if (event == RecordStream.NONE || event == RecordStream.RECORD && !stream.isPadding()
                        && stream.index() >= until) {
                    return records;
                }
                if (event == RecordStream.FILE) {
                    writer.startFile(stream.fileHeader());
                } else {
                    assertEquals(stream.index(), writer.nextIndex());
                    writer.write(stream.word(), stream.payload());
                    records += stream.isPadding() ? 0 : 1;
                }
            }
        }
    }

    /** As {@link #copy} to the end, in runs of at most {@code maxRunBytes.getAsInt()} bytes each. */
    private long copyRuns(long from, IntSupplier maxRunBytes) {
        long records = 0;
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, SMALL);
             RecordStream stream = RecordStream.open(source, SMALL, from);
             ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
            while (true) {
                int event = stream.pollRun(maxRunBytes.getAsInt());
                if (event == RecordStream.NONE) {
                    return records;
                }
                if (event == RecordStream.FILE) {
                    writer.startFile(stream.fileHeader());
                } else if (event == RecordStream.RUN) {
                    MemorySegment run = Arena.ofAuto().allocate(stream.runLength());
                    stream.copyRun(run, 0);
                    writer.writeRun(stream.index(), stream.runPosition(), run, 0, stream.runLength(), stream.runCount());
                    records += stream.runCount();
                } else {
                    assertTrue(stream.isPadding());
                    writer.write(stream.word(), stream.payload());
                }
            }
        }
    }

    private void assertIdenticalFiles() throws IOException {
        long[] sourceFiles = SegmentFiles.list(source);
        assertArrayEquals(sourceFiles, SegmentFiles.list(replica));
        assertTrue(sourceFiles.length >= 3, "the copy crosses rolls: " + sourceFiles.length + " files");
        for (long first : sourceFiles) {
            assertEquals(-1, Files.mismatch(SegmentFiles.path(source, first), SegmentFiles.path(replica, first)),
                    "file " + first);
        }
        try (var names = Files.list(replica)) {
            assertEquals(List.of(), names.map(p -> p.getFileName().toString()).filter(n -> n.contains(".tmp-")).toList(),
                    "the writer deletes the blank it prepared for the next file when it closes");
        }
    }

    /** Writes bytes where the payload of the record after the replica's last one goes, leaving its word 0. */
    private void scribbleBehindTheTail() throws IOException {
        long[] files = SegmentFiles.list(replica);
        Path newest = SegmentFiles.path(replica, files[files.length - 1]);
        try (FileChannel channel = FileChannel.open(newest, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer word = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
            for (long at = SegmentFormat.RECORDS_START; at + 16 <= channel.size(); ) {
                channel.read(word.clear(), at);
                long value = word.getLong(0);
                if (value == 0) {
                    channel.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}), at + 8);
                    return;
                }
                at += 8 + ((value & 0xFFFF_FFFFL) + 7 & ~7L);
            }
        }
        throw new AssertionError("no empty word in " + newest);
    }

    private static byte[] headerOf(Path file) throws IOException {
        try (Arena arena = Arena.ofConfined(); FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            MemorySegment mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, SegmentFormat.HEADER_AREA, arena);
            return SegmentHeader.copyOf(mapped, file);
        }
    }
}
