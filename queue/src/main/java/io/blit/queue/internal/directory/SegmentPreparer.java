package io.blit.queue.internal.directory;

import io.blit.queue.internal.file.FileModes;
import io.blit.queue.internal.segment.FilePreparation;
import io.blit.queue.internal.segment.FileType;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.segment.SegmentHeader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Prepares the next segment file of a queue in a background thread while appenders still fill the current one,
 * so that rolling to it costs an appender a link and a mapping, not the creation (a forced write) and the first
 * touch of every page of a sparse file (allocation, zeroing and block reservation in the page-fault handler, the
 * largest part of an append's cost; see {@code docs/queue-performance.md}).
 *
 * <p>{@link #request} starts a daemon thread that writes the complete file under its own temporary name with
 * {@link SegmentFiles#prepare} (zero-filled, so its pages are in the page cache) unless the file already exists;
 * {@link #publishIfPrepared} waits for that thread and publishes the temporary under the final name with
 * {@link SegmentFiles#publish} (a lost race keeps the other creator's file). Nothing is visible under a final name
 * before an appender rolls to it, so readers, the directory listing and every other appender see exactly what
 * they saw without preparation; the only trace is one temporary per queue, which {@link #close()} deletes, and
 * which the next open of the queue deletes if this process died.
 *
 * <p>At most one preparation is outstanding; a request for another index first discards the previous one.
 * Thread-safe (every method synchronizes on this object, except the wait for the preparing thread).
 */
public final class SegmentPreparer implements AutoCloseable {
    private final Path dir;
    private final long segmentSize;
    private final List<FileType> types;
    private final boolean privateFiles;
    /** The term the files are created in, read when each is prepared ({@link SegmentDirectory#fileTerm}). */
    private final java.util.function.LongSupplier term;
    /** The format version of the files prepared ({@link io.blit.queue.internal.format.SegmentFormat}). */
    private final int version;
    /** {@link #pendingIndex} of a blank: the next file of a queue of several record lengths, its first index unknown. */
    private static final long BLANK = -2;
    private long pendingIndex = -1;
    private FilePreparation pending;
    private boolean closed;

    /**
     * A preparer of files recording the type table {@code types}.
     *
     * @param privateFiles whether the files are created {@code rw-------} ({@link FileModes})
     * @param term         the term a file prepared now is created in, which its header records
     * @param version      the format version of the files prepared (4, or 5: record checksums)
     */
    public SegmentPreparer(Path dir, long segmentSize, List<FileType> types, boolean privateFiles,
                           java.util.function.LongSupplier term, int version) {
        this.dir = dir;
        this.version = version;
        this.term = term;
        this.segmentSize = segmentSize;
        this.types = types;
        this.privateFiles = privateFiles;
    }

    /**
     * Starts preparing the file whose first message index is {@code firstIndex}, unless that or a later index was
     * requested before (appenders move forward; a late appender's request is stale), the file exists, or this
     * preparer is closed. Returns at once; an earlier preparation never published is discarded in the background.
     */
    public synchronized void request(long firstIndex) {
        if (closed || firstIndex <= pendingIndex) {
            return;
        }
        if (pending != null) {
            pending.discardLater();
        }
        pendingIndex = firstIndex;
        pending = preparation(firstIndex);
        pending.start();
    }

    /**
     * Starts preparing the next file when its first index is not known yet (a queue whose records have several lengths:
     * several types, or raw payloads): a zero-filled blank of the segment size ({@link SegmentFiles#prepareBlank}),
     * whose header {@link #publishIfPrepared} writes for the index the roll needs. Does nothing while a preparation is
     * outstanding, or once closed. Returns at once.
     */
    public synchronized void requestBlank() {
        if (closed || pending != null) {
            return;
        }
        pendingIndex = BLANK;
        pending = new FilePreparation("blit-queue-prepare-blank", () -> SegmentFiles.prepareBlank(dir, segmentSize,
                privateFiles));
        pending.start();
    }

    /**
     * If the file of {@code firstIndex} (or a blank) was requested, waits for its preparation to finish and publishes
     * it (a blank with the header of {@code firstIndex} written first).
     *
     * @return true if the file of {@code firstIndex} now exists through this preparation (published here, or
     *         found to exist already); false if it was not requested or its preparation failed, in which case the
     *         caller creates it the ordinary way (and meets any file-system error itself)
     */
    public boolean publishIfPrepared(long firstIndex) {
        FilePreparation mine;
        boolean blank;
        synchronized (this) {
            if (pending == null || (pendingIndex != firstIndex && pendingIndex != BLANK)) {
                return false;
            }
            mine = pending;
            pending = null;
            blank = pendingIndex == BLANK;
            if (blank) {
                pendingIndex = -1;
            }
        }
        Path tmp = mine.await();
        if (tmp == null) {
            return Files.exists(SegmentFiles.path(dir, firstIndex));
        }
        if (blank) {
            if (Files.exists(SegmentFiles.path(dir, firstIndex))) { // another appender rolled first
                SegmentFiles.deleteQuietly(tmp);
                return true;
            }
            try {
                SegmentFiles.completeBlank(tmp, SegmentHeader.encodeTypes(version, segmentSize, firstIndex,
                        System.currentTimeMillis() * 1_000_000L, ProcessHandle.current().pid(), types,
                        term.getAsLong()));
            } catch (RuntimeException e) {
                SegmentFiles.deleteQuietly(tmp);
                return false; // the caller creates the file the ordinary way
            }
        }
        SegmentFiles.publish(dir, firstIndex, tmp);
        return true;
    }

    /** Stops preparing: waits for an outstanding preparation and deletes its temporary. Idempotent. */
    @Override
    public void close() {
        FilePreparation stale;
        synchronized (this) {
            closed = true;
            stale = pending;
            pending = null;
        }
        if (stale != null) {
            stale.discardLater();
            stale.await();
        }
    }

    private FilePreparation preparation(long firstIndex) {
        return new FilePreparation("blit-queue-prepare-" + firstIndex, () ->
                Files.exists(SegmentFiles.path(dir, firstIndex)) ? null
                        : SegmentFiles.prepare(dir, firstIndex, segmentSize, types, true, privateFiles,
                        term.getAsLong(), version));
    }
}
