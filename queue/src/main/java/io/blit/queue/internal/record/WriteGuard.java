package io.blit.queue.internal.record;

import io.blit.queue.internal.error.QueueErrors;
import java.nio.file.Path;

/**
 * Refuses every write to a queue opened read-only ({@code QueueOptions.readOnly}): creating, writing, deleting a file
 * or mapping one writable. Immutable, thread-safe. Not API.
 *
 * @param dir      the queue directory, named in the refusal
 * @param readOnly whether the queue was opened read-only
 */
public record WriteGuard(Path dir, boolean readOnly) {
    /**
     * Returns if the queue may be written.
     *
     * @param what the refused action, for the message ("append", "delete files")
     * @throws IllegalStateException naming {@code what} if the queue was opened read-only
     */
    public void require(String what) {
        if (readOnly) {
            throw QueueErrors.readOnly(dir, what);
        }
    }
}
