package io.blit.queue.internal.segment;

import io.blit.queue.internal.format.RecordHeader;
import java.lang.foreign.ValueLayout;

/**
 * The page walks of {@code Appender.pretouch} and {@code Tailer.pretouch}: one access per 4 KiB page of a mapped
 * segment file from a position up to a number of bytes ahead (at most to the file's end), so that later accesses to
 * those pages take no page fault. Stateless; thread-safe as its callers' mappings allow.
 */
public final class Pretouch {
    /** The page size stepped by (4 KiB: x86-64 and aarch64 Linux base pages; larger pages only skip). */
    private static final long PAGE = 4096;
    /** Sum of the words {@link #forReading} loaded: written only so that the JIT keeps the loads. */
    @SuppressWarnings("unused")
    private static volatile long touched;

    private Pretouch() {
    }

    /**
     * Touches the pages for writing: an atomic compare-and-set of one word per page from 0 to 0 (after a plain load),
     * which leaves any value another writer stored there unchanged and never writes a word that is not 0.
     *
     * @return the bytes covered from {@code from} (less than {@code bytes} at the file's end)
     */
    public static long forWriting(MappedSegment file, long from, long bytes) {
        long end = from + Math.min(bytes, file.size() - from);
        for (long page = from & -PAGE; page < end; page += PAGE) {
            RecordHeader.compareAndExchange(file.segment(), Math.max(page, from), 0L, 0L);
        }
        file.surfacePendingFault();
        return end - from;
    }

    /**
     * Touches the pages for reading: one plain load per page; changes nothing in the file.
     *
     * @return the bytes covered from {@code from} (less than {@code bytes} at the file's end)
     */
    public static long forReading(MappedSegment file, long from, long bytes) {
        long end = from + Math.min(bytes, file.size() - from);
        long sum = 0;
        for (long page = from & -PAGE; page < end; page += PAGE) {
            sum += file.segment().get(ValueLayout.JAVA_LONG, page);
        }
        touched = sum;
        file.surfacePendingFault();
        return end - from;
    }
}
