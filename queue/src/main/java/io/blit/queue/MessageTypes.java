package io.blit.queue;

import io.blit.core.BlockCopier;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The message classes of a queue, each under a numeric type id its users choose and keep stable across releases (as
 * SBE's template ids: never derived from declaration order or a class name). Every file of the queue records each
 * type's id and layout; a record carries its type, so one queue holds many types in one order.
 *
 * <pre>{@code
 * MessageTypes<Event> types = MessageTypes.builder(Event.class)   // Event: a sealed interface, or Object
 *         .add(1, NewOrder.class)
 *         .add(2, Cancel.class)
 *         .add(3, Fill.class, Fill::new)                          // a factory, or the public no-arg constructor
 *         .build();
 * try (BlitQueue<Event> queue = BlitQueue.open(dir, types)) { ... }
 * }</pre>
 *
 * <p>Type ids are 0 to {@value #MAX_TYPE_ID}; at most {@value #MAX_TYPES} types, whose layouts
 * together must fit a file's 4 KiB header ({@link IllegalArgumentException} at {@link Builder#build()} otherwise). A
 * queue of one class ({@link BlitQueue#open(java.nio.file.Path, Class)}) is the queue of {@link #single} that class
 * under id 0. Immutable and thread-safe.
 *
 * @param <T> a supertype of every message class (the queue's type parameter)
 */
public final class MessageTypes<T> {
    /** The largest type id: a file's type table records each id as an unsigned 16-bit number. */
    public static final int MAX_TYPE_ID = SegmentFormat.MAX_TYPE_ID;
    /** The most types of a queue: a record names its type by its slot in the file's type table, in 7 bits. */
    public static final int MAX_TYPES = RecordHeader.MAX_TYPES;
    /**
     * The bytes a file's header holds for the type table: its 4096 bytes less the fixed fields before the table (80)
     * and the CRC after it (4). Each type takes 8 bytes (id and length) and its encoded layout (docs/format.md, "Type
     * table").
     */
    static final int TABLE_ROOM = SegmentFormat.HEADER_AREA - SegmentFormat.TABLE_OFFSET - 4;
    private static final int TABLE_ENTRY_HEAD = 8;

    /** In ascending type id order: an entry's position is its slot in the type table of the files appenders write. */
    private final TypeEntry<? extends T>[] entries;
    /** The first two entries (the second null for one type), compared before the {@link ClassValue} lookup. */
    private final TypeEntry<? extends T> first;
    private final TypeEntry<? extends T> second;
    private final ClassValue<TypeEntry<?>> byClass = new ClassValue<>() {
        @Override
        protected TypeEntry<?> computeValue(Class<?> type) {
            for (TypeEntry<?> entry : entries) {
                if (entry.type() == type) {
                    return entry;
                }
            }
            return null;
        }
    };

    private MessageTypes(List<TypeEntry<? extends T>> sorted) {
        @SuppressWarnings("unchecked")
        TypeEntry<? extends T>[] array = sorted.toArray(new TypeEntry[0]);
        this.entries = array;
        this.first = array[0];
        this.second = array.length > 1 ? array[1] : null;
        long tableLength = typeTableLength();
        if (tableLength > TABLE_ROOM) {
            throw new IllegalArgumentException("the layouts of " + array.length + " message type(s) take " + tableLength
                    + " bytes; a segment file's header holds at most " + TABLE_ROOM + " (docs/format.md, \"Type table\")");
        }
    }

    /** The bytes of the type table that files written with these types record. */
    long typeTableLength() {
        long length = 0;
        for (TypeEntry<?> entry : entries) {
            length += TABLE_ENTRY_HEAD + entry.copier().layout().descriptor().encodedSize();
        }
        return length;
    }

    /**
     * {@return the types of a queue of one message class: {@code type} under id 0, instances from its no-arg
     * constructor}
     *
     * @param <T>  the message class
     * @param type the message class, trivially copyable
     */
    public static <T> MessageTypes<T> single(Class<T> type) {
        return MessageTypes.builder(type).add(0, type).build();
    }

    /**
     * {@return a builder of the types of a queue whose messages are all {@code T}s}
     *
     * @param <T>    the common supertype
     * @param common the common supertype of the message classes: a sealed interface, a base class, Object
     */
    public static <T> Builder<T> builder(Class<T> common) {
        return new Builder<>(Objects.requireNonNull(common, "common"));
    }

    /** {@return how many types} */
    public int size() {
        return entries.length;
    }

    /** {@return the type ids, ascending, in a new array} */
    public int[] typeIds() {
        return Arrays.stream(entries).mapToInt(TypeEntry::typeId).toArray();
    }

    /**
     * {@return the class of type id {@code typeId}, or null if there is none}
     *
     * @param typeId a type id
     */
    public Class<? extends T> type(int typeId) {
        TypeEntry<? extends T> entry = entryOf(typeId);
        return entry == null ? null : entry.type();
    }

    /**
     * {@return the type id of {@code type}, or -1 if it is none of these types}
     *
     * @param type a class; a subclass of one of these types is not that type
     */
    public int typeId(Class<?> type) {
        TypeEntry<?> entry = byClass.get(type);
        return entry == null ? -1 : entry.typeId();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("MessageTypes[");
        for (TypeEntry<?> entry : entries) {
            text.append(text.length() > 13 ? ", " : "").append(entry.typeId()).append('=')
                    .append(entry.type().getSimpleName());
        }
        return text.append(']').toString();
    }

    // ---- for the queue

    /**
     * The entry of {@code type} in O(1) with no allocation, or null if it is none of these: two reference comparisons
     * (a queue of one or two types), else a {@link ClassValue} lookup (a few loads more, measured in
     * docs/queue-performance.md).
     */
    TypeEntry<?> entryFor(Class<?> type) {
        if (first.type() == type) {
            return first;
        }
        TypeEntry<?> other = second;
        return other != null && other.type() == type ? other : byClass.get(type);
    }

    TypeEntry<? extends T> entryOf(int typeId) {
        for (TypeEntry<? extends T> entry : entries) {
            if (entry.typeId() == typeId) {
                return entry;
            }
        }
        return null;
    }

    TypeEntry<? extends T> entry(int slot) {
        return entries[slot];
    }

    /**
     * Builds {@link MessageTypes}. Not thread-safe.
     *
     * @param <T> the common supertype
     */
    public static final class Builder<T> {
        private final Class<T> common;
        private final List<TypeEntry<? extends T>> entries = new ArrayList<>();

        private Builder(Class<T> common) {
            this.common = common;
        }

        /**
         * Adds {@code type} under {@code typeId}; tailers that deliver to a {@link MessageHandler} create their one
         * instance of it with its public no-arg constructor.
         *
         * @param <C>    the message class
         * @param typeId the type id, 0 to {@value MessageTypes#MAX_TYPE_ID}, unique among these types
         * @param type   the message class, trivially copyable
         * @return this builder
         * @throws IllegalArgumentException as {@link #add(int, Class, Supplier)}
         */
        public <C extends T> Builder<T> add(int typeId, Class<C> type) {
            return add(typeId, type, () -> TypeEntry.construct(type));
        }

        /**
         * Adds {@code type} under {@code typeId}, with the factory of the one instance per tailer that a
         * {@link MessageHandler} is given.
         *
         * @param <C>     the message class
         * @param typeId  the type id, 0 to {@value MessageTypes#MAX_TYPE_ID}, unique among these types
         * @param type    the message class, trivially copyable, a subtype of the common type
         * @param factory creates the instance; called by each tailer that needs one
         * @return this builder
         * @throws IllegalArgumentException if {@code typeId} is not in [0, 65535] or already used, {@code type} is
         *                                  already added or is not a subtype of the common type
         * @throws io.blit.layout.NotTriviallyCopyableException if {@code type} is not trivially copyable
         */
        public <C extends T> Builder<T> add(int typeId, Class<C> type, Supplier<? extends C> factory) {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(factory, "factory");
            if (typeId < 0 || typeId > MAX_TYPE_ID) {
                throw new IllegalArgumentException("type id " + typeId + " of " + type.getName() + " is not in [0, "
                        + MAX_TYPE_ID + "]");
            }
            if (!common.isAssignableFrom(type)) {
                throw new IllegalArgumentException(type.getName() + " is not a " + common.getName());
            }
            for (TypeEntry<?> entry : entries) {
                if (entry.typeId() == typeId || entry.type() == type) {
                    throw new IllegalArgumentException("type id " + typeId + " or class " + type.getName()
                            + " is already used by " + entry.typeId() + "=" + entry.type().getName());
                }
            }
            entries.add(new TypeEntry<>(typeId, type, BlockCopier.of(type), factory));
            return this;
        }

        /**
         * {@return the types added, in ascending id order}
         *
         * @throws IllegalArgumentException if none was added, more than {@value MessageTypes#MAX_TYPES} were, or their
         *                                  layouts do not fit a file's header
         */
        public MessageTypes<T> build() {
            if (entries.isEmpty() || entries.size() > MAX_TYPES) {
                throw new IllegalArgumentException(entries.size() + " message types; a queue has 1 to "
                        + MAX_TYPES);
            }
            List<TypeEntry<? extends T>> sorted = new ArrayList<>(entries);
            sorted.sort(Comparator.comparingInt(TypeEntry::typeId));
            List<TypeEntry<? extends T>> slotted = new ArrayList<>(sorted.size());
            for (int slot = 0; slot < sorted.size(); slot++) {
                slotted.add(sorted.get(slot).inSlot(slot));
            }
            return new MessageTypes<>(slotted);
        }
    }
}
