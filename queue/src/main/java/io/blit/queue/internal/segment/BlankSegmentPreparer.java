package io.blit.queue.internal.segment;

import io.blit.queue.internal.file.FileModes;
import java.nio.file.Path;

/**
 * Prepares a replica's next segment file in a background thread while the replica still fills the current one: a
 * zero-filled blank of the current file's size ({@link SegmentFiles#prepareBlank}), since the next file's header is
 * the source's and arrives only when the source rolls. Without it, the replica's writes into a new sparse file fault
 * every page in from a hole (read-ahead zeroes it, then the write fault reserves its block) on the thread that
 * receives the stream. The blank's only trace is its temporary, which {@link #close()} deletes, and which the next
 * open of the replica deletes if this process died.
 *
 * <p>At most one blank is outstanding. Not thread-safe: it belongs to the replica's writer thread (the preparing
 * thread is internal).
 */
public final class BlankSegmentPreparer implements AutoCloseable {
    private final Path dir;
    private final boolean privateFiles;
    private FilePreparation pending;
    private long pendingSize;

    /** @param privateFiles whether the blanks are created {@code rw-------} ({@link FileModes}) */
    public BlankSegmentPreparer(Path dir, boolean privateFiles) {
        this.dir = dir;
        this.privateFiles = privateFiles;
    }

    /** Starts preparing a blank of {@code segmentSize} bytes unless one is outstanding already. */
    public void request(long segmentSize) {
        if (pending != null) {
            return;
        }
        pendingSize = segmentSize;
        pending = new FilePreparation("blit-replica-prepare", () -> SegmentFiles.prepareBlank(dir, segmentSize,
                privateFiles));
        pending.start();
    }

    /**
     * Waits for the outstanding blank and hands it over if it has {@code segmentSize} bytes.
     *
     * @return the blank's temporary, now the caller's to complete and publish (or delete); null if none was
     *         requested, its preparation failed, or it has another size (then it is deleted)
     */
    public Path take(long segmentSize) {
        FilePreparation mine = pending;
        pending = null;
        if (mine == null) {
            return null;
        }
        Path blank = mine.await();
        if (blank != null && pendingSize != segmentSize) {
            SegmentFiles.deleteQuietly(blank);
            return null;
        }
        return blank;
    }

    /**
     * The file of {@code header} (first index {@code first}) under a temporary name: the prepared blank completed, or
     * (if none) one zero-filled now. Every page of a replica's file is allocated before a record is written into it, so
     * a full file system fails here, with {@link java.io.UncheckedIOException} ("No space left on device"), not in a
     * write to the mapping.
     */
    public Path takeOrPrepare(long first, long segmentSize, byte[] header) {
        Path blank = take(segmentSize);
        if (blank == null) { // zero-filled here: a sparse file on a full file system would fault on the first write
            return SegmentFiles.prepare(dir, first, segmentSize, header, true, privateFiles);
        }
        try {
            SegmentFiles.completeBlank(blank, header);
            return blank;
        } catch (RuntimeException e) {
            SegmentFiles.deleteQuietly(blank);
            throw e;
        }
    }

    /** Waits for an outstanding blank and deletes it. Idempotent. */
    @Override
    public void close() {
        FilePreparation stale = pending;
        pending = null;
        if (stale != null) {
            stale.discardLater();
            stale.await();
        }
    }
}
