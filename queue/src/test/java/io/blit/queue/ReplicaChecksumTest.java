package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.replica.QueueVerifier;
import io.blit.queue.replica.RecordStream;
import io.blit.queue.replica.ReplicaInputException;
import io.blit.queue.replica.ReplicaWriter;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica ({@link ReplicaWriter}) of a queue with record checksums verifies every COMMITTED record it is given before
 * it writes it: a damaged one, as a record, in a run or in parts, is a {@link ReplicaInputException} and nothing of it
 * becomes a record of the replica.
 */
class ReplicaChecksumTest {
    private static final QueueOptions CHECKSUMS = QueueOptions.defaults().segmentSize(64 << 10).recordChecksums(true);
    /** Word, time, CRC, reserved word and a 144-byte MarketData block. */
    private static final int RECORD = 168;

    @TempDir
    Path source;
    @TempDir
    Path replica;

    private void appendMarketData(int count) {
        try (BlitQueue<MarketData> queue = BlitQueue.open(source, MarketData.class, CHECKSUMS);
             Appender<MarketData> appender = queue.appender()) {
            MarketData out = new MarketData();
            for (long n = 0; n < count; n++) {
                appender.append(out.fillFor(n, n));
            }
        }
    }

    /** A copy of {@code bytes} with bit {@code bit} of byte {@code at} flipped. */
    private static MemorySegment damaged(MemorySegment bytes, long at, int bit) {
        MemorySegment copy = MemorySegment.ofArray(new byte[(int) bytes.byteSize()]).copyFrom(bytes);
        copy.set(ValueLayout.JAVA_BYTE, at, (byte) (copy.get(ValueLayout.JAVA_BYTE, at) ^ (1 << bit)));
        return copy;
    }

    @Test
    void aDamagedRecordIsRefusedBeforeAnythingIsWrittenAndTheIntactOneThenLands() throws IOException {
        appendMarketData(20);
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, CHECKSUMS);
             RecordStream stream = RecordStream.open(source, CHECKSUMS, 0);
             ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
            for (int event = stream.poll(); event != RecordStream.NONE; event = stream.poll()) {
                if (event == RecordStream.FILE) {
                    writer.startFile(stream.fileHeader());
                    continue;
                }
                if (stream.index() == 5) {
                    MemorySegment body = stream.payload(); // time, CRC, reserved word, payload
                    for (long at : new long[] {0, 8, 12, 16, 16 + 143}) {
                        MemorySegment bad = damaged(body, at, 3);
                        ReplicaInputException e = assertThrows(ReplicaInputException.class,
                                () -> writer.write(stream.word(), bad));
                        assertTrue(e.getMessage().contains("checksum") && e.getMessage().contains("index 5"),
                                e.getMessage());
                        assertEquals(5, writer.nextIndex(), "nothing written");
                    }
                    long claimerFlipped = stream.word() ^ (1L << 40);
                    assertThrows(ReplicaInputException.class, () -> writer.write(claimerFlipped, body));
                    assertEquals(5, writer.nextIndex(), "nothing written");
                }
                writer.write(stream.word(), stream.payload());
            }
            assertEquals(20, writer.nextIndex());
        }
        long first = SegmentFiles.list(source)[0];
        assertEquals(-1, Files.mismatch(SegmentFiles.path(source, first), SegmentFiles.path(replica, first)));
        assertEquals(List.of(), QueueVerifier.verify(replica));
    }

    @Test
    void aRunWithOneDamagedRecordIsRefusedWhole() {
        appendMarketData(20);
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, CHECKSUMS);
             RecordStream stream = RecordStream.open(source, CHECKSUMS, 0);
             ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
            assertEquals(RecordStream.FILE, stream.pollRun(4 * RECORD));
            writer.startFile(stream.fileHeader());
            assertEquals(RecordStream.RUN, stream.pollRun(4 * RECORD));
            assertEquals(4, stream.runCount());
            MemorySegment run = MemorySegment.ofArray(new byte[(int) stream.runLength()]);
            stream.copyRun(run, 0);
            long at = stream.runPosition();
            long length = stream.runLength();
            MemorySegment bad = damaged(run, 2L * RECORD + 24 + 77, 6); // the third record's payload
            ReplicaInputException e = assertThrows(ReplicaInputException.class,
                    () -> writer.writeRun(0, at, bad, 0, length, 4));
            assertTrue(e.getMessage().contains("checksum") && e.getMessage().contains("index 2"), e.getMessage());
            assertEquals(0, writer.nextIndex(), "nothing written");
            assertEquals(4, writer.writeRun(0, at, run, 0, length, 4));
        }
    }

    @Test
    void aRecordInPartsWhoseBytesAreDamagedIsNotStored() {
        appendMarketData(3);
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, CHECKSUMS);
             RecordStream stream = RecordStream.open(source, CHECKSUMS, 0);
             ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
            assertEquals(RecordStream.FILE, stream.pollRun(RECORD));
            writer.startFile(stream.fileHeader());
            assertEquals(RecordStream.RUN, stream.pollRun(RECORD));
            MemorySegment record = MemorySegment.ofArray(new byte[(int) stream.runLength()]);
            stream.copyRun(record, 0);
            MemorySegment bad = damaged(record, RECORD - 1, 0); // in the second part
            long position = stream.runPosition();
            writer.writePart(0, position, RECORD, 0, bad, 0, 96);
            ReplicaInputException e = assertThrows(ReplicaInputException.class,
                    () -> writer.writePart(0, position, RECORD, 96, bad, 96, RECORD - 96));
            assertTrue(e.getMessage().contains("checksum"), e.getMessage());
            assertEquals(0, writer.nextIndex(), "the record's word is not stored");
            writer.writePart(0, position, RECORD, 0, record, 0, 96); // refused if the word were stored (not empty)
            assertTrue(writer.writePart(0, position, RECORD, 96, record, 96, RECORD - 96));
            assertEquals(1, writer.nextIndex());
        }
    }
}
