package io.blit.queue.internal.segment;

import io.blit.queue.internal.directory.SegmentPreparer;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * One file written in a background daemon thread under a temporary name, for {@link SegmentPreparer} and
 * {@link BlankSegmentPreparer}: the thread runs the preparation and keeps the temporary it returns, unless the
 * preparation was discarded meanwhile, in which case the temporary is deleted (by whichever side comes second).
 * A failed preparation leaves nothing: its caller then creates the file the ordinary way and meets the error itself.
 * Thread-safe.
 */
public final class FilePreparation {
    private final Thread thread;
    /** Written by {@link #thread} before it ends; read after {@link Thread#join()} (happens-before). */
    private Path tmp;
    private boolean discarded;

    /** @param prepare writes the temporary and returns it, or returns null if there is nothing to prepare */
    public FilePreparation(String threadName, Supplier<Path> prepare) {
        this.thread = Thread.ofPlatform().daemon().name(threadName).unstarted(() -> {
            Path written = null;
            try {
                written = prepare.get();
            } catch (RuntimeException e) {
                // the caller that needs the file creates it itself and reports the failure
            }
            finish(written);
        });
    }

    public void start() {
        thread.start();
    }

    private synchronized void finish(Path written) {
        if (discarded && written != null) {
            SegmentFiles.deleteQuietly(written);
        } else {
            tmp = written;
        }
    }

    /** Deletes the temporary now if it is written, else lets the thread delete it when it is. */
    public synchronized void discardLater() {
        discarded = true;
        if (tmp != null) {
            SegmentFiles.deleteQuietly(tmp);
            tmp = null;
        }
    }

    /** Waits for the thread (not interruptible: the temporary must not be lost); returns its temporary, or null. */
    public Path await() {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            return tmp;
        }
    }
}
