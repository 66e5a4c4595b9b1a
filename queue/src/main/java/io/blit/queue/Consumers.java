package io.blit.queue;

import io.blit.queue.internal.sidecar.ConsumerFile;
import io.blit.queue.internal.sidecar.ConsumerSlots;
import java.lang.foreign.Arena;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What {@link BlitQueue} does with its named consumers besides opening them: listing and removing, each with the
 * positions file mapped for the call in the caller's thread. Neither creates the file. Stateless; thread-safe.
 */
final class Consumers {
    private Consumers() {
    }

    /** Every named consumer of {@code queue}, in the order they were created. */
    static List<ConsumerPosition> list(BlitQueue<?> queue) {
        return snapshot(queue).positions();
    }

    /**
     * The named consumers and the end index their lags count from, read together: the end after the committed
     * indices, so every lag is at least 0 and {@code lag == end - committed - 1} holds within one snapshot.
     *
     * @param end       the queue's end index the lags count from
     * @param positions the consumers in creation order
     */
    record Snapshot(long end, List<ConsumerPosition> positions) {
    }

    /** {@return the consumers of {@code queue} and the end their lags count from} */
    static Snapshot snapshot(BlitQueue<?> queue) {
        try (Arena arena = Arena.ofConfined()) {
            ConsumerSlots slots = ConsumerFile.mapExisting(queue.directory(), arena, queue.files().readOnly(),
                    queue.files().writers());
            if (slots == null) {
                return new Snapshot(queue.endIndex(), List.of());
            }
            List<ConsumerSlots.Entry> entries = slots.entries();
            long end = queue.endIndex(); // after the committed indices: every one of them is below it
            List<ConsumerPosition> positions = new ArrayList<>(entries.size());
            for (ConsumerSlots.Entry entry : entries) {
                long holder = entry.holder();
                positions.add(new ConsumerPosition(entry.name(), entry.committed(), end - entry.committed() - 1,
                        holder != 0 && slots.isAlive(holder) ? OptionalLong.of(slots.pidOf(holder))
                                : OptionalLong.empty(),
                        entry.lastCommitMillis() == 0 ? Optional.empty()
                                : Optional.of(Instant.ofEpochMilli(entry.lastCommitMillis()))));
            }
            return new Snapshot(end, List.copyOf(positions));
        }
    }

    /**
     * Removes consumer {@code name}: claims it as an open would, marks its slot REMOVED, releases it.
     *
     * @return false if there is no such consumer
     */
    static boolean remove(BlitQueue<?> queue, String name) {
        queue.files().requireWritable("remove a consumer");
        byte[] bytes = ConsumerSlots.encodeName(Objects.requireNonNull(name, "name"));
        try (Arena arena = Arena.ofConfined()) {
            ConsumerSlots slots = ConsumerFile.mapExisting(queue.directory(), arena, queue.files().writers());
            int slot = slots == null ? -1 : slots.find(bytes);
            if (slot < 0) {
                return false;
            }
            slots.upgrade();
            long me = queue.files().writerId();
            if (!slots.claim(slot, name, me)) {
                return false; // removed meanwhile
            }
            try {
                return slots.markRemoved(slot, bytes);
            } finally {
                slots.release(slot, me);
            }
        }
    }
}
