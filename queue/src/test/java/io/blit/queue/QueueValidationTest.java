package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.replica.RecordStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

class QueueValidationTest {
    @TempDir
    Path dir;

    private Path createMarketDataQueue() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, QueueRoundTripTest.SMALL)) {
            queue.appender().append(new MarketData().fillFor(1, 1));
        }
        return SegmentFiles.path(dir, 0);
    }

    @Test
    void openingWithAClassOfOtherFieldsFailsNamingTheFields() {
        createMarketDataQueue();
        LayoutMismatchException e = assertThrows(LayoutMismatchException.class, () -> BlitQueue.open(dir, Quote.class));
        String message = e.getMessage();
        assertTrue(message.contains("layout mismatch"), message);
        assertTrue(message.contains("spread"), message);     // extra in the reader
        assertTrue(message.contains("askPrice3"), message);  // missing in the reader
        assertTrue(message.contains("time"), message);       // long in the writer, int in the reader
        assertTrue(message.contains(SegmentFiles.path(dir, 0).toString()), message);
    }

    @Test
    void openingARawQueueForAMessageClassFails() {
        BlitQueue.openRaw(dir).close();
        LayoutMismatchException e = assertThrows(LayoutMismatchException.class, () -> BlitQueue.open(dir, MarketData.class));
        assertTrue(e.getMessage().contains("raw bytes"), e.getMessage());
    }

    @Test
    void aFlippedHeaderByteIsReportedWithFileAndChecksumOffset() throws IOException {
        Path file = createMarketDataQueue();
        flipByte(file, SegmentFormat.CREATED_OFFSET + 3);
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class, () -> BlitQueue.open(dir, MarketData.class));
        assertEquals(file, e.file());
        // format 4: one type-table entry, its id and descriptor length (8 bytes), then the descriptor
        int headerLength = SegmentFormat.TABLE_OFFSET + 8 + new MarketData().layout().descriptor().encodedSize();
        assertEquals(headerLength, e.offset());
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("at byte " + headerLength)
                && e.getMessage().contains("checksum"), e.getMessage());
    }

    @Test
    void aFlippedMagicByteIsReportedAtOffsetZero() throws IOException {
        Path file = createMarketDataQueue();
        flipByte(file, 2);
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class, () -> BlitQueue.open(dir, MarketData.class));
        assertEquals(0, e.offset());
        assertTrue(e.getMessage().contains("magic"), e.getMessage());
    }

    @Test
    void anUnknownFormatVersionIsReported() throws IOException {
        Path file = createMarketDataQueue();
        flipByte(file, SegmentFormat.VERSION_OFFSET);
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class, () -> BlitQueue.openRaw(dir));
        assertEquals(SegmentFormat.VERSION_OFFSET, e.offset());
        assertTrue(e.getMessage().contains("format version"), e.getMessage());
    }

    @Test
    void aTruncatedFileIsReportedWithItsSize() throws IOException {
        Path file = createMarketDataQueue();
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(40_000);
        }
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class, () -> BlitQueue.open(dir, MarketData.class));
        assertEquals(file, e.file());
        assertEquals(40_000, e.offset());
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    @Test
    void aFileTruncatedInsideItsHeaderIsReported() throws IOException {
        Path file = createMarketDataQueue();
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(100);
        }
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class, () -> BlitQueue.open(dir, MarketData.class));
        assertEquals(100, e.offset());
    }

    @Test
    void aForeignFileUnderASegmentNameIsRefused() throws IOException {
        createMarketDataQueue();
        Path foreign = SegmentFiles.path(dir, 5000);
        Files.write(foreign, new byte[64 << 10]);
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class, () -> BlitQueue.open(dir, MarketData.class));
        assertEquals(foreign, e.file());
        assertEquals(0, e.offset());
    }

    @Test
    void aSegmentFileRenamedToAnotherIndexIsRefused() throws IOException {
        Path file = createMarketDataQueue();
        Path renamed = SegmentFiles.path(dir, 10);
        Files.copy(file, renamed);
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class, () -> BlitQueue.open(dir, MarketData.class));
        assertEquals(renamed, e.file());
        assertEquals(SegmentFormat.FIRST_INDEX_OFFSET, e.offset());
    }

    @Test
    void filesWithOtherNamesAreIgnored() throws IOException {
        createMarketDataQueue();
        Files.writeString(dir.resolve("notes.txt"), "not a segment");
        Files.write(dir.resolve("segment-00000000000000000077.blitq.tmp-1-1"), new byte[10]);
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            MarketData in = new MarketData();
            assertTrue(queue.tailer().readNext(in));
            assertTrue(in.isConsistentFor(1));
        }
    }

    @Test
    void temporariesOfDeadCreatorsAreDeletedOnOpenAndThoseOfLiveOnesKept() throws Exception {
        createMarketDataQueue();
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path stale = dir.resolve("segment-00000000000000000400.blitq.tmp-" + gone.pid() + "-1");
        Path live = dir.resolve("segment-00000000000000000400.blitq.tmp-" + ProcessHandle.current().pid() + "-99");
        Files.write(stale, new byte[10]);
        Files.write(live, new byte[10]);
        BlitQueue.open(dir, MarketData.class).close();
        assertTrue(Files.notExists(stale), "dead creator's temporary deleted");
        assertTrue(Files.exists(live), "live creator's temporary kept");
    }

    @Test
    void aRecordHeaderPointingPastTheFileEndIsReportedAtItsOffset() throws IOException {
        Path file = createMarketDataQueue();
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(SegmentFormat.RECORDS_START);
            raf.write(new byte[] {(byte) 0xff, (byte) 0xff, 0x0f, 0, 0, 0, 0, (byte) 0x80}); // COMMITTED, huge length
        }
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            QueueCorruptedException e = assertThrows(QueueCorruptedException.class,
                    () -> queue.tailer().readNext(new MarketData()));
            assertEquals(SegmentFormat.RECORDS_START, e.offset());
            assertEquals(file, e.file());
        }
    }

    @Test
    void segmentSizesThatAreNotPageMultiplesOrTooSmallAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> QueueOptions.defaults().segmentSize(8192));
        assertThrows(IllegalArgumentException.class, () -> QueueOptions.defaults().segmentSize(65_537));
    }

    @Test
    void segmentSizesAbove4GiBAreRefusedNamingTheRange() {
        assertEquals(1L << 32, QueueOptions.defaults().segmentSize(1L << 32).segmentSize());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> QueueOptions.defaults().segmentSize((1L << 32) + 4096));
        assertTrue(e.getMessage().contains("12288") && e.getMessage().contains("4294967296"), e.getMessage());
    }

    @Test
    void aRawPayloadOf2GiBOrMoreIsRefusedBeforeItIsClaimed(@TempDir Path scratch) throws IOException {
        long huge = 1L << 31; // a length readers refuse (the word's length field read as an int is negative)
        Path sparse = scratch.resolve("payload");
        try (RandomAccessFile raf = new RandomAccessFile(sparse.toFile(), "rw")) {
            raf.setLength(huge);
        }
        QueueOptions fourGiB = QueueOptions.defaults().segmentSize(1L << 32).prepareNextFile(false);
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, fourGiB);
             Arena arena = Arena.ofConfined();
             FileChannel channel = FileChannel.open(sparse, StandardOpenOption.READ)) {
            MemorySegment payload = channel.map(FileChannel.MapMode.READ_ONLY, 0, huge, arena);
            Appender<Void> appender = queue.appender();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> appender.append(payload));
            assertTrue(e.getMessage().contains("does not fit"), e.getMessage());
            assertEquals(-1, queue.tailer().readNextBytes(MemorySegment.ofArray(new byte[8])), "nothing claimed");
            assertEquals(0, appender.append(MemorySegment.ofArray(new byte[8])));
        }
    }

    @Test
    void aRecordWordWithNoStateButOtherBitsIsCorruptAndLeftAsItIs() throws IOException {
        Path file = createMarketDataQueue();
        long dead = deadPid();
        long word = (dead & RecordHeader.WRITER_MASK) << RecordHeader.WRITER_SHIFT | 152; // state 00 is only ever the 0 word
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(SegmentFormat.RECORDS_START);
            raf.write(ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(word).array());
        }
        QueueOptions noGrace = QueueRoundTripTest.SMALL.abandonGrace(Duration.ZERO);
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, noGrace);
             Tailer<MarketData> tailer = queue.tailer()) {
            for (int attempt = 0; attempt < 3; attempt++) {
                QueueCorruptedException e = assertThrows(QueueCorruptedException.class,
                        () -> tailer.readNext(new MarketData()));
                assertEquals(SegmentFormat.RECORDS_START, e.offset());
            }
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            byte[] stored = new byte[8];
            raf.seek(SegmentFormat.RECORDS_START);
            raf.readFully(stored);
            assertEquals(word, ByteBuffer.wrap(stored).order(ByteOrder.nativeOrder()).getLong(), "a reader wrote nothing");
        }
    }

    @Test
    void aPaddingWordAsAFilesFirstRecordIsCorruptNotAnEndlessRoll() throws IOException {
        Path file = createMarketDataQueue();
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(SegmentFormat.RECORDS_START); // the file would continue in the file of its own first index
            raf.write(ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(RecordHeader.padding(1)).array());
        }
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
                List<Executable> reads = List.of(
                        () -> queue.tailer().readNext(new MarketData()),
                        () -> queue.tailerFrom(1),
                        queue::tailerFromEnd,
                        () -> {
                            try (RecordStream stream = RecordStream.open(dir, QueueOptions.defaults(), 0)) {
                                while (stream.poll() != RecordStream.NONE) {
                                    // FILE, then the padding word, then the roll
                                }
                            }
                        });
                for (Executable read : reads) {
                    QueueCorruptedException e = assertThrows(QueueCorruptedException.class, read);
                    assertEquals(SegmentFormat.RECORDS_START, e.offset(), e.getMessage());
                }
            }
        });
    }

    @Test
    void aFileThatEndsAtAnotherIndexThanItsSuccessorStartsAtIsCorruptNotDeleted() throws IOException {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, QueueRoundTripTest.SMALL)) {
            Appender<MarketData> appender = queue.appender();
            for (int n = 0; n < 1_000; n++) {
                appender.append(new MarketData().fillFor(n, n));
            }
        }
        long record = RecordHeader.messageRecordLength(new MarketData().byteSize());
        long tenth = SegmentFormat.RECORDS_START + 10 * record;
        try (RandomAccessFile raf = new RandomAccessFile(SegmentFiles.path(dir, 0).toFile(), "rw")) {
            raf.seek(tenth); // a padding word: the next file would start at index 10
            raf.write(ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(RecordHeader.padding(1)).array());
        }
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Tailer<MarketData> tailer = queue.tailer()) {
            MarketData in = new MarketData();
            for (int n = 0; n < 10; n++) {
                assertTrue(tailer.readNext(in));
            }
            QueueCorruptedException e = assertThrows(QueueCorruptedException.class, () -> tailer.readNext(in));
            assertEquals(SegmentFiles.path(dir, 0), e.file());
            assertEquals(tenth, e.offset());
        }
    }

    private static long deadPid() throws IOException {
        Process gone = new ProcessBuilder("true").start();
        try {
            gone.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return gone.pid();
    }

    private static void flipByte(Path file, long offset) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(offset);
            int b = raf.read();
            raf.seek(offset);
            raf.write(b ^ 0x5a);
        }
    }
}
