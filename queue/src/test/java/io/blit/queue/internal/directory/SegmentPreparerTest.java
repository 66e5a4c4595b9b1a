package io.blit.queue.internal.directory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.core.BlockCopier;
import io.blit.layout.LayoutDescriptor;
import io.blit.queue.MarketData;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.FileType;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.segment.SegmentHeader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentPreparerTest {
    static final long SIZE = 64 << 10;
    static final LayoutDescriptor LAYOUT = BlockCopier.of(MarketData.class).layout().descriptor();

    @TempDir
    Path dir;

    @Test
    void publishesARequestedFileCompleteAndZeroFilledLeavingNoTemporary() throws IOException {
        try (SegmentPreparer preparer = new SegmentPreparer(dir, SIZE, FileType.single(LAYOUT), false, () -> 0,
                SegmentFormat.FORMAT_VERSION)) {
            preparer.request(431);
            assertFalse(Files.exists(SegmentFiles.path(dir, 431)), "nothing under the final name before the roll");
            assertTrue(preparer.publishIfPrepared(431));
        }
        SegmentHeader.Info info = SegmentFiles.readHeader(dir, 431);
        assertEquals(431, info.firstIndex());
        assertEquals(SIZE, info.segmentSize());
        assertEquals(LAYOUT, info.descriptor());
        byte[] bytes = Files.readAllBytes(SegmentFiles.path(dir, 431));
        assertEquals(SIZE, bytes.length);
        byte[] records = java.util.Arrays.copyOfRange(bytes, (int) SegmentFormat.RECORDS_START, bytes.length);
        assertArrayEquals(new byte[records.length], records, "the record area is all zeros");
        assertEquals(List.of("segment-00000000000000000431.blitq"), names());
    }

    @Test
    void aBlankGetsTheHeaderOfTheIndexTheRollNeedsAndIsPublishedOnce() throws IOException {
        List<FileType> types = List.of(new FileType(1, LAYOUT),
                new FileType(2, BlockCopier.of(io.blit.queue.Quote.class).layout().descriptor()));
        try (SegmentPreparer preparer = new SegmentPreparer(dir, SIZE, types, false, () -> 0,
                SegmentFormat.FORMAT_VERSION)) {
            preparer.requestBlank();
            preparer.requestBlank(); // one outstanding at a time
            assertTrue(preparer.publishIfPrepared(777));
            assertFalse(preparer.publishIfPrepared(778), "a blank is published once");
        }
        SegmentHeader.Info info = SegmentFiles.readHeader(dir, 777);
        assertEquals(777, info.firstIndex());
        assertEquals(types, info.types());
        assertEquals(SegmentFormat.FORMAT_VERSION, info.version());
        byte[] bytes = Files.readAllBytes(SegmentFiles.path(dir, 777));
        byte[] records = java.util.Arrays.copyOfRange(bytes, (int) SegmentFormat.RECORDS_START, bytes.length);
        assertArrayEquals(new byte[records.length], records, "the record area is all zeros");
        assertEquals(List.of("segment-00000000000000000777.blitq"), names(), "no temporary left");
    }

    @Test
    void publishesNothingForAnIndexThatWasNotRequested() throws IOException {
        try (SegmentPreparer preparer = new SegmentPreparer(dir, SIZE, FileType.single(LAYOUT), false, () -> 0,
                SegmentFormat.FORMAT_VERSION)) {
            preparer.request(100);
            assertFalse(preparer.publishIfPrepared(99));
            assertTrue(preparer.publishIfPrepared(100));
            assertFalse(preparer.publishIfPrepared(100), "a preparation is published once");
        }
        assertEquals(List.of("segment-00000000000000000100.blitq"), names());
    }

    @Test
    void closeDeletesAnUnpublishedPreparationAndStopsPreparing() throws IOException {
        SegmentPreparer preparer = new SegmentPreparer(dir, SIZE, FileType.single(LAYOUT), false, () -> 0,
                SegmentFormat.FORMAT_VERSION);
        preparer.request(7);
        preparer.close();
        assertEquals(List.of(), names(), "no file and no temporary left");
        preparer.request(8);
        assertFalse(preparer.publishIfPrepared(8));
        assertEquals(List.of(), names());
    }

    @Test
    void aLaterRequestDiscardsTheEarlierPreparationAndAnEarlierIndexIsIgnored() throws Exception {
        try (SegmentPreparer preparer = new SegmentPreparer(dir, SIZE, FileType.single(LAYOUT), false, () -> 0,
                SegmentFormat.FORMAT_VERSION)) {
            preparer.request(10);
            preparer.request(20);
            preparer.request(15); // stale: an appender that is behind
            assertFalse(preparer.publishIfPrepared(10));
            assertFalse(preparer.publishIfPrepared(15));
            assertTrue(preparer.publishIfPrepared(20));
        }
        // the discarded preparation of 10 deletes its temporary when its thread finishes (which may be after close:
        // a discarded preparation is not waited for), so wait for that thread, not for a directory listing that can
        // be taken before the temporary was even created
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals("blit-queue-prepare-10")) {
                thread.join(30_000);
            }
        }
        assertEquals(List.of("segment-00000000000000000020.blitq"), names());
    }

    @Test
    void keepsAFileAnotherCreatorPublishedFirst() throws IOException {
        try (SegmentPreparer preparer = new SegmentPreparer(dir, SIZE, FileType.single(LAYOUT), false, () -> 0,
                SegmentFormat.FORMAT_VERSION)) {
            preparer.request(50);
            SegmentFiles.createIfAbsent(dir, 50, SIZE, LAYOUT);
            byte[] theirs = Files.readAllBytes(SegmentFiles.path(dir, 50));
            assertTrue(preparer.publishIfPrepared(50));
            assertArrayEquals(theirs, Files.readAllBytes(SegmentFiles.path(dir, 50)), "the first published file stays");
        }
        assertEquals(List.of("segment-00000000000000000050.blitq"), names());
    }

    private List<String> names() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
