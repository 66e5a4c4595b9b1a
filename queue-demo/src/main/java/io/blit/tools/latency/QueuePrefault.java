package io.blit.tools.latency;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Warms a new queue's segment files before a measured schedule starts, inside the harness (not in the queue): a
 * fresh, sparse segment file has no pages in the page cache, so the first touch of each 4 KiB page by the appender
 * and by the tailer takes a page fault that allocates and zeroes a page (a few µs on these VMs, once per ~20
 * BookUpdates). Reading the range once through a separate read-only mapping ({@link MemorySegment#load()}) puts
 * those pages in the page cache without dirtying them (no disk writeback), so the appender's and tailer's own
 * faults later only map an existing page. Done by the consumer before it reports ready, i.e. before the producer
 * sends anything. Stateless.
 */
final class QueuePrefault {
    private QueuePrefault() {
    }

    /**
     * Loads up to {@code bytes} bytes of every segment file in {@code dir} into the page cache.
     *
     * @throws UncheckedIOException naming the file if it cannot be mapped
     */
    static void prefault(Path dir, long bytes) {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "segment-*.blitq")) {
            for (Path file : files) {
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                     Arena arena = Arena.ofConfined()) {
                    long length = Math.min(bytes, channel.size());
                    channel.map(FileChannel.MapMode.READ_ONLY, 0, length, arena).load();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot prefault " + file, e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    /** The bytes a plan's messages occupy in the queue (header pages, records: BlitQueue.recordBytes). */
    static long bytesNeeded(RunPlan plan) {
        long record = io.blit.queue.BlitQueue.recordBytes(plan.kind().payloadBytes(plan.total()),
                plan.recordChecksums());
        return 8192 + record * plan.total();
    }
}
