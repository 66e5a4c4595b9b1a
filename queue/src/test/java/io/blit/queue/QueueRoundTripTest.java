package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.segment.SegmentFiles;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueueRoundTripTest {
    static final QueueOptions SMALL = QueueOptions.defaults().segmentSize(64 << 10);

    @TempDir
    Path dir;

    @Test
    void appendedMarketDataReadsBackWithEveryFieldIntact() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            Appender<MarketData> appender = queue.appender();
            MarketData out = new MarketData();
            for (long n = 0; n < 1000; n++) {
                assertEquals(n, appender.append(out.fillFor(n, 7 * n)));
            }
            Tailer<MarketData> tailer = queue.tailer();
            MarketData in = new MarketData();
            for (long n = 0; n < 1000; n++) {
                assertEquals(n, tailer.index());
                assertTrue(tailer.readNext(in), "message " + n);
                assertTrue(in.isConsistentFor(n), "message " + n);
                assertEquals(7 * n, in.time);
            }
            assertFalse(tailer.readNext(in));
            assertEquals(1000, tailer.index());
        }
    }

    @Test
    void rawPayloadsOfVariedSizesRoundTripWithTheirLengths() {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, SMALL); Arena arena = Arena.ofConfined()) {
            Appender<Void> appender = queue.appender();
            int[] sizes = {0, 1, 7, 8, 9, 15, 16, 100, 1000, 4095, 20_000, 3};
            for (int i = 0; i < sizes.length; i++) {
                assertEquals(i, appender.append(MemorySegment.ofArray(payload(i, sizes[i]))));
            }
            Tailer<Void> tailer = queue.tailer();
            MemorySegment into = arena.allocate(32_000);
            for (int i = 0; i < sizes.length; i++) {
                long length = tailer.readNextBytes(into);
                assertEquals(sizes[i], length, "message " + i);
                assertArrayEquals(payload(i, sizes[i]), into.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE));
            }
            assertEquals(-1, tailer.readNextBytes(into));
        }
    }

    @Test
    void rawPayloadLargerThanASegmentFileIsRefused() {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, SMALL)) {
            assertThrows(IllegalArgumentException.class,
                    () -> queue.appender().append(MemorySegment.ofArray(new byte[64 << 10])));
        }
    }

    @Test
    void rollsAcrossSeveralFilesKeepingIndicesContiguous() {
        int count = 2000; // 152 bytes per record, ~370 per 64 KiB file
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL)) {
            Appender<MarketData> appender = queue.appender();
            MarketData out = new MarketData();
            for (long n = 0; n < count; n++) {
                assertEquals(n, appender.append(out.fillFor(n, n)));
            }
            long[] files = SegmentFiles.list(dir);
            assertTrue(files.length >= 5, "files: " + files.length);
            assertEquals(0, files[0]);
            Tailer<MarketData> tailer = queue.tailer();
            MarketData in = new MarketData();
            for (long n = 0; n < count; n++) {
                assertTrue(tailer.readNext(in), "message " + n);
                assertTrue(in.isConsistentFor(n), "message " + n);
            }
            assertFalse(tailer.readNext(in));
        }
    }

    @Test
    void reopeningTheDirectoryContinuesTheSequence() {
        MarketData md = new MarketData();
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL)) {
            Appender<MarketData> appender = queue.appender();
            for (long n = 0; n < 500; n++) {
                appender.append(md.fillFor(n, n));
            }
        }
        // other options on reopen: the existing files' segment size wins
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            Appender<MarketData> appender = queue.appender();
            for (long n = 500; n < 1000; n++) {
                assertEquals(n, appender.append(md.fillFor(n, n)));
            }
            Tailer<MarketData> tailer = queue.tailer();
            for (long n = 0; n < 1000; n++) {
                assertTrue(tailer.readNext(md));
                assertTrue(md.isConsistentFor(n), "message " + n);
            }
        }
    }

    @Test
    void tailerFromEndReadsOnlyMessagesAppendedAfterIt() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL)) {
            Appender<MarketData> appender = queue.appender();
            MarketData md = new MarketData();
            for (long n = 0; n < 900; n++) {
                appender.append(md.fillFor(n, n));
            }
            Tailer<MarketData> tailer = queue.tailerFromEnd();
            assertEquals(900, tailer.index());
            assertFalse(tailer.readNext(md));
            appender.append(md.fillFor(900, 0));
            assertTrue(tailer.readNext(md));
            assertTrue(md.isConsistentFor(900));
        }
    }

    @Test
    void tailerFromIndexStartsAtThatMessageInAnyFile() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL)) {
            Appender<MarketData> appender = queue.appender();
            MarketData md = new MarketData();
            for (long n = 0; n < 1500; n++) {
                appender.append(md.fillFor(n, n));
            }
            long[] files = SegmentFiles.list(dir);
            for (long start : new long[] {0, 1, files[1] - 1, files[1], files[1] + 1, files[2] + 17, 1499, 1500}) {
                Tailer<MarketData> tailer = queue.tailerFrom(start);
                assertEquals(start, tailer.index());
                if (start < 1500) {
                    assertTrue(tailer.readNext(md), "from " + start);
                    assertTrue(md.isConsistentFor(start), "from " + start);
                } else {
                    assertFalse(tailer.readNext(md));
                }
                tailer.close();
            }
            assertThrows(IllegalArgumentException.class, () -> queue.tailerFrom(1501));
            assertThrows(IllegalArgumentException.class, () -> queue.tailerFrom(-1));
        }
    }

    @Test
    void rawAppendOnATypedQueueMustHaveTheBlockLength() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            Appender<MarketData> appender = queue.appender();
            long block = new MarketData().byteSize();
            assertThrows(IllegalArgumentException.class, () -> appender.append(MemorySegment.ofArray(new byte[10])));
            MemorySegment image = MemorySegment.ofArray(new byte[(int) block]);
            new MarketData().fillFor(42, 0).writeTo(image, 0);
            assertEquals(0, appender.append(image));
            MarketData in = new MarketData();
            assertTrue(queue.tailer().readNext(in));
            assertTrue(in.isConsistentFor(42));
        }
    }

    @Test
    void closedAppenderRefusesToAppend() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            Appender<MarketData> appender = queue.appender();
            appender.append(new MarketData());
            appender.sync();
            appender.close();
            assertThrows(IllegalStateException.class, () -> appender.append(new MarketData()));
        }
    }

    @Test
    void closingTheQueueClosesCursorsOfItsThreadAndReportsThoseOfOthers() throws Exception {
        BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL);
        Appender<MarketData> mine = queue.appender();
        mine.append(new MarketData());
        Tailer<MarketData> other = queue.tailer();
        Thread reader = new Thread(() -> other.readNext(new MarketData()));
        reader.start();
        reader.join();
        IllegalStateException e = assertThrows(IllegalStateException.class, queue::close);
        assertTrue(e.getMessage().startsWith("1 appenders or tailers could not be closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> mine.append(new MarketData()), "closed by the queue");
        assertThrows(IllegalStateException.class, queue::appender, "no new cursors on a closed queue");
        Thread closer = new Thread(other::close);
        closer.start();
        closer.join();
    }

    static byte[] payload(int seed, int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (seed * 31 + i);
        }
        return bytes;
    }

    @Test
    void typedQueueRollsThroughPreparedFilesWithOnlyFinishedFilesVisibleAndNoTemporaryLeft() throws Exception {
        int perFile = RetentionTest.PER_FILE;
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL)) {
            Appender<MarketData> appender = queue.appender();
            MarketData out = new MarketData();
            appender.append(out.fillFor(0, 0));
            assertEquals(1, SegmentFiles.list(dir).length, "the prepared next file is not visible before the roll");
            Tailer<MarketData> fromEnd = queue.tailerFromEnd();
            for (long n = 1; n < 3L * perFile + 5; n++) {
                assertEquals(n, appender.append(out.fillFor(n, n)));
            }
            assertArrayEquals(new long[] {0, perFile, 2L * perFile, 3L * perFile}, SegmentFiles.list(dir));
            MarketData in = new MarketData();
            assertTrue(fromEnd.readNext(in));
            assertTrue(in.isConsistentFor(1), "a tailer from the end reads the next message of the current file");
            Tailer<MarketData> tailer = queue.tailer();
            for (long n = 0; n < 3L * perFile + 5; n++) {
                assertTrue(tailer.readNext(in), "message " + n);
                assertTrue(in.isConsistentFor(n), "message " + n);
            }
            assertFalse(tailer.readNext(in));
        }
        try (var files = java.nio.file.Files.list(dir)) {
            assertEquals(List.of(), files.map(p -> p.getFileName().toString()).filter(name -> name.contains(".tmp-")).toList(),
                    "closing the queue deletes the unpublished preparation");
        }
    }

    @Test
    void withPreparationOffNothingIsPreparedAndTheRollCreatesTheNextFile() throws Exception {
        int perFile = RetentionTest.PER_FILE;
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL.prepareNextFile(false))) {
            Appender<MarketData> appender = queue.appender();
            MarketData out = new MarketData();
            appender.append(out.fillFor(0, 0));
            // A preparation, had one been requested, would be a live thread of this name or (finished) a temporary.
            assertTrue(Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(t -> t.getName().equals("blit-queue-prepare-" + perFile)), "no preparation thread");
            assertEquals(List.of(), temporaries(), "no prepared temporary");
            for (long n = 1; n < perFile + 5; n++) {
                assertEquals(n, appender.append(out.fillFor(n, n)));
            }
            assertArrayEquals(new long[] {0, perFile}, SegmentFiles.list(dir));
            Tailer<MarketData> tailer = queue.tailer();
            MarketData in = new MarketData();
            for (long n = 0; n < perFile + 5; n++) {
                assertTrue(tailer.readNext(in), "message " + n);
                assertTrue(in.isConsistentFor(n), "message " + n);
            }
            assertFalse(tailer.readNext(in));
        }
    }

    private List<String> temporaries() throws java.io.IOException {
        try (var files = java.nio.file.Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(name -> name.contains(".tmp-")).toList();
        }
    }
}
