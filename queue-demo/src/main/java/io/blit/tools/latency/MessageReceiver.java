package io.blit.tools.latency;

/**
 * The consumer end of one message kind on a queue: reads (and decodes) the next message without waiting. Owns its
 * queue and tailer; belongs to the thread that first polls and must be closed there.
 */
public interface MessageReceiver extends AutoCloseable {
    /**
     * Reads and decodes the next message if one is committed, without waiting.
     *
     * @return true if a message was read; {@link #sequence()} and {@link #intendedNanos()} then describe it
     */
    boolean poll();

    /**
     * Touches (for reading) the first {@code bytes} bytes this receiver will read, in the receiving thread, so that the
     * measured reads take no page fault ({@link io.blit.queue.Tailer#pretouch}). Called once before the schedule.
     */
    void pretouch(long bytes);

    /** The sequence number of the message last read. */
    long sequence();

    /** The intended send time ({@link System#nanoTime()} scale) carried by the message last read. */
    long intendedNanos();

    /**
     * Checks that the message last read has the content its kind defines for {@code sequence}.
     *
     * @throws IllegalStateException naming the sequence and the message if it does not
     */
    void verify(long sequence);

    /** Closes the tailer and the queue (in the polling thread). */
    @Override
    void close();
}
