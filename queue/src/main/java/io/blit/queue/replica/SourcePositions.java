package io.blit.queue.replica;

import io.blit.queue.internal.format.ConsumerFormat;
import io.blit.queue.internal.sidecar.ConsumerFile;
import io.blit.queue.internal.sidecar.ConsumerSlots;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A replication source's view of its queue's named consumers: the positions file ({@code consumers.blitc},
 * docs/format.md "The positions file") mapped read-only, read slot by slot as stored. Once the file is mapped, every
 * read is one load or one bulk copy out of the mapping: nothing is allocated, so a source can look at every slot
 * every 100 ms for as long as it runs.
 *
 * <p>The file is created by the first named consumer of the queue, possibly long after the source started:
 * {@link #available()} maps it once it exists, and only then is anything else called. The file is never replaced
 * once created (its creation is all-or-nothing), so one mapping serves the source's life.
 *
 * <p>Not thread-safe: confined to the thread that first calls {@link #available()} (the mapping's arena is
 * confined to it).
 */
public final class SourcePositions implements AutoCloseable {
    /** {@link #kind}: a FREE slot, or none: the used prefix of the slots ends here. */
    public static final int END = 0;
    /** {@link #kind}: a slot being created (CLAIMING): not a consumer yet. */
    public static final int CREATING = 1;
    /** {@link #kind}: a named consumer. */
    public static final int READY = 2;
    /** {@link #kind}: a removed consumer; the slot keeps its name until it is reused for another. */
    public static final int REMOVED = 3;
    /** The most bytes of a name, the length {@link #copyName} copies. */
    public static final int NAME_BYTES = ConsumerFormat.MAX_NAME_LENGTH;

    private final Path dir;
    private final Path file;
    private Arena arena;
    private ConsumerSlots slots;

    private SourcePositions(Path dir) {
        this.dir = dir;
        this.file = ConsumerFile.path(dir);
    }

    /** {@return the named consumers of the queue in {@code dir}; nothing is opened until {@link #available()}} */
    public static SourcePositions of(Path dir) {
        return new SourcePositions(dir);
    }

    /**
     * {@return whether the positions file is mapped: maps it if it has come to exist since the last call} A call
     * while the file is absent costs a look at the directory (a system call and a few objects): call it at a bounded
     * rate.
     *
     * @throws io.blit.queue.QueueCorruptedException if the file's header is invalid
     * @throws java.io.UncheckedIOException          if it cannot be mapped
     */
    public boolean available() {
        if (slots != null) {
            return true;
        }
        if (!Files.exists(file)) {
            return false;
        }
        Arena mapping = Arena.ofConfined();
        try {
            slots = ConsumerFile.mapExisting(dir, mapping, true, null);
        } catch (RuntimeException | Error e) {
            mapping.close();
            throw e;
        }
        if (slots == null) { // deleted between the look and the map
            mapping.close();
            return false;
        }
        arena = mapping;
        return true;
    }

    /** {@return the number of slots of the mapped file} */
    public int slotCount() {
        return slots.slotCount();
    }

    /**
     * {@return the state word of slot {@code k} (acquire load)} It changes whenever the slot's name is created,
     * removed or revived; compare it to see whether a slot is what it was.
     *
     * @param k a slot, 0 to {@link #slotCount()} - 1
     */
    public long stateWord(int k) {
        return slots.stateWord(k);
    }

    /** {@return what {@code stateWord} (of {@link #stateWord}) says: {@link #END}, {@link #CREATING}, {@link #READY} or {@link #REMOVED}} */
    public static int kind(long stateWord) {
        return (int) (stateWord >>> 62);
    }

    /** {@return the length of the name of a READY or REMOVED slot with {@code stateWord}, as the word states it} */
    public static int nameLength(long stateWord) {
        return (int) ((stateWord >>> 32) & ((1L << 30) - 1));
    }

    /** {@return the index slot {@code k}'s consumer committed last (acquire load); -1: none} */
    public long committed(int k) {
        return slots.committed(k);
    }

    /** {@return when slot {@code k}'s consumer committed last, epoch milliseconds; 0: never} */
    public long lastCommitMillis(int k) {
        return slots.lastCommitMillis(k);
    }

    /**
     * Copies slot {@code k}'s {@value #NAME_BYTES} name bytes (the name, zero-padded, as stored) to {@code into} at
     * {@code offset}. Nothing is allocated. A REMOVED slot may be given to another name while it is copied (slots are
     * reused, docs/format.md "The positions file"): load {@link #stateWord} again after the copy (after an acquire
     * fence) and drop the copy if the word changed.
     *
     * @throws IndexOutOfBoundsException if {@code into} has no room for them at {@code offset}
     */
    public void copyName(int k, MemorySegment into, long offset) {
        slots.copyName(k, into, offset);
    }

    /** Unmaps the file. Idempotent. */
    @Override
    public void close() {
        if (arena != null) {
            arena.close();
            arena = null;
            slots = null;
        }
    }
}
