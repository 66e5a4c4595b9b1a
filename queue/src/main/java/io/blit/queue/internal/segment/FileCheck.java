package io.blit.queue.internal.segment;

import io.blit.queue.internal.directory.SegmentDirectory;

/**
 * What a queue object checks of each segment file header its {@link SegmentDirectory} reads, beyond the header's own
 * validity: a typed queue, that the file is not raw and that its type table's layouts are readable as the queue's
 * types. Called for every header the directory reads or creates, before the file is used. Not API.
 */
@FunctionalInterface
public interface FileCheck {
    /** Checks nothing: a raw queue reads every file's records as bytes. */
    FileCheck NONE = info -> { };

    /**
     * Checks the file of {@code info}; must be thread-safe (the directory is shared by the queue's threads).
     *
     * @throws RuntimeException (a {@code LayoutMismatchException} or {@code IllegalStateException}) if this queue
     *                          object may not use the file
     */
    void check(SegmentHeader.Info info);
}
