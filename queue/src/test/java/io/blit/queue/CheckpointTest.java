package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentFiles;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointTest {
    /** 4 MiB: about 27,000 MarketData records, so six checkpoints besides the implicit one. */
    private static final QueueOptions FOUR_MIB = QueueOptions.defaults().segmentSize(4 << 20);
    private static final int COUNT = 30_000;

    @TempDir
    Path dir;

    private final long record = RecordHeader.messageRecordLength(new MarketData().byteSize());

    private BlitQueue<MarketData> filledQueue() {
        BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, FOUR_MIB);
        Appender<MarketData> appender = queue.appender();
        MarketData md = new MarketData();
        for (long n = 0; n < COUNT; n++) {
            appender.append(md.fillFor(n, n));
        }
        appender.close();
        return queue;
    }

    @Test
    void appendersRecordWhereEvery4096thRecordStarts() throws IOException {
        filledQueue().close();
        long perFile = (FOUR_MIB.segmentSize() - SegmentFormat.RECORDS_START) / record;
        for (int k = 1; k <= perFile / SegmentFormat.CHECKPOINT_INTERVAL; k++) {
            assertEquals(SegmentFormat.RECORDS_START + k * SegmentFormat.CHECKPOINT_INTERVAL * record, slot(k), "slot " + k);
        }
        assertEquals(0, slot((int) (perFile / SegmentFormat.CHECKPOINT_INTERVAL) + 1), "no record, no checkpoint");
    }

    @Test
    void tailersFromAnyIndexStartThereAcrossCheckpoints() {
        try (BlitQueue<MarketData> queue = filledQueue()) {
            MarketData md = new MarketData();
            for (long start : new long[] {0, 4095, 4096, 4097, 8191, 8192, 20_000, 24_575, 24_576, 29_999}) {
                try (Tailer<MarketData> tailer = queue.tailerFrom(start)) {
                    assertEquals(start, tailer.index());
                    assertTrue(tailer.readNext(md), "from " + start);
                    assertTrue(md.isConsistentFor(start), "from " + start + " read " + md.securityId);
                }
            }
            try (Tailer<MarketData> end = queue.tailerFromEnd()) {
                assertEquals(COUNT, end.index());
                assertFalse(end.readNext(md));
            }
        }
    }

    @Test
    void aMissingCheckpointFallsBackToAnEarlierOne() throws IOException {
        filledQueue().close();
        writeSlot(2, 0); // as if the claimer of ordinal 8192 died before writing it
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Tailer<MarketData> tailer = queue.tailerFrom(9000)) {
            MarketData md = new MarketData();
            assertTrue(tailer.readNext(md));
            assertTrue(md.isConsistentFor(9000));
        }
    }

    @Test
    void aCorruptCheckpointIsReportedAtItsSlot() throws IOException {
        filledQueue().close();
        writeSlot(1, 12345);
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            QueueCorruptedException e = assertThrows(QueueCorruptedException.class, () -> queue.tailerFrom(5000));
            assertEquals(SegmentFormat.CHECKPOINT_AREA_OFFSET + 4, e.offset());
        }
    }

    private long slot(int k) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(SegmentFiles.path(dir, 0).toFile(), "r")) {
            byte[] bytes = new byte[4];
            raf.seek(SegmentFormat.CHECKPOINT_AREA_OFFSET + 4L * k);
            raf.readFully(bytes);
            return Integer.toUnsignedLong(ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).getInt());
        }
    }

    private void writeSlot(int k, int value) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(SegmentFiles.path(dir, 0).toFile(), "rw")) {
            raf.seek(SegmentFormat.CHECKPOINT_AREA_OFFSET + 4L * k);
            raf.write(ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(value).array());
        }
    }
}
