package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.segment.SegmentFiles;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A segment file truncated while no mapping is open is refused, naming the file (no SIGBUS). */
class TruncatedFileTest {
    @TempDir
    Path dir;

    @Test
    void aMiddleSegmentTruncatedWhileUnmappedIsReportedWithItsFileOnOpen() throws Exception {
        QueueOptions options = QueueOptions.defaults().segmentSize(64 << 10);
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, options);
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData();
            for (int i = 0; i < 2_000; i++) {
                appender.append(md.fillFor(i, 0));
            }
        }
        long[] firsts = SegmentFiles.list(dir);
        assertTrue(firsts.length >= 3, "rolled into at least three files");
        Path middle = SegmentFiles.path(dir, firsts[1]);
        try (FileChannel channel = FileChannel.open(middle, StandardOpenOption.WRITE)) {
            channel.truncate(channel.size() / 2);
        }
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class,
                () -> BlitQueue.open(dir, MarketData.class, options).close());
        assertEquals(middle, e.file(), e.getMessage());
        assertTrue(e.getMessage().contains(middle.toString()), e.getMessage());
    }
}
