package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.replica.RecordStream;
import io.blit.queue.replica.ReplicaDivergedException;
import io.blit.queue.replica.ReplicaInputException;
import io.blit.queue.replica.ReplicaWriter;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ReplicaWriter#writePart}: a record in parts lands whole or not at all, and only in order. */
class ReplicaPartsTest {
    private static final QueueOptions SEGMENT = QueueOptions.defaults().segmentSize(1 << 20);
    private static final int PART = 4096;

    @TempDir
    Path source;
    @TempDir
    Path replica;

    /** Appends a small record, a 300,005-byte one and another small one to a raw source. */
    private void appendRecords() {
        SplittableRandom random = new SplittableRandom(6);
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, SEGMENT)) {
            for (int length : new int[] {40, 300_005, 17}) {
                byte[] payload = new byte[length];
                random.nextBytes(payload);
                queue.appender().append(MemorySegment.ofArray(payload));
            }
        }
    }

    /** The stream's current RUN (one record) as bytes. */
    private static MemorySegment runBytes(RecordStream stream) {
        MemorySegment bytes = MemorySegment.ofArray(new byte[(int) stream.runLength()]);
        stream.copyRun(bytes, 0);
        return bytes;
    }

    @Test
    void aRecordInPartsIsStoredWhenItsLastPartArrivesAndTheFilesAreIdentical() throws IOException {
        appendRecords();
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, SEGMENT);
             RecordStream stream = RecordStream.open(source, SEGMENT, 0);
             ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
            for (int event = stream.pollRun(64); event != RecordStream.NONE; event = stream.pollRun(64)) {
                if (event == RecordStream.FILE) {
                    writer.startFile(stream.fileHeader());
                    continue;
                }
                MemorySegment record = runBytes(stream);
                long length = record.byteSize();
                for (long at = 0; at < length; at += PART) {
                    long part = Math.min(PART, length - at);
                    boolean done = writer.writePart(stream.index(), stream.runPosition(), length, at, record, at, part);
                    assertEquals(at + part == length, done, "record " + stream.index() + " part at " + at);
                    assertEquals(done ? stream.index() + 1 : stream.index(), writer.nextIndex());
                    try (BlitQueue<Void> copy = BlitQueue.openRaw(replica); Tailer<Void> tailer = copy.tailer()) {
                        long readable = 0;
                        while (tailer.readNextBytes(MemorySegment.ofArray(new byte[400_000])) >= 0) {
                            readable++;
                        }
                        assertEquals(writer.nextIndex(), readable, "a tailer sees a record only once it is whole");
                    }
                }
            }
            assertEquals(3, writer.nextIndex());
        }
        long first = SegmentFiles.list(source)[0];
        assertEquals(-1, Files.mismatch(SegmentFiles.path(source, first), SegmentFiles.path(replica, first)));
    }

    @Test
    void partsOutOfOrderOrOfAnotherShapeAreRefusedAndNothingIsStored() {
        appendRecords();
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, SEGMENT);
             RecordStream stream = RecordStream.open(source, SEGMENT, 0);
             ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
            assertEquals(RecordStream.FILE, stream.pollRun(1 << 20));
            writer.startFile(stream.fileHeader());
            assertEquals(RecordStream.RUN, stream.pollRun(64)); // the small record alone
            MemorySegment small = runBytes(stream);
            writer.writeRun(stream.index(), stream.runPosition(), small, 0, small.byteSize(), 1);
            assertEquals(RecordStream.RUN, stream.pollRun(64));
            MemorySegment record = runBytes(stream);
            long index = stream.index();
            long position = stream.runPosition();
            long length = record.byteSize();
            assertThrows(ReplicaInputException.class, () -> writer.writePart(index, position, length, PART, record,
                    PART, PART), "a part with no first part before it");
            assertThrows(ReplicaInputException.class, () -> writer.writePart(index, position, length + 8, 0, record,
                    0, PART), "a first part whose word is of another length");
            assertThrows(ReplicaInputException.class, () -> writer.writePart(index, position, length, 4, record, 0,
                    PART), "an offset that is not a multiple of 8");
            assertThrows(ReplicaInputException.class, () -> writer.writePart(index, position, length, length - 8,
                    record, 0, PART), "a part past the record's end");
            assertThrows(ReplicaDivergedException.class, () -> writer.writePart(index + 1, position, length, 0, record,
                    0, PART), "a part of another index");
            assertFalse(writer.writePart(index, position, length, 0, record, 0, PART));
            assertThrows(ReplicaInputException.class, () -> writer.writePart(index, position, length, 2 * PART,
                    record, 2 * PART, PART), "a part that skips one");
            assertThrows(ReplicaInputException.class, () -> writer.writePart(index, position, length, PART, record,
                    PART, PART), "after a refusal the partial record is abandoned");
            assertEquals(index, writer.nextIndex(), "nothing stored");
            for (long at = 0; at < length; at += PART) { // from the start again: taken
                writer.writePart(index, position, length, at, record, at, Math.min(PART, length - at));
            }
            assertEquals(index + 1, writer.nextIndex());
        }
    }

    @Test
    void aWriterStoppedBetweenPartsResumesAtTheRecordAndEndsIdentical() throws IOException {
        appendRecords();
        long index;
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, SEGMENT);
             RecordStream stream = RecordStream.open(source, SEGMENT, 0);
             ReplicaWriter writer = ReplicaWriter.open(replica, "test")) {
            stream.pollRun(1 << 20);
            writer.startFile(stream.fileHeader());
            stream.pollRun(64);
            MemorySegment small = runBytes(stream);
            writer.writeRun(stream.index(), stream.runPosition(), small, 0, small.byteSize(), 1);
            stream.pollRun(64);
            MemorySegment record = runBytes(stream);
            index = stream.index();
            for (long at = 0; at < record.byteSize() / 2; at += PART) {
                writer.writePart(index, stream.runPosition(), record.byteSize(), at, record, at, PART);
            }
        }
        try (BlitQueue<Void> queue = BlitQueue.openRaw(source, SEGMENT);
             ReplicaWriter writer = ReplicaWriter.open(replica, "test");
             RecordStream stream = RecordStream.open(source, SEGMENT, writer.nextIndex())) {
            assertEquals(index, writer.nextIndex(), "the half-written record is not held");
            for (int event = stream.pollRun(64); event != RecordStream.NONE; event = stream.pollRun(64)) {
                if (event == RecordStream.FILE) {
                    writer.startFile(stream.fileHeader());
                    continue;
                }
                MemorySegment record = runBytes(stream);
                for (long at = 0; at < record.byteSize(); at += PART) {
                    writer.writePart(stream.index(), stream.runPosition(), record.byteSize(), at, record, at,
                            Math.min(PART, record.byteSize() - at));
                }
            }
            assertTrue(writer.nextIndex() == 3);
        }
        long first = SegmentFiles.list(source)[0];
        assertEquals(-1, Files.mismatch(SegmentFiles.path(source, first), SegmentFiles.path(replica, first)));
    }
}
