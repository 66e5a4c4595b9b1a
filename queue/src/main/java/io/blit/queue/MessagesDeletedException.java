package io.blit.queue;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The messages a tailer would read next were deleted by retention ({@link RetentionPolicy},
 * {@link BlitQueue#deleteFilesBefore(long)}), in this or another process, before it read them: the tailer
 * lagged behind retention, or {@link BlitQueue#tailerFrom(long)} asked for a deleted index. The queue never
 * skips them silently; the caller decides, e.g. {@code queue.tailerFrom(e.firstAvailable())} to go on from
 * the oldest message left, after recording the loss. The tailer that threw stays where it was and throws
 * again if read again. A {@link NamedTailer} names its consumer ({@link #consumer()}) and stays likewise, until
 * {@link NamedTailer#seek}{@code (e.firstAvailable())}.
 *
 * <p>Unchecked (an {@link IllegalStateException}): the state of the queue's files.
 */
public final class MessagesDeletedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final transient Path directory;
    private final long firstMissing;
    private final long firstAvailable;
    private final String consumer;

    /**
     * @param directory      the queue directory
     * @param firstMissing   the first index that was wanted and is gone
     * @param firstAvailable the first index of the oldest file left (every index in between is gone)
     */
    public MessagesDeletedException(Path directory, long firstMissing, long firstAvailable) {
        this(directory, firstMissing, firstAvailable, null);
    }

    /**
     * @param directory      the queue directory
     * @param firstMissing   the first index that was wanted and is gone
     * @param firstAvailable the first index of the oldest file left (every index in between is gone)
     * @param consumer       the named consumer that wanted them, or null for a tailer without a name
     */
    public MessagesDeletedException(Path directory, long firstMissing, long firstAvailable, String consumer) {
        super("messages [" + firstMissing + ", " + firstAvailable + ") of queue " + Objects.requireNonNull(directory, "directory")
                + " were deleted by retention before " + (consumer == null ? "they were read" : "consumer " + consumer
                + " read them") + "; the oldest message left is " + firstAvailable);
        this.directory = directory;
        this.firstMissing = firstMissing;
        this.firstAvailable = firstAvailable;
        this.consumer = consumer;
    }

    /** The queue directory. */
    public Path directory() {
        return directory;
    }

    /** The first wanted index that is gone. */
    public long firstMissing() {
        return firstMissing;
    }

    /** The named consumer that wanted the messages ({@link NamedTailer#name()}), or null for a tailer without a name. */
    public String consumer() {
        return consumer;
    }

    /** The first index still in the queue (the first of the oldest file left); every index before it is gone. */
    public long firstAvailable() {
        return firstAvailable;
    }
}
