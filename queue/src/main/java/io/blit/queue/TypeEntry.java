package io.blit.queue;

import io.blit.core.BlockCopier;
import io.blit.queue.internal.format.RecordHeader;
import java.lang.reflect.InvocationTargetException;
import java.util.function.Supplier;

/**
 * One message type of a {@link MessageTypes}: its id, its slot in the type table of the files its appenders write, its
 * copier, and what an append of it stores, computed once: the record's length and its CLAIMED word with the claimer
 * field 0 (both counting the record's time), into which an appender ORs its writer id, both encoded by the format's
 * {@link RecordHeader} (docs/format.md, "Records").
 * Immutable and thread-safe.
 *
 * @param <C> the message class
 */
record TypeEntry<C>(int typeId, Class<C> type, BlockCopier<C> copier, Supplier<? extends C> factory, int slot,
                    long recordLength, long claimWord) {
    TypeEntry(int typeId, Class<C> type, BlockCopier<C> copier, Supplier<? extends C> factory) {
        this(typeId, type, copier, factory, -1, recordLengthOf(copier.byteSize()), 0L);
    }

    /** The bytes a record of a {@code payloadLength}-byte message occupies: word, time and payload, rounded up to 8. */
    static long recordLengthOf(long payloadLength) {
        return RecordHeader.messageRecordLength(payloadLength);
    }

    /**
     * The CLAIMED word, claimer field 0, of a record of type slot {@code slot} (0 to 127) holding a
     * {@code payloadLength}-byte message (the length field counts the time too).
     */
    static long claimWordOf(int slot, int payloadLength) {
        return RecordHeader.claimed(0, slot, payloadLength + RecordHeader.TIME_LENGTH);
    }

    TypeEntry<C> inSlot(int slot) {
        return new TypeEntry<>(typeId, type, copier, factory, slot, recordLength,
                claimWordOf(slot, (int) copier.byteSize()));
    }

    /** A new instance from the factory, checked to be of exactly this type (a subclass has another block). */
    C newInstance() {
        C instance = factory.get();
        if (instance == null || instance.getClass() != type) {
            throw new IllegalStateException("the factory of message type " + typeId + " (" + type.getName()
                    + ") gave " + (instance == null ? "null" : "a " + instance.getClass().getName()));
        }
        return instance;
    }

    static <C> C construct(Class<C> type) {
        try {
            return type.getConstructor().newInstance();
        } catch (NoSuchMethodException | IllegalAccessException | InstantiationException e) {
            throw new IllegalStateException(type.getName() + " has no public no-arg constructor a tailer can create "
                    + "its instance with: add it to MessageTypes with a factory", e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("the no-arg constructor of " + type.getName() + " failed", e.getCause());
        }
    }
}
