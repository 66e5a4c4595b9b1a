package io.blit.queue.internal.violation;

import io.blit.queue.BlitQueue;
import java.nio.file.Path;

/** Fixture violating the queue's layers: an engine class (in io.blit.queue.internal..) uses a facade. */
public final class EngineUsesBlitQueue {
    private EngineUsesBlitQueue() {
    }

    public static Path directory(BlitQueue<?> queue) {
        return queue.directory();
    }
}
