package io.blit.queue.internal;

import io.blit.queue.BlitQueue;

/**
 * The package-private parts of {@code io.blit.queue} that {@code io.blit.queue.replica} (the replication-only API, in
 * a package of its own so that only replication sees it) needs, as the JDK's {@code SharedSecrets} gives its packages
 * one another's: {@link BlitQueue}'s class initializer registers the one {@link Bridge}; a caller that holds a queue
 * finds it set. Not API.
 */
public final class QueueAccess {
    private static volatile Bridge bridge;

    private QueueAccess() {
    }

    /** A reader's walk over a queue's records (the tailers' {@code RecordWalker}): mapping, file rolls, dead claims. */
    public interface Walk {
        /** Maps the cursor's file in this thread if it is not yet. */
        void ensureMapped(RecordCursor cursor);

        /** Moves the cursor into the next file if it exists yet; false if not. */
        boolean roll(RecordCursor cursor);

        /** What the walk does at a CLAIMED record: waits out the abandon grace, then passes a dead writer's claim. */
        RecordWalk.Claims claims();
    }

    /** What {@code io.blit.queue} gives its replication-only package. */
    public interface Bridge {
        /** A cursor at {@code index} of {@code queue}, or at its end if the index is beyond it. */
        RecordCursor seek(BlitQueue<?> queue, long index);

        /** A new walk over {@code queue}'s records, with the queue's abandon grace. */
        Walk walk(BlitQueue<?> queue);

        /** Registers a cursor the queue closes when it closes. */
        void register(BlitQueue<?> queue, AutoCloseable cursor);

        /** Forgets a cursor closed by its owner. */
        void unregister(BlitQueue<?> queue, AutoCloseable cursor);
    }

    /**
     * Sets the bridge; called once, by {@link BlitQueue}'s class initializer.
     *
     * @throws IllegalStateException if it is set already
     */
    public static synchronized void set(Bridge implementation) {
        if (bridge != null) {
            throw new IllegalStateException("the queue bridge is set already");
        }
        bridge = implementation;
    }

    /** The bridge; set once a {@link BlitQueue} exists (its class is initialized before any instance). */
    public static Bridge bridge() {
        return bridge;
    }
}
