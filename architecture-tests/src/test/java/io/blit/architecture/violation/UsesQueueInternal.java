package io.blit.architecture.violation;

import io.blit.queue.internal.format.RecordHeader;

/** Fixture violating "internal packages stay in their module": a class outside the queue and the stress tests uses its internals. */
public final class UsesQueueInternal {
    private UsesQueueInternal() {
    }

    public static Class<?> header() {
        return RecordHeader.class;
    }
}
