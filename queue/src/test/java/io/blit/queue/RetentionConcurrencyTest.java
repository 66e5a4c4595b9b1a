package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.segment.SegmentFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Retention while appenders and tailers run, in this JVM and across processes; unmapping on close. */
class RetentionConcurrencyTest {
    private static final long WAIT = TimeUnit.SECONDS.toNanos(60);

    @TempDir
    Path dir;

    /**
     * One thread appends, one reads, one deletes every file the reader has finished and often the one it is
     * reading (fewer than one file's RetentionTest.PER_FILE records ahead of it): the reader keeps its mapping of a deleted file,
     * so it reads every message, in order and intact, while the files really disappear.
     *
     * <p>Whether the deleter catches the reader inside a file depends on scheduling: on a loaded 2-core machine the
     * spinning deleter can miss every such moment. So the reader also stops once, inside a file and within the lead
     * of its end, until the deleter has deleted a file under it (at once if that already happened), which makes the
     * case this test is about certain to occur.
     */
    @Test
    void aTailerReadsEveryMessageWhileAnotherThreadDeletesTheFilesItReads() throws Exception {
        int messages = 30_000;
        long lead = 200; // below the 358 records of a file: never deletes a file the tailer has not mapped yet
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, RetentionTest.SMALL)) {
            AtomicLong read = new AtomicLong();
            CountDownLatch deletedUnderReader = new CountDownLatch(1);
            long pauseAt = 10L * RetentionTest.PER_FILE + 300; // inside the 11th file, fewer than `lead` records before its end
            CompletableFuture<Void> appending = CompletableFuture.runAsync(() -> RetentionTest.append(queue, messages));
            CompletableFuture<Void> tailing = CompletableFuture.runAsync(() -> {
                try (Tailer<MarketData> tailer = queue.tailer()) {
                    MarketData md = new MarketData();
                    for (long i = 0; i < messages; i++) {
                        assertTrue(tailer.next(md, WaitStrategy.PARK, WAIT), "message " + i);
                        assertEquals(i, md.securityId);
                        assertTrue(md.isConsistentFor(i), "message " + i);
                        read.set(i + 1);
                        if (i == pauseAt) {
                            assertTrue(awaitUninterruptibly(deletedUnderReader), "the file being read was never deleted");
                        }
                    }
                }
            });
            long deleted = 0;
            long deletedAhead = 0;
            while (!tailing.isDone()) {
                long position = read.get();
                for (Path file : queue.deleteFilesBefore(position + lead)) {
                    deleted++;
                    if (firstIndexOf(file) + RetentionTest.PER_FILE > position) {
                        deletedAhead++; // the file the tailer was reading at that moment
                        deletedUnderReader.countDown();
                    }
                }
                Thread.onSpinWait();
            }
            tailing.get(120, TimeUnit.SECONDS);
            appending.get(120, TimeUnit.SECONDS);

            long files = (messages + RetentionTest.PER_FILE - 1) / RetentionTest.PER_FILE;
            deleted += queue.deleteFilesBefore(messages).size();
            assertEquals(files - 1, deleted, "every file but the newest was deleted");
            assertEquals(1, SegmentFiles.list(dir).length);
            assertTrue(deletedAhead > 0, "some file was deleted while the tailer was reading it");
        }
    }

    private static boolean awaitUninterruptibly(CountDownLatch latch) {
        try {
            return latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Closing the queue unmaps every file, deleted or not: no mapping of the directory is left in this process. */
    @Test
    void closeUnmapsEveryFileIncludingDeletedOnes() throws IOException {
        BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, RetentionTest.SMALL);
        Appender<MarketData> appender = queue.appender();
        MarketData md = new MarketData();
        for (int i = 0; i < 2_000; i++) {
            appender.append(md.fillFor(i, 0));
        }
        Tailer<MarketData> tailer = queue.tailer();
        assertTrue(tailer.readNext(md)); // maps the first file
        long[] firsts = SegmentFiles.list(dir);
        assertEquals(2, queue.deleteFilesBefore(firsts[2]).size());

        List<String> mapped = mappingsOf(dir);
        assertTrue(mapped.stream().anyMatch(line -> line.contains(SegmentFiles.path(dir, 0) + " (deleted)")),
                "the tailer still maps its deleted file:\n" + String.join("\n", mapped));
        assertTrue(mapped.stream().anyMatch(line -> line.contains(SegmentFiles.path(dir, firsts[firsts.length - 1]).toString())),
                "the appender maps the newest file:\n" + String.join("\n", mapped));

        queue.close();

        assertEquals(List.of(), mappingsOf(dir), "nothing of " + dir + " is mapped after close");
    }

    /**
     * This JVM appends message 0 and its tailer reads it (mapping the first file); then a child JVM appends the
     * rest with "keep the newest 3 files", deleting the tailer's file and the ones after it. The tailer reads
     * the rest of its deleted file from its mapping, then gets one MessagesDeletedException naming exactly the
     * deleted indices, and from the first index left reads every message to the end: nothing skipped silently.
     */
    @Test
    void aTailerBehindAnotherProcessesRetentionFinishesItsFileThenGetsTheGap() throws Exception {
        int messages = 20_000;
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, RetentionTest.SMALL)) {
            RetentionTest.append(queue, 1);
            Tailer<MarketData> tailer = queue.tailer();
            MarketData md = new MarketData();
            assertTrue(tailer.readNext(md));

            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--sun-misc-unsafe-memory-access=allow", "-cp", System.getProperty("java.class.path"),
                    RetentionChild.class.getName(), dir.toString(), Long.toString(RetentionTest.SMALL.segmentSize()),
                    "1", Integer.toString(messages), "3").redirectErrorStream(true).start();
            assertTrue(child.waitFor(120, TimeUnit.SECONDS), "child did not end");
            String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, child.exitValue(), output);
            assertTrue(output.contains("done"), output);
            long[] firsts = SegmentFiles.list(dir);
            assertEquals(3, firsts.length, "the child's appender kept the newest 3 files");
            assertTrue(mappingsOf(dir).stream().anyMatch(line -> line.contains(" (deleted)")), "our file is deleted");

            RetentionTest.readInOrder(tailer, 1, RetentionTest.PER_FILE); // the rest of the first file, from the mapping
            MessagesDeletedException gap = assertThrows(MessagesDeletedException.class, () -> tailer.readNext(md));
            assertEquals(RetentionTest.PER_FILE, gap.firstMissing());
            assertEquals(firsts[0], gap.firstAvailable());
            tailer.close();
            try (Tailer<MarketData> resumed = queue.tailerFrom(gap.firstAvailable())) {
                RetentionTest.readInOrder(resumed, firsts[0], messages);
                assertEquals(-1, resumed.readNextBytes(java.lang.foreign.MemorySegment.ofArray(new byte[256])));
            }
        }
    }

    private static long firstIndexOf(Path file) {
        String name = file.getFileName().toString();
        return Long.parseLong(name.substring("segment-".length(), name.indexOf('.')));
    }

    private static List<String> mappingsOf(Path dir) throws IOException {
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(line -> line.contains(dir.toString())).toList();
    }
}
