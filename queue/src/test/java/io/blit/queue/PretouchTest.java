package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.blit.queue.internal.format.SegmentFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Appender#pretouch} and {@link Tailer#pretouch}: they take the page faults up front (counted with the calling
 * thread's own minor-fault counter, {@code /proc/thread-self/stat}), they change no message, not even one another
 * appender is writing at the same moment, and they report how far they reached.
 */
class PretouchTest {
    private static final QueueOptions OPTIONS = QueueOptions.defaults().segmentSize(8L << 20);
    private static final int RECORD = (int) io.blit.queue.internal.format.RecordHeader.messageRecordLength(144);

    @TempDir
    Path dir;

    @Test
    void appendsAfterAnAppenderPretouchTakeNoPageFaults() throws IOException {
        assumeTrue(Files.isReadable(Path.of("/proc/thread-self/stat")), "Linux per-thread fault counter");
        int messages = 4_000; // 640,000 bytes: about 156 pages
        try (BlitQueue<MarketData> queue = openOnASparseFile()) {
            Appender<MarketData> withoutTouch = queue.appender();
            MarketData out = new MarketData();
            withoutTouch.append(out.fillFor(0, 0)); // maps the file; the rest of the pages are untouched
            long before = minorFaults();
            for (int n = 1; n < messages; n++) {
                withoutTouch.append(out.fillFor(n, n));
            }
            long untouched = minorFaults() - before;

            Appender<MarketData> touched = queue.appender(); // a second mapping of the same file
            assertEquals((long) messages * 2 * RECORD, touched.pretouch((long) messages * 2 * RECORD),
                    "covers what was asked");
            before = minorFaults();
            for (int n = messages; n < 2 * messages; n++) {
                touched.append(out.fillFor(n, n));
            }
            long afterTouch = minorFaults() - before;
            assertTrue(untouched >= 100, "appends into untouched pages fault about once a page: " + untouched);
            assertTrue(afterTouch <= 10, "appends into pretouched pages: " + afterTouch + " faults (without: "
                    + untouched + ")");
            assertEveryMessage(queue, 2 * messages);
        }
    }

    @Test
    void readsAfterATailerPretouchTakeNoPageFaults() throws IOException {
        assumeTrue(Files.isReadable(Path.of("/proc/thread-self/stat")), "Linux per-thread fault counter");
        int messages = 40_000; // 6 MB: about 1,500 pages
        try (BlitQueue<MarketData> queue = openOnASparseFile()) {
            Appender<MarketData> appender = queue.appender();
            MarketData out = new MarketData();
            for (int n = 0; n < messages; n++) {
                appender.append(out.fillFor(n, n));
            }
            MarketData in = new MarketData();
            Tailer<MarketData> untouchedTailer = queue.tailer();
            long before = minorFaults();
            for (int n = 0; n < messages; n++) {
                assertTrue(untouchedTailer.readNext(in));
            }
            long untouched = minorFaults() - before;

            Tailer<MarketData> touchedTailer = queue.tailer();
            touchedTailer.pretouch(OPTIONS.segmentSize());
            before = minorFaults();
            long ids = 0;
            for (int n = 0; n < messages; n++) { // nothing allocated in the loop: a new heap page faults too
                assertTrue(touchedTailer.readNext(in));
                ids += in.securityId;
            }
            long afterTouch = minorFaults() - before;
            assertEquals((long) messages * (messages - 1) / 2, ids, "every message read once, in order");
            assertEveryMessage(queue, messages);
            assertTrue(untouched >= 40, "reads of untouched pages fault (16 pages mapped per fault): " + untouched);
            assertTrue(afterTouch <= 5, "reads of pretouched pages: " + afterTouch + " faults (without: " + untouched
                    + ")");
        }
    }

