package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.replica.QueueVerifier;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Record checksums ({@link QueueOptions#recordChecksums()}, segment format 5): what appenders write, byte for byte as
 * docs/format.md specifies it, and that readers refuse a record whose bytes changed.
 */
class RecordChecksumTest {
    private static final QueueOptions CHECKSUMS = QueueOptions.defaults().segmentSize(64 << 10).recordChecksums(true);
    /** Word, time, CRC, reserved word and a 144-byte MarketData block. */
    private static final int RECORD = 168;

    @TempDir
    Path dir;

    private void append(QueueOptions options, long from, int count) {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, options);
             Appender<MarketData> appender = queue.appender()) {
            MarketData out = new MarketData();
            for (long n = from; n < from + count; n++) {
                appender.append(out.fillFor(n, n));
            }
        }
    }

    @Test
    void appendersWriteFormatFiveRecordsWhoseCrcCoversTheCommittedWordTimeReservedWordAndPayload() throws IOException {
        append(CHECKSUMS, 0, 10);
        Path file = SegmentFiles.path(dir, 0);
        ByteBuffer header = read(file, 0, 16);
        assertEquals(SegmentFormat.CHECKSUM_FORMAT, header.order(ByteOrder.LITTLE_ENDIAN).getInt(8), "format version");
        for (int n = 0; n < 10; n++) {
            long position = SegmentFormat.RECORDS_START + (long) n * RECORD;
            ByteBuffer record = read(file, position, RECORD);
            long word = record.getLong(0);
            assertEquals(RecordHeader.STATE_COMMITTED, RecordHeader.state(word));
            assertEquals(RECORD - 8, RecordHeader.length(word), "the length counts time, CRC, reserved and payload");
            assertEquals(0, record.getInt(20), "reserved");
            CRC32C crc = new CRC32C(); // the specification's input, computed here from the file's bytes alone
            crc.update(record.array(), 0, 16);
            crc.update(record.array(), 20, RECORD - 20);
            assertEquals((int) crc.getValue(), record.order(ByteOrder.LITTLE_ENDIAN).getInt(16), "record " + n);
        }
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, CHECKSUMS);
             Tailer<MarketData> tailer = queue.tailer()) {
            MarketData in = new MarketData();
            for (long n = 0; n < 10; n++) {
                assertTrue(tailer.readNext(in));
                assertTrue(in.isConsistentFor(n), "message " + n);
            }
            assertFalse(tailer.readNext(in));
        }
        assertEquals(List.of(), QueueVerifier.verify(dir));
    }

    @Test
    void readersThrowOnADamagedPayloadOrTimeNamingFileOffsetIndexAndChecksum() throws IOException {
        append(CHECKSUMS, 0, 20);
        Path file = SegmentFiles.path(dir, 0);
        for (int offsetInRecord : new int[] {8 + 3, 24 + 100, 16, 20, 4 + 2}) { // time, payload, CRC, reserved, claimer
            long position = SegmentFormat.RECORDS_START + 7L * RECORD;
            flip(file, position + offsetInRecord, 5);
            try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, CHECKSUMS.readOnly(true));
                 Tailer<MarketData> tailer = queue.tailer();
                 Tailer<MarketData> bytes = queue.tailer()) {
                MarketData in = new MarketData();
                for (long n = 0; n < 7; n++) {
                    assertTrue(tailer.readNext(in));
                    assertTrue(bytes.readNextBytes(MemorySegment.ofArray(new byte[144])) == 144);
                }
                QueueCorruptedException e = assertThrows(QueueCorruptedException.class, () -> tailer.readNext(in));
                assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("at byte " + position)
                        && e.getMessage().contains("index 7") && e.getMessage().contains("checksum"),
                        "byte " + offsetInRecord + ": " + e.getMessage());
                assertEquals(7, tailer.index(), "the damaged record is not consumed");
                assertThrows(QueueCorruptedException.class, () -> bytes.readNextBytes(MemorySegment.ofArray(new byte[144])));
                assertThrows(QueueCorruptedException.class, () -> tailer.read((index, m) -> { }));
            } finally {
                flip(file, position + offsetInRecord, 5);
            }
        }
    }

    @Test
    void aTailerWhoseOptionsTurnedVerificationOffReturnsTheDamagedRecordAsItFindsIt() throws IOException {
        append(CHECKSUMS, 0, 10);
        Path file = SegmentFiles.path(dir, 0);
        long securityId = SegmentFormat.RECORDS_START + 4L * RECORD + 24; // message 4's first field
        flip(file, securityId, 6);
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class,
                CHECKSUMS.readOnly(true).verifyRecordChecksums(false));
             Tailer<MarketData> tailer = queue.tailer()) {
            MarketData in = new MarketData();
            for (long n = 0; n < 10; n++) {
                assertTrue(tailer.readNext(in));
                assertEquals(n == 4 ? 4 ^ (1 << 6) : n, in.securityId, "message " + n);
            }
        } finally {
            flip(file, securityId, 6);
        }
    }

    @Test
    void aQueueMovesBetweenFormatsFourAndFiveAtAnAppendersOpenAndReadsWhole() {
        append(QueueOptions.defaults().segmentSize(64 << 10), 0, 10);
        append(CHECKSUMS, 10, 10);
        append(QueueOptions.defaults().segmentSize(64 << 10), 20, 10);
        long[] firsts = SegmentFiles.list(dir);
        assertEquals(3, firsts.length, "each appender continued in a file of its own format");
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Tailer<MarketData> tailer = queue.tailer()) {
            MarketData in = new MarketData();
            long read = 0;
            while (tailer.readNext(in)) {
                assertTrue(in.isConsistentFor(read), "message " + read);
                read++;
            }
            assertEquals(30, read);
        }
        assertEquals(List.of(), QueueVerifier.verify(dir));
    }

    @Test
    void rawPayloadsOfEveryLengthRoundTripWithChecksums() {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, CHECKSUMS); Appender<Void> appender = queue.appender()) {
            for (int length = 0; length < 300; length++) {
                byte[] payload = new byte[length];
                java.util.Arrays.fill(payload, (byte) length);
                appender.append(MemorySegment.ofArray(payload));
            }
            byte[] max = new byte[(int) (queue.files().maxPayload())];
            appender.append(MemorySegment.ofArray(max)); // fills a file exactly
            try (Tailer<Void> tailer = queue.tailer()) {
                MemorySegment into = MemorySegment.ofArray(new byte[max.length]);
                for (int length = 0; length < 300; length++) {
                    assertEquals(length, tailer.readNextBytes(into));
                    for (int i = 0; i < length; i++) {
                        assertEquals((byte) length, into.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i));
                    }
                }
                assertEquals(max.length, tailer.readNextBytes(into));
            }
        }
        assertEquals(List.of(), QueueVerifier.verify(dir));
    }

    private static ByteBuffer read(Path file, long at, int length) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.nativeOrder());
            channel.read(buffer, at);
            return buffer.clear();
        }
    }

    private static void flip(Path file, long at, int bit) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, at);
            one.put(0, (byte) (one.get(0) ^ (1 << bit)));
            channel.write(one.rewind(), at);
        }
    }
}
