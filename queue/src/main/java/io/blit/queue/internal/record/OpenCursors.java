package io.blit.queue.internal.record;

import io.blit.queue.internal.error.QueueErrors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The appenders and tailers a queue object created that are still open, which closing the queue
 * closes. Not thread-safe: the queue calls it under its own monitor. Not API.
 */
public final class OpenCursors {
    private final Path dir;
    private final Set<AutoCloseable> cursors = new LinkedHashSet<>();
    private boolean closed;

    /** @param dir the queue's directory (for the message of a refusal once closed) */
    public OpenCursors(Path dir) {
        this.dir = dir;
    }

    /**
     * Adds {@code cursor} and returns it.
     *
     * @throws IllegalStateException if the queue is closed
     */
    public <C extends AutoCloseable> C add(C cursor) {
        if (closed) {
            throw QueueErrors.closed("queue", dir);
        }
        cursors.add(cursor);
        return cursor;
    }

    /** Forgets {@code cursor} (it closed). */
    public void remove(AutoCloseable cursor) {
        cursors.remove(cursor);
    }

    /** Refuses every later {@link #add}: the queue is closing. */
    public void refuseMore() {
        closed = true;
    }

    /**
     * Closes every cursor still open (each removes itself); a failure does not stop the others.
     *
     * @throws IllegalStateException if some could not be closed (they belong to another thread), with each failure
     *                               suppressed
     */
    public void closeEach() {
        List<RuntimeException> failures = new ArrayList<>();
        for (AutoCloseable cursor : List.copyOf(cursors)) {
            try {
                cursor.close();
            } catch (Exception e) {
                failures.add(e instanceof RuntimeException r ? r : new IllegalStateException(e));
            }
        }
        if (!failures.isEmpty()) {
            IllegalStateException failure = QueueErrors.notClosable(failures.size(), Thread.currentThread().getName());
            failures.forEach(failure::addSuppressed);
            throw failure;
        }
    }
}
