package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.testkit.Tmpfs;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An appender whose file system fills up (a tmpfs of 6 MiB mounted for the test, files of 4 MiB, so that the first file
 * and a prepared next one cannot both hold their space): it fails with one clear error naming the file it could not
 * create ("No space left on device"), never a memory fault in a mapped write (what a sparse first file gave before
 * every file was zero-filled at its creation); every committed
 * message reads back and the queue holds no record a reader rejects; once the file system has room again, appends go
 * on at the next index. Mounting needs privileges (root, as on the CI machines); the test is skipped without them.
 */
class QueueDiskFullTest {
    /** Larger than half the file system: the first file and a prepared next one cannot both hold their space. */
    private static final long SEGMENT = 4 << 20;

    @RegisterExtension
    final Tmpfs tmpfs = Tmpfs.sized("6m");

    @Test
    void aFullFileSystemIsAClearErrorAtAFileCreationAndAppendsResumeWhenThereIsRoom() throws Exception {
        Path point = tmpfs.mount(); // skips the test without the privilege to mount
        Path dir = point.resolve("q");
        QueueOptions options = QueueOptions.defaults().segmentSize(SEGMENT);
        long appended = 0;
        UncheckedIOException full = null;
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, options);
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData();
            for (long n = 0; n < 1_000_000 && full == null; n++) {
                try {
                    assertEquals(n, appender.append(md.fillFor(n, 0)));
                    appended++;
                } catch (UncheckedIOException e) {
                    full = e;
                }
            }
            assertNotNull(full, "6 MiB cannot hold 1,000,000 records of 152 bytes");
            assertTrue(full.getMessage().contains("No space left on device"), full.getMessage());
            assertTrue(full.getMessage().contains("cannot create queue file " + dir.resolve("segment-")),
                    full.getMessage());
            UncheckedIOException again = null;
            try {
                appender.append(md.fillFor(appended, 0));
            } catch (UncheckedIOException e) {
                again = e;
            }
            assertNotNull(again, "still full: the same clear error, nothing appended");
        }
        assertTrue(appended > 10_000, "appended " + appended + " before the file system was full");
        assertReadsBack(dir, appended);

        tmpfs.remount("size=32m");
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, options);
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData();
            for (long n = appended; n < appended + 1_000; n++) {
                assertEquals(n, appender.append(md.fillFor(n, 0)), "the next index: no gap");
            }
        }
        assertReadsBack(dir, appended + 1_000);
    }

    /** Messages 0 to {@code count} - 1 read back, each its index's, and nothing after them. */
    private static void assertReadsBack(Path dir, long count) {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class,
                QueueOptions.defaults().readOnly(true)); Tailer<MarketData> tailer = queue.tailer()) {
            MarketData md = new MarketData();
            for (long n = 0; n < count; n++) {
                assertTrue(tailer.readNext(md), "message " + n);
                assertEquals(n, tailer.index() - 1);
                assertTrue(md.isConsistentFor(n), "message " + n);
            }
            assertFalse(tailer.readNext(md), "nothing after the last committed message");
        }
    }

}
