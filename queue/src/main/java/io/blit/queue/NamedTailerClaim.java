package io.blit.queue;

import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.sidecar.ConsumerFile;
import io.blit.queue.internal.sidecar.ConsumerSlots;
import java.lang.foreign.Arena;
import java.util.Objects;

/**
 * What opening a {@link NamedTailer} claims: the mapping of the queue's positions file, the name's slot in it (held by
 * this process) and a tailer after the name's committed index.
 *
 * @param arena     the shared arena of the positions file's mapping (the tailer may be created in one thread and used
 *                  in another)
 * @param slots     the positions file
 * @param slot      the name's slot, claimed
 * @param tailer    the reader at {@code committed + 1}, or null if that index was deleted
 * @param committed the index committed under the name
 * @param <T>       the message class ({@link Void} for a raw queue)
 */
record NamedTailerClaim<T>(Arena arena, ConsumerSlots slots, int slot, Tailer<T> tailer, long committed) {
    /**
     * Maps the positions file (creating it), finds or creates the name's slot (a new name's start recorded as the
     * commit of the index before it), claims it and positions a tailer after its committed index. On failure nothing
     * stays claimed or mapped.
     */
    static <T> NamedTailerClaim<T> claim(BlitQueue<T> queue, String name, NamedTailer.Options options) {
        Objects.requireNonNull(options, "options");
        byte[] bytes = ConsumerSlots.encodeName(Objects.requireNonNull(name, "name"));
        Arena arena = Arena.ofShared(); // the tailer may be created in one thread and used in another
        try {
            ConsumerSlots slots = ConsumerFile.mapOrCreate(queue.directory(), queue.files().privateFiles(), arena,
                    queue.files().writers());
            slots.upgrade();
            long me = queue.files().writerId();
            while (true) {
                int slot = slots.find(bytes);
                Tailer<T> fresh = null;
                if (slot < 0) {
                    fresh = start(queue, options);
                    slot = slots.findOrCreate(bytes, fresh.index() - 1, me);
                }
                boolean claimed = slots.claim(slot, name, me);
                if (!claimed || !slots.isReady(slot, bytes)) { // removed (perhaps reused) meanwhile: create it again
                    if (claimed) {
                        slots.release(slot, me);
                    }
                    if (fresh != null) {
                        fresh.close();
                    }
                    continue;
                }
                try {
                    long committed = slots.committed(slot);
                    Tailer<T> tailer = fresh != null && fresh.index() == committed + 1 ? fresh : resume(queue, name, committed);
                    if (fresh != null && tailer != fresh) {
                        fresh.close(); // another creator's start won; nothing of it is mapped
                    }
                    return new NamedTailerClaim<>(arena, slots, slot, tailer, committed);
                } catch (RuntimeException | Error e) {
                    slots.release(slot, me);
                    throw e;
                }
            }
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    private static <T> Tailer<T> start(BlitQueue<T> queue, NamedTailer.Options options) {
        return switch (options.start()) {
            case START -> Tailer.atStart(queue);
            case END -> Tailer.atEnd(queue);
            case INDEX -> Tailer.atIndex(queue, options.startIndex());
        };
    }

    /** A tailer after {@code committed}, or null if that index was deleted. */
    private static <T> Tailer<T> resume(BlitQueue<T> queue, String name, long committed) {
        try {
            return Tailer.atIndex(queue, committed + 1);
        } catch (MessagesDeletedException deleted) {
            return null;
        } catch (IllegalArgumentException beyondEnd) {
            throw QueueErrors.consumerBeyondEnd(queue.directory(), name, committed, beyondEnd);
        }
    }
}
