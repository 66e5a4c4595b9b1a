package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deleting old segment files: what is deleted, what is kept, and what tailers see. */
class RetentionTest {
    static final QueueOptions SMALL = QueueRoundTripTest.SMALL;
    /** How many MarketData records a 64 KiB file holds: 358 (152-byte block, 8-byte time, 8-byte header word). */
    static final int PER_FILE = (int) ((SMALL.segmentSize() - io.blit.queue.internal.format.SegmentFormat.RECORDS_START)
            / io.blit.queue.internal.format.RecordHeader.messageRecordLength(new MarketData().byteSize()));
    static final int MESSAGES = 2_000;

    @TempDir
    Path dir;

    @Test
    void deleteFilesBeforeDeletesOnlyWholeFilesBelowTheIndexOldestFirst() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL)) {
            append(queue, MESSAGES);
            long[] firsts = SegmentFiles.list(dir);
            assertTrue(firsts.length >= 5, Arrays.toString(firsts));

            long index = firsts[3] + 10; // inside the fourth file: the first three are wholly below it
            List<Path> deleted = queue.deleteFilesBefore(index);

            assertEquals(LongStream.of(firsts).limit(3).mapToObj(f -> SegmentFiles.path(dir, f)).toList(), deleted);
            assertArrayEquals(Arrays.copyOfRange(firsts, 3, firsts.length), SegmentFiles.list(dir));
            deleted.forEach(file -> assertFalse(Files.exists(file), file + " is gone"));
            assertEquals(List.of(), queue.deleteFilesBefore(index), "nothing more to delete");
            assertEquals(List.of(), queue.deleteFilesBefore(firsts[3]), "the file holding the index is kept");
        }
    }

    @Test
    void theNewestFileIsNeverDeleted() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL)) {
            append(queue, MESSAGES);
            long[] firsts = SegmentFiles.list(dir);

            assertEquals(firsts.length - 1, queue.deleteFilesBefore(Long.MAX_VALUE).size());

            assertArrayEquals(new long[] {firsts[firsts.length - 1]}, SegmentFiles.list(dir));
            try (Tailer<MarketData> tailer = queue.tailerFrom(firsts[firsts.length - 1]);
                 Appender<MarketData> appender = queue.appender()) {
                assertEquals(MESSAGES, appender.append(new MarketData().fillFor(MESSAGES, 0)), "appending goes on");
                readInOrder(tailer, firsts[firsts.length - 1], MESSAGES + 1);
            }
        }
    }

    @Test
    void tailerFromADeletedIndexNamesTheMissingRange() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL)) {
            append(queue, MESSAGES);
            long[] firsts = SegmentFiles.list(dir);
            queue.deleteFilesBefore(firsts[2]);

            MessagesDeletedException e = assertThrows(MessagesDeletedException.class, () -> queue.tailerFrom(5));
            assertEquals(5, e.firstMissing());
            assertEquals(firsts[2], e.firstAvailable());
            assertTrue(e.getMessage().contains("[5, " + firsts[2] + ")") && e.getMessage().contains(dir.toString()),
                    e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> queue.tailerFrom(-1), "negative stays an argument error");
            try (Tailer<MarketData> tailer = queue.tailerFrom(e.firstAvailable())) {
                readInOrder(tailer, firsts[2], MESSAGES);
            }
        }
    }

    /**
     * A tailer inside a file that is deleted keeps its mapping and reads the file to its end; when its next file
     * was deleted too, it throws naming the missing range, and keeps throwing instead of skipping.
     */
    @Test
    void aLaggingTailerFinishesItsDeletedFileThenThrowsNamingTheGap() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL)) {
            append(queue, MESSAGES);
            long[] firsts = SegmentFiles.list(dir);
            try (Tailer<MarketData> tailer = queue.tailer()) {
                MarketData md = new MarketData();
                assertTrue(tailer.readNext(md)); // maps the first file

                queue.deleteFilesBefore(firsts[3]); // the tailer's file and the two after it

                readInOrder(tailer, 1, firsts[1]); // the rest of its (deleted) file
                for (int attempt = 0; attempt < 2; attempt++) {
                    MessagesDeletedException e = assertThrows(MessagesDeletedException.class, () -> tailer.readNext(md));
                    assertEquals(firsts[1], e.firstMissing());
                    assertEquals(firsts[3], e.firstAvailable());
                    assertEquals(firsts[1], tailer.index(), "the tailer stays at the gap");
                }
            }
        }
    }

    @Test
    void aTailerWhoseFirstFileIsDeletedBeforeItsFirstReadThrows() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL)) {
            append(queue, MESSAGES);
            long[] firsts = SegmentFiles.list(dir);
            try (Tailer<MarketData> tailer = queue.tailer()) {
                queue.deleteFilesBefore(firsts[1]);

                MessagesDeletedException e = assertThrows(MessagesDeletedException.class,
                        () -> tailer.readNext(new MarketData()));
                assertEquals(0, e.firstMissing());
                assertEquals(firsts[1], e.firstAvailable());
            }
        }
    }

    @Test
    void keepNewestFilesIsAppliedWhenAnAppenderRolls() {
        QueueOptions options = SMALL.retention(RetentionPolicy.keepNewestFiles(2));
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, options)) {
            append(queue, MESSAGES);
            long[] firsts = SegmentFiles.list(dir);
            assertEquals(2, firsts.length, Arrays.toString(firsts));
            try (Tailer<MarketData> tailer = queue.tailerFrom(firsts[0])) {
                readInOrder(tailer, firsts[0], MESSAGES);
            }
        }
    }

    @Test
    void keepForDeletesFilesWhoseSuccessorIsOlderThanTheAge() {
        try (BlitQueue<MarketData> keepLong = BlitQueue.open(dir, MarketData.class,
                SMALL.retention(RetentionPolicy.keepFor(Duration.ofHours(1))))) {
            append(keepLong, MESSAGES);
            assertEquals(List.of(), keepLong.applyRetention(), "nothing is an hour old");
        }
        long[] firsts = SegmentFiles.list(dir);
        try (BlitQueue<MarketData> keepNone = BlitQueue.open(dir, MarketData.class,
                SMALL.retention(RetentionPolicy.keepFor(Duration.ZERO)))) {
            assertEquals(firsts.length - 1, keepNone.applyRetention().size());
            assertArrayEquals(new long[] {firsts[firsts.length - 1]}, SegmentFiles.list(dir), "all but the newest");
        }
    }

    @Test
    void badPoliciesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> RetentionPolicy.keepNewestFiles(0));
        assertThrows(IllegalArgumentException.class, () -> RetentionPolicy.keepFor(Duration.ofSeconds(-1)));
        assertThrows(NullPointerException.class, () -> SMALL.retention(null));
    }

    static void append(BlitQueue<MarketData> queue, int count) {
        try (Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData();
            for (int i = 0; i < count; i++) {
                assertEquals(i, appender.append(md.fillFor(i, 0)));
            }
        }
    }

    /** Reads indices [from, to) and checks each message is the one appended for its index. */
    static void readInOrder(Tailer<MarketData> tailer, long from, long to) {
        MarketData md = new MarketData();
        for (long i = from; i < to; i++) {
            assertEquals(i, tailer.index());
            assertTrue(tailer.readNext(md), "message " + i);
            assertEquals(i, md.securityId);
            assertTrue(md.isConsistentFor(i), "message " + i);
        }
    }
}
