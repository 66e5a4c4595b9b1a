package io.blit.queue;

import java.lang.foreign.MemorySegment;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link MessageHandler} made of one handler per message class, found for each message in O(1) with no allocation
 * (a {@link ClassValue}). Messages of a class without a handler are ignored (a consumer often needs a few of a queue's
 * types); records of unknown type ids go to {@link Builder#onUnknown}, skipped by default.
 *
 * <pre>{@code
 * MessageHandler<Object> handler = TypeHandlers.builder()
 *         .on(MarketData.class, (index, md) -> prices.update(md))
 *         .on(BookUpdate.class, (index, book) -> books.apply(book))
 *         .build();
 * while (tailer.read(handler)) { }
 * }</pre>
 *
 * Immutable and thread-safe if its handlers are.
 */
public final class TypeHandlers implements MessageHandler<Object> {
    private final Map<Class<?>, MessageHandler<Object>> handlers;
    private final MessageHandler<Object> unknown;
    private final ClassValue<MessageHandler<Object>> byClass = new ClassValue<>() {
        @Override
        protected MessageHandler<Object> computeValue(Class<?> type) {
            return handlers.getOrDefault(type, IGNORE);
        }
    };
    private static final MessageHandler<Object> IGNORE = (index, message) -> { };

    private TypeHandlers(Map<Class<?>, MessageHandler<Object>> handlers, MessageHandler<Object> unknown) {
        this.handlers = new IdentityHashMap<>(handlers);
        this.unknown = unknown;
    }

    /** {@return a builder with no handler yet} */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void onMessage(long index, Object message) {
        byClass.get(message.getClass()).onMessage(index, message);
    }

    @Override
    public void onUnknown(long index, int typeId, MemorySegment payload) {
        unknown.onUnknown(index, typeId, payload);
    }

    /** Builds {@link TypeHandlers}; not thread-safe. */
    public static final class Builder {
        private final Map<Class<?>, MessageHandler<Object>> handlers = new IdentityHashMap<>();
        private MessageHandler<Object> unknown = IGNORE;

        private Builder() {
        }

        /**
         * Delivers messages of exactly {@code type} (not its subclasses) to {@code handler}.
         *
         * @param <C>     the message class
         * @param type    the exact class of the messages to deliver
         * @param handler receives each message of {@code type} with its index
         * @return this builder
         * @throws IllegalArgumentException if {@code type} already has a handler
         */
        public <C> Builder on(Class<C> type, MessageHandler<? super C> handler) {
            Objects.requireNonNull(handler, "handler");
            if (handlers.containsKey(Objects.requireNonNull(type, "type"))) {
                throw new IllegalArgumentException(type.getName() + " already has a handler");
            }
            handlers.put(type, (index, message) -> handler.onMessage(index, type.cast(message)));
            return this;
        }

        /**
         * Delivers records of type ids the reading queue does not know to {@code handler} (default: skip).
         *
         * @param handler receives each such record, replacing any handler given before
         * @return this builder
         */
        public Builder onUnknown(UnknownHandler handler) {
            Objects.requireNonNull(handler, "handler");
            this.unknown = new MessageHandler<>() {
                @Override
                public void onMessage(long index, Object message) {
                }

                @Override
                public void onUnknown(long index, int typeId, MemorySegment payload) {
                    handler.onUnknown(index, typeId, payload);
                }
            };
            return this;
        }

        /** {@return the handler of the classes added so far; later changes to this builder do not affect it} */
        public TypeHandlers build() {
            return new TypeHandlers(handlers, unknown);
        }
    }

    /** Receives the records of unknown type ids ({@link MessageHandler#onUnknown}). */
    @FunctionalInterface
    public interface UnknownHandler {
        /**
         * Called with a record whose type id the reading queue does not know, as {@link MessageHandler#onUnknown}.
         *
         * @param index   the record's index in the queue
         * @param typeId  the record's type id, as its file records it
         * @param payload the record's bytes as stored, a read-only view valid only during this call
         */
        void onUnknown(long index, int typeId, MemorySegment payload);
    }
}
