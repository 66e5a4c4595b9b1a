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
public final class MessagesDeletedException extends QueueException {
    private static final long serialVersionUID = 1L;

    private final transient Path directory;
    /** The first wanted index that is gone. */
    private final long firstMissing;
    /** The first index of the oldest file left. */
    private final long firstAvailable;
    /** The named consumer that wanted the messages, or null. */
    private final String consumer;

    /**
     * An exception for a tailer without a name.
     *
     * @param directory      the queue directory
     * @param firstMissing   the first index that was wanted and is gone
     * @param firstAvailable the first index of the oldest file left (every index in between is gone)
     */
    public MessagesDeletedException(Path directory, long firstMissing, long firstAvailable) {
        this(directory, firstMissing, firstAvailable, null);
    }

    /**
     * An exception for the named consumer {@code consumer}, or for a tailer without a name.
     *
     * @param directory      the queue directory
     * @param firstMissing   the first index that was wanted and is gone
     * @param firstAvailable the first index of the oldest file left (every index in between is gone)
     * @param consumer       the named consumer that wanted them, or null for a tailer without a name
     */
    public MessagesDeletedException(Path directory, long firstMissing, long firstAvailable, String consumer) {
        super(Category.DELETED, "messages [" + firstMissing + ", " + firstAvailable + ") of queue " + Objects.requireNonNull(directory, "directory")
                + " were deleted by retention before " + (consumer == null ? "they were read" : "consumer " + consumer
                + " read them") + "; the oldest message left is " + firstAvailable);
        this.directory = directory;
        this.firstMissing = firstMissing;
        this.firstAvailable = firstAvailable;
        this.consumer = consumer;
    }

    /** {@return the queue directory} */
    public Path directory() {
        return directory;
    }

    /** {@return the first wanted index that is gone} */
    public long firstMissing() {
        return firstMissing;
    }

    /**
     * {@return the named consumer that wanted the messages ({@link NamedTailer#name()}), or null for a tailer without
     * a name}
     */
    public String consumer() {
        return consumer;
    }

    /** {@return the first index still in the queue, that of the oldest file left} Every index before it is gone. */
    public long firstAvailable() {
        return firstAvailable;
    }
}
