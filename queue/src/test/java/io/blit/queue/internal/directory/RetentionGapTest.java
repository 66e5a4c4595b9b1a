package io.blit.queue.internal.directory;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.blit.queue.MessagesDeletedException;
import io.blit.queue.internal.segment.SegmentFiles;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Telling a deleted file from one not created yet, or created since it was found absent. */
class RetentionGapTest {
    @TempDir
    Path dir;

    @Test
    void aFileCreatedAndFollowedSinceItWasFoundAbsentIsNotReportedDeleted() {
        // a tailer found file 100 absent; before it listed the directory, appenders created it and file 200
        SegmentFiles.createIfAbsent(dir, 0, 16384, null);
        SegmentFiles.createIfAbsent(dir, 100, 16384, null);
        SegmentFiles.createIfAbsent(dir, 200, 16384, null);

        assertDoesNotThrow(() -> Retention.failIfDeleted(dir, 100));
        assertDoesNotThrow(() -> Retention.failIfDeleted(dir, 300), "not created yet");
    }

    @Test
    void anAbsentFileWithALaterOneIsReportedDeletedWithTheRange() {
        SegmentFiles.createIfAbsent(dir, 0, 16384, null);
        SegmentFiles.createIfAbsent(dir, 100, 16384, null);
        SegmentFiles.createIfAbsent(dir, 200, 16384, null);
        assertEquals(2, Retention.deleteBefore(dir, 200).size());

        MessagesDeletedException e = assertThrows(MessagesDeletedException.class, () -> Retention.failIfDeleted(dir, 100));
        assertEquals(100, e.firstMissing());
        assertEquals(200, e.firstAvailable());
    }
}
