package io.blit.tools.latency;

/**
 * The producer end of one message kind on a queue: builds message {@code sequence} carrying its intended send
 * time and appends it. Owns its queue and appender; belongs to the thread that first sends (the appender's
 * mapping is confined to it) and must be closed there.
 */
public interface MessageSender extends AutoCloseable {
    /** Builds message {@code sequence} (its kind's deterministic content) with {@code intendedNanos} and appends it. */
    void send(long sequence, long intendedNanos);

    /**
     * Touches (for writing) the first {@code bytes} bytes this sender will write, in the sending thread, so that the
     * measured sends take no page fault ({@link io.blit.queue.Appender#pretouch}). Called once before the schedule.
     */
    void pretouch(long bytes);

    /** Closes the appender and the queue (in the sending thread). */
    @Override
    void close();
}