    @Test
    void pretouchChangesNothingAnotherAppenderWritesMeanwhile() throws Exception {
        int messages = 30_000;
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, OPTIONS.prepareNextFile(false))) {
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicInteger passes = new AtomicInteger();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try (Appender<MarketData> appender = queue.appender()) {
                    MarketData out = new MarketData();
                    for (int n = 0; n < messages; n++) {
                        if (n == messages / 2) { // two passes begin after the first half and end before the second
                            int seen = passes.get();
                            while (passes.get() < seen + 2) {
                                Thread.onSpinWait();
                            }
                        }
                        appender.append(out.fillFor(n, n));
                    }
                } finally {
                    writing.set(false);
                }
            });
            int passesBetweenWrites = 0;
            try (Appender<MarketData> toucher = queue.appender()) {
                do { // each pass starts at this appender's (unmoved) position: over the pages being written
                    toucher.pretouch(OPTIONS.segmentSize());
                    passes.incrementAndGet();
                    passesBetweenWrites += writing.get() ? 1 : 0;
                } while (writing.get());
            }
            writer.get();
            assertTrue(passesBetweenWrites >= 2, "passes while the other appender wrote: " + passesBetweenWrites);
            assertEveryMessage(queue, messages);
        }
    }

    @Test
    void pretouchStopsAtTheFileEndAndRefusesBadUse() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, OPTIONS.prepareNextFile(false))) {
            Appender<MarketData> appender = queue.appender();
            long rest = OPTIONS.segmentSize() - SegmentFormat.RECORDS_START;
            assertEquals(rest, appender.pretouch(Long.MAX_VALUE), "up to the end of the current file");
            assertEquals(0, appender.pretouch(0));
            assertThrows(IllegalArgumentException.class, () -> appender.pretouch(-1));
            Tailer<MarketData> tailer = queue.tailer();
            assertEquals(rest, tailer.pretouch(Long.MAX_VALUE));
            assertThrows(IllegalArgumentException.class, () -> tailer.pretouch(-1));
            assertFalse(tailer.readNext(new MarketData()), "a pretouched empty queue is still empty");
            CompletableFuture<Throwable> elsewhere = CompletableFuture.supplyAsync(() -> {
                try {
                    appender.pretouch(4096);
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            });
            assertTrue(elsewhere.join() instanceof WrongThreadException, "owned by the thread that mapped it");
            appender.close();
            tailer.close();
            assertThrows(IllegalStateException.class, () -> appender.pretouch(1));
            assertThrows(IllegalStateException.class, () -> tailer.pretouch(1));
        }
    }

    private static void assertEveryMessage(BlitQueue<MarketData> queue, int messages) {
        try (Tailer<MarketData> tailer = queue.tailer()) {
            MarketData in = new MarketData();
            for (int n = 0; n < messages; n++) {
                assertTrue(tailer.readNext(in), "message " + n);
                assertTrue(in.isConsistentFor(n), "message " + n + " intact");
            }
            assertFalse(tailer.readNext(in));
        }
    }

    /** The calling thread's minor page faults so far (field 10 of /proc/thread-self/stat). */
    /**
     * Opens the queue of {@link #OPTIONS} on a first file created sparse, as files were before every file was
     * zero-filled at its creation: its pages are in no page cache, so the first touch of each through a mapping faults
     * (a zero-filled file's pages are, and how many of them one fault maps depends on the kernel's page-cache folios),
     * which is what pretouch exists to take up front (a file prepared in the background is zero-filled but may have
     * left the page cache, or been copied in sparse).
     */
    private BlitQueue<MarketData> openOnASparseFile() {
        Path tmp = io.blit.queue.internal.segment.SegmentFiles.prepare(dir, 0, OPTIONS.segmentSize(),
                new MarketData().layout().descriptor(), false);
        io.blit.queue.internal.segment.SegmentFiles.publish(dir, 0, tmp);
        return BlitQueue.open(dir, MarketData.class, OPTIONS.prepareNextFile(false));
    }

    private static long minorFaults() throws IOException {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[7]); // fields after "(comm)": state=0 ... minflt is the 10th overall
    }
}
