package io.blit.queue.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.ConsumerPosition;
import io.blit.queue.NamedTailer;
import io.blit.queue.QueueOptions;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica's copy of its source's named consumers ({@link ReplicaPositions}) and what a source reads of its own
 * ({@link SourcePositions}): positions are stored never past the replica's end, move either way, create the positions
 * file at the first one, revive and remove names; the source reads them back slot by slot.
 */
class ReplicaPositionsTest {
    private static final QueueOptions SMALL = QueueOptions.defaults().segmentSize(1 << 20);

    @TempDir
    Path dir;

    @Test
    void positionsAreStoredNeverPastTheEndAndMoveEitherWay() {
        appendRaw(10);
        assertFalse(Files.exists(dir.resolve("consumers.blitc")));
        try (ReplicaPositions positions = ReplicaPositions.open(dir, false)) {
            assertFalse(positions.remove("c"), "no file, no consumer");
            assertFalse(Files.exists(dir.resolve("consumers.blitc")), "a removal creates no file");
            assertEquals(9, positions.follow("c", 50, 1_795_000_000_000L, 10), "beyond the end: stored at end - 1");
            assertEquals(4, positions.follow("d", 4, 0, 10));
            assertEquals(-1, positions.follow("e", 7, 0, -1), "a replica that holds nothing: -1");
            assertEquals(Map.of("c", 9L, "d", 4L, "e", -1L), consumers());
            assertEquals(2, positions.follow("c", 2, 1_795_000_000_001L, 10), "backwards");
            assertEquals(Map.of("c", 2L, "d", 4L, "e", -1L), consumers());
            assertTrue(positions.remove("d"));
            assertFalse(positions.remove("d"), "removed already");
            assertEquals(Map.of("c", 2L, "e", -1L), consumers());
            assertEquals(6, positions.follow("d", 6, 0, 10), "a removed name revived");
            assertEquals(Map.of("c", 2L, "d", 6L, "e", -1L), consumers());
            assertThrows(IllegalArgumentException.class, () -> positions.follow("c", -2, 0, 10));
            assertThrows(IllegalArgumentException.class, () -> positions.follow("a/b", 1, 0, 10));
        }
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir)) {
            ConsumerPosition c = queue.consumers().getFirst();
            assertEquals("c", c.name());
            assertEquals(Instant.ofEpochMilli(1_795_000_000_001L), c.lastCommit().orElseThrow());
            assertTrue(c.holderPid().isEmpty(), "replication holds no name");
        }
    }

    @Test
    void aNameHeldLocallyTakesTheSourcesPositionAndStaysHeld() {
        appendRaw(10);
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir);
             NamedTailer<Void> local = queue.tailer("c");
             ReplicaPositions positions = ReplicaPositions.open(dir, false)) {
            local.seek(3);
            local.commit();
            assertEquals(7, positions.follow("c", 7, 0, 10));
            assertEquals(7, local.committedIndex(), "the source's position overwrites the local commit");
            local.commit(); // the holder still holds the name: its commit goes through
            assertEquals(2, local.committedIndex());
        }
    }

    @Test
    void aSourceReadsEachSlotAsStored() {
        appendRaw(10);
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir);
             SourcePositions source = SourcePositions.of(dir);
             Arena arena = Arena.ofConfined()) {
            assertFalse(source.available(), "no positions file yet");
            try (NamedTailer<Void> a = queue.tailer("alpha"); NamedTailer<Void> b = queue.tailer("b")) {
                a.seek(5);
                a.commit();
                b.seek(1);
                b.commit();
            }
            assertTrue(queue.removeConsumer("b"));
            assertTrue(source.available());
            MemorySegment name = arena.allocate(SourcePositions.NAME_BYTES);
            long alpha = source.stateWord(0);
            assertEquals(SourcePositions.READY, SourcePositions.kind(alpha));
            assertEquals(5, SourcePositions.nameLength(alpha));
            assertEquals(4, source.committed(0));
            source.copyName(0, name, 0);
            assertEquals("alpha", new String(name.asSlice(0, 5).toArray(ValueLayout.JAVA_BYTE)));
            assertEquals(0, name.get(ValueLayout.JAVA_BYTE, 5), "zero-padded");
            assertEquals(SourcePositions.REMOVED, SourcePositions.kind(source.stateWord(1)));
            assertEquals(SourcePositions.END, SourcePositions.kind(source.stateWord(2)));
            assertEquals(1023, source.slotCount());
        }
    }

    /**
     * A source that creates and removes names without end: the replica's slots follow its removals and are reused, so
     * 3,000 distinct names go through a file of 1023 slots; the last {@link ReplicaPositions#RESERVED_SLOTS} still
     * stay for the replica's own consumers.
     */
    @Test
    void aSourceThatCreatesAndRemovesNamesForeverNeverFillsTheFileAndTheReserveHolds() {
        appendRaw(10);
        try (ReplicaPositions positions = ReplicaPositions.open(dir, false)) {
            for (int i = 0; i < 3000; i++) {
                assertEquals(5, positions.follow("gone-" + i, 5, 0, 10));
                assertTrue(positions.remove("gone-" + i));
            }
            int kept = 1023 - ReplicaPositions.RESERVED_SLOTS;
            for (int i = 0; i < kept; i++) {
                positions.follow("live-" + i, 1, 0, 10);
            }
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> positions.follow("one-more", 1, 0, 10));
            assertTrue(refused.getMessage().contains("the last 64 are kept"), refused.getMessage());
            assertTrue(positions.remove("live-0"));
            assertEquals(1, positions.follow("one-more", 1, 0, 10), "a removal makes room");
            assertEquals(kept, consumers().size());
        }
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir)) {
            for (int i = 0; i < ReplicaPositions.RESERVED_SLOTS; i++) {
                queue.tailer("own-" + i).close(); // the replica's own consumers get every reserved slot
            }
            assertEquals(1023, queue.consumers().size());
        }
    }

    private void appendRaw(int records) {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, SMALL); Appender<Void> appender = queue.appender()) {
            for (int i = 0; i < records; i++) {
                appender.append(MemorySegment.ofArray(new byte[] {1, 2, 3, 4, 5, 6, 7, (byte) i}));
            }
        }
    }

    private Map<String, Long> consumers() {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir)) {
            return queue.consumers().stream()
                    .collect(Collectors.toMap(ConsumerPosition::name, ConsumerPosition::committedIndex));
        }
    }
}
