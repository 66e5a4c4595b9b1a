package io.blit.queue;

/**
 * Fills a message once its index in the queue is known: called by
 * {@link Appender#append(Object, IndexedFiller)} after the record is claimed and before the message is
 * copied into it, so a message can carry its own index (a sequence number that is exact even with
 * concurrent appenders in several processes).
 *
 * <p>Called on the appender's thread, at most once per append, while the record is claimed but not yet
 * visible to tailers: keep it short (other appenders continue behind the claim, but tailers wait for it).
 * If it throws, the claim is abandoned — tailers skip that index — and the exception propagates.
 *
 * @param <T> the message class
 */
@FunctionalInterface
public interface IndexedFiller<T> {
    /**
     * Writes into {@code message} whatever depends on its index.
     *
     * @param message the message passed to {@code append}
     * @param index   the index the message gets in the queue
     */
    void fill(T message, long index);
}
