package io.blit.queue;

/**
 * A tailer's one instance of each of its queue's message types, created by the type's factory when a record of the
 * type is first delivered, then reused for every record of it. Not thread-safe: it belongs to its tailer.
 */
final class TypeInstances {
    private final MessageTypes<?> types;
    private final Object[] instances;

    TypeInstances(MessageTypes<?> types) {
        this.types = types;
        this.instances = new Object[types.size()];
    }

    /**
     * The instance of the type in queue slot {@code slot}.
     *
     * @throws IllegalStateException if the type's factory fails or gives an instance of another class
     */
    Object of(int slot) {
        Object instance = instances[slot];
        if (instance == null) {
            instance = types.entry(slot).newInstance();
            instances[slot] = instance;
        }
        return instance;
    }
}
