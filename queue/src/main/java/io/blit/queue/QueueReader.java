package io.blit.queue;

import io.blit.layout.LayoutDescriptor;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.Optional;

/**
 * What every reader of a {@link BlitQueue} can do, anonymous ({@link Tailer}) or named ({@link NamedTailer}): read
 * the next message into an object, to a handler or as bytes, wait for one, and tell what the last record read was.
 * Each implementation states where it starts and what a read records; the contract of each method is the
 * {@link Tailer}'s.
 *
 * <p>Not thread-safe: a reader belongs to the thread of its first read (or {@link #pretouch}); a call from another
 * thread throws {@link WrongThreadException}. Reads allocate nothing per message except when moving to the next
 * file.
 *
 * @param <T> the message class ({@link Void} for a raw queue)
 */
public interface QueueReader<T> extends AutoCloseable {
    /**
     * Reads the next message into {@code into} if one is committed, without waiting.
     *
     * @param into the object whose fields the message overwrites, of the next message's class
     * @return true if a message was read (and {@link #index()} advanced), false if none is ready
     * @throws IllegalArgumentException if the next message is of another of the queue's types than {@code into}'s
     *                                  class (it is not consumed)
     * @throws IllegalStateException    if the queue is raw, or this reader is closed
     * @throws QueueCorruptedException  if a record header or a file is invalid
     * @throws MessagesDeletedException if the next message's file was deleted by retention before it was read
     * @see Tailer#readNext
     */
    boolean readNext(T into);

    /**
     * Delivers the next record, of any of the queue's types, to {@code handler}, without waiting.
     *
     * @param handler receives the record, in this thread, before this method returns
     * @return true if a record was delivered, false if none is ready
     * @throws IllegalStateException    if the queue is raw, this reader is closed, or a type's instance cannot be
     *                                  created
     * @throws QueueCorruptedException  as {@link #readNext}
     * @throws MessagesDeletedException as {@link #readNext}
     * @see Tailer#read(MessageHandler)
     */
    boolean read(MessageHandler<? super T> handler);

    /**
     * Copies the next message's payload into {@code into} at offset 0 if one is committed, without waiting; any type.
     *
     * @param into where the payload is copied, from offset 0
     * @return the payload's length, or -1 if no message is ready
     * @throws IllegalArgumentException if the payload is longer than {@code into} (the message is not consumed)
     * @throws QueueCorruptedException  as {@link #readNext}
     * @throws MessagesDeletedException as {@link #readNext}
     */
    long readNextBytes(MemorySegment into);

    /**
     * Reads the next message into {@code into} with {@link #readNext}, waiting with {@code strategy} up to
     * {@code timeoutNanos}. The one wait loop of every reader: a first attempt without reading the clock (the common
     * case of a busy queue), then attempts between the strategy's idles until the time is up.
     *
     * @param into         the object the message is read into, as by {@link #readNext}
     * @param strategy     how to wait between attempts
     * @param timeoutNanos the longest wait, in nanoseconds; 0 or less: one attempt, no wait
     * @return true if a message was read, false on time-out (never blocks longer, even on a stuck record)
     * @throws NullPointerException if {@code strategy} is null
     */
    default boolean next(T into, WaitStrategy strategy, long timeoutNanos) {
        Objects.requireNonNull(strategy, "strategy");
        if (readNext(into)) {
            return true;
        }
        long start = System.nanoTime();
        for (int attempt = 0; ; attempt++) {
            if (System.nanoTime() - start >= timeoutNanos) {
                return false;
            }
            strategy.idle(attempt);
            if (readNext(into)) {
                return true;
            }
        }
    }

    /**
     * Reads the next message's bytes into {@code into} with {@link #readNextBytes}, waiting with {@code strategy} up
     * to {@code timeoutNanos}: the loop of {@link #next}, written out again rather than shared through a lambda so
     * that neither allocates per call.
     *
     * @param into         where the payload is copied, as by {@link #readNextBytes}
     * @param strategy     how to wait between attempts
     * @param timeoutNanos the longest wait, in nanoseconds; 0 or less: one attempt, no wait
     * @return the payload's length, or -1 on time-out
     * @throws NullPointerException     if {@code strategy} is null
     * @throws IllegalArgumentException as {@link #readNextBytes}, if {@code into} is too small for the message
     */
    default long nextBytes(MemorySegment into, WaitStrategy strategy, long timeoutNanos) {
        Objects.requireNonNull(strategy, "strategy");
        long length = readNextBytes(into);
        if (length >= 0) {
            return length;
        }
        long start = System.nanoTime();
        for (int attempt = 0; ; attempt++) {
            if (System.nanoTime() - start >= timeoutNanos) {
                return -1;
            }
            strategy.idle(attempt);
            length = readNextBytes(into);
            if (length >= 0) {
                return length;
            }
        }
    }

    /**
     * {@return the index of the last message read (any read method); before the first, the index before the
     * reader's start (for a named tailer, its committed index)}
     */
    long lastReadIndex();

    /**
     * Records that every message up to {@link #lastReadIndex()} is processed, where the reader keeps a position: a
     * {@link NamedTailer} stores it in the queue's positions file, and the next holder of its name starts after it;
     * a {@link Tailer} keeps no position, and this does nothing. Calling it once a message is processed gives
     * at-least-once delivery across restarts for named tailers, and costs a plain tailer nothing.
     *
     * @throws IllegalStateException as {@link NamedTailer#commit()}
     */
    default void commit() {
    }

    /** {@return the type id of the last record read (any read method), or -1 before the first or for raw payloads} */
    int lastTypeId();

    /** {@return the simple class name its file records for the last record's type, or null (raw, none read yet)} */
    String lastTypeName();

    /** {@return the layout its file records for the last record's type, or null (raw payloads, none read yet)} */
    LayoutDescriptor lastTypeLayout();

    /**
     * {@return the time (nanoseconds since the epoch, from the queue's clock) at which the last record read was
     * appended} 0 before the first, or for a record of a format-1 file, which carries none.
     */
    long lastTimeNanos();

    /** {@return how many records of unknown type ids this reader skipped or gave to {@code onUnknown}} */
    long unknownRecords();

    /**
     * {@return the claim at the next index that stops this reader, if any} Allocates and checks the writer's liveness:
     * for tools and diagnostics, not for a hot loop.
     *
     * @throws IllegalStateException if this reader is closed
     * @see Tailer#pendingClaim()
     */
    Optional<PendingClaim> pendingClaim();

    /**
     * Touches the pages of the current file up to {@code bytes} ahead, so that later reads take no page fault.
     *
     * @param bytes how far ahead to touch, >= 0
     * @return the number of bytes of the file covered
     * @see Tailer#pretouch(long)
     */
    long pretouch(long bytes);

    /** {@return the index of the next message this reader will return} */
    long index();

    /** Releases what this reader holds. Idempotent; from the reader's thread once it has read. */
    @Override
    void close();
}
