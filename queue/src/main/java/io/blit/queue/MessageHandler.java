package io.blit.queue;

import java.lang.foreign.MemorySegment;

/**
 * Receives the messages a {@link Tailer} reads with {@link Tailer#read(MessageHandler)}: each in the queue's order, in
 * the tailer's one reused instance of its type (valid until the next read: copy what you keep). With a sealed interface
 * over the message classes, a {@code switch} with patterns dispatches:
 *
 * <pre>{@code
 * tailer.read((index, event) -> {
 *     switch (event) {
 *         case NewOrder order -> book.add(order);
 *         case Cancel cancel -> book.remove(cancel);
 *         case Fill fill -> risk.apply(fill);
 *     }
 * });
 * }</pre>
 *
 * or {@link TypeHandlers} gives one handler per class. Called in the tailer's thread.
 *
 * @param <T> the queue's common message type
 */
@FunctionalInterface
public interface MessageHandler<T> {
    /**
     * Called with each message of a type the reading queue knows, and its index.
     *
     * @param index   the message's index in the queue
     * @param message the tailer's reused instance of the message's type, holding the message until the next read
     */
    void onMessage(long index, T message);

    /**
     * Called instead for a record whose type id the reading queue does not know (written by a newer writer, or a type
     * this reader left out); such a record is never read as another type. The default skips it; the tailer counts
     * it ({@link Tailer#unknownRecords()}) either way.
     *
     * @param index   the record's index in the queue
     * @param typeId  the record's type id, as its file records it
     * @param payload the record's bytes as stored, a read-only view valid only during this call
     */
    default void onUnknown(long index, int typeId, MemorySegment payload) {
    }
}
