package io.blit.queue.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.BlitQueue;
import io.blit.queue.ConsumerHeldException;
import io.blit.queue.NamedTailer;
import io.blit.queue.QueueCorruptedException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The positions file's slots: creation as a prefix, capacity, takeover of dead claimers and holders, corruption. */
class ConsumerSlotsTest {
    @TempDir
    Path dir;

    /** This process's identity as an earlier process of the same pid would have had it: another start time. */
    private static long earlierProcessWithThisPid() {
        long current = ProcessIdentity.current();
        long stamp = (ProcessIdentity.stamp(current) + 1000) & ProcessIdentity.STAMP_MASK;
        return stamp << 32 | ProcessIdentity.pid(current);
    }

    private static long word(MemorySegment file, int slot, int field) {
        return file.get(ValueLayout.JAVA_LONG, ConsumerFile.HEADER_LENGTH + (long) slot * ConsumerFile.SLOT_SIZE + field);
    }

    private static void setWord(MemorySegment file, int slot, int field, long value) {
        file.set(ValueLayout.JAVA_LONG, ConsumerFile.HEADER_LENGTH + (long) slot * ConsumerFile.SLOT_SIZE + field, value);
    }

    @Test
    void theFileIsCreatedWithAValidHeaderAndZeroSlots() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(null, ConsumerFile.mapExisting(dir, arena));
            ConsumerSlots slots = ConsumerFile.mapOrCreate(dir, false, arena);
            assertEquals(ConsumerFile.path(dir), slots.file());
            assertEquals(65536, Files.size(ConsumerFile.path(dir)));
            byte[] bytes = Files.readAllBytes(ConsumerFile.path(dir));
            assertEquals("BLITCON\0", new String(bytes, 0, 8, StandardCharsets.US_ASCII));
            for (int i = ConsumerFile.HEADER_LENGTH; i < bytes.length; i++) {
                assertEquals(0, bytes[i], "byte " + i);
            }
            assertEquals(0, slots.entries().size());
        }
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary left");
        }
    }

    @Test
    void slotsAreUsedInOrderAndTheFileHolds1023Names() {
        try (Arena arena = Arena.ofConfined()) {
            ConsumerSlots slots = ConsumerFile.mapOrCreate(dir, false, arena);
            for (int k = 0; k < ConsumerFile.SLOTS; k++) {
                assertEquals(k, slots.findOrCreate(("c" + k).getBytes(StandardCharsets.US_ASCII), k - 1L));
            }
            assertEquals(517, slots.findOrCreate("c517".getBytes(StandardCharsets.US_ASCII), 99), "an existing name is found");
            assertEquals(516, slots.committed(517), "and keeps its position");
            IllegalStateException full = assertThrows(IllegalStateException.class,
                    () -> slots.findOrCreate("one-more".getBytes(StandardCharsets.US_ASCII), -1));
            assertTrue(full.getMessage().contains("holds 1023 names, all used"), full.getMessage());
            assertEquals(ConsumerFile.SLOTS, slots.entries().size());
            assertEquals("c1022", slots.entries().getLast().name());
        }
    }

    @Test
    void aSlotLeftClaimingByADeadProcessIsTakenOver() {
        try (Arena arena = Arena.ofConfined()) {
            ConsumerSlots slots = ConsumerFile.mapOrCreate(dir, false, arena);
            MemorySegment file = ConsumerFile.mapExisting(dir, arena).segment();
            slots.findOrCreate("a".getBytes(StandardCharsets.US_ASCII), -1);
            setWord(file, 1, ConsumerSlots.STATE_OFFSET, ConsumerSlots.CLAIMING << 62 | earlierProcessWithThisPid());
            assertEquals(-1, slots.find("b".getBytes(StandardCharsets.US_ASCII)), "a CLAIMING slot is no consumer");
            assertEquals(1, slots.findOrCreate("b".getBytes(StandardCharsets.US_ASCII), 41));
            assertEquals(41, slots.committed(1));
            assertEquals(2, slots.entries().size());
        }
    }

    @Test
    void aHolderOfThisPidWithAnotherStartTimeIsAnEarlierProcessAndIsTakenOver() {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir); Arena arena = Arena.ofConfined()) {
            queue.tailer("risk").close();
            MemorySegment file = ConsumerFile.mapExisting(dir, arena).segment();
            setWord(file, 0, ConsumerSlots.HOLDER_OFFSET, earlierProcessWithThisPid()); // a restarted container's pid 1
            try (NamedTailer<Void> risk = queue.tailer("risk")) {
                assertEquals(ProcessIdentity.current(), word(file, 0, ConsumerSlots.HOLDER_OFFSET));
                assertEquals("risk", risk.name());
            }
            assertEquals(0, word(file, 0, ConsumerSlots.HOLDER_OFFSET), "released on close");
        }
    }

    @Test
    void aCommitAfterTheNameWasTakenOverIsRefusedAndNotMade() {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir);
             NamedTailer<Void> risk = queue.tailer("risk");
             Arena arena = Arena.ofConfined()) {
            MemorySegment file = ConsumerFile.mapExisting(dir, arena).segment();
            long thief = ProcessIdentity.of(4_000_000, Optional.of(Instant.ofEpochSecond(12345)));
            setWord(file, 0, ConsumerSlots.HOLDER_OFFSET, thief);
            IllegalStateException e = assertThrows(IllegalStateException.class, risk::commit);
            assertTrue(e.getMessage().contains("no longer holds its name (now held by pid 4000000)"), e.getMessage());
            assertEquals(-1, word(file, 0, ConsumerSlots.COMMITTED_OFFSET));
            assertEquals(0, word(file, 0, ConsumerSlots.TIME_OFFSET));
            setWord(file, 0, ConsumerSlots.HOLDER_OFFSET, ProcessIdentity.current());
        }
    }

    @Test
    void aSlotWhoseNameDoesNotMatchItsChecksumIsReportedCorrupt() {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir); Arena arena = Arena.ofConfined()) {
            queue.tailer("risk").close();
            MemorySegment file = ConsumerFile.mapExisting(dir, arena).segment();
            long name = ConsumerFile.HEADER_LENGTH + ConsumerSlots.NAME_OFFSET;
            file.set(ValueLayout.JAVA_BYTE, name, (byte) 'R');
            QueueCorruptedException e = assertThrows(QueueCorruptedException.class, queue::consumers);
            assertEquals(name, e.offset());
            assertTrue(e.getMessage().contains("name \"Risk\" does not match its CRC32C"), e.getMessage());
        }
    }

    @Test
    void processIdentityTellsLiveDeadAndReusedPids() throws Exception {
        assertTrue(ProcessIdentity.isAlive(ProcessIdentity.current()));
        assertFalse(ProcessIdentity.isAlive(earlierProcessWithThisPid()));
        Process child = new ProcessBuilder("cat").redirectOutput(ProcessBuilder.Redirect.DISCARD).start(); // until stdin closes
        ProcessHandle handle = child.toHandle();
        long live = ProcessIdentity.of(handle.pid(), handle.info().startInstant());
        assertTrue(handle.info().startInstant().isPresent(), "start times are known on Linux");
        assertTrue(ProcessIdentity.isAlive(live), "a live process with its start time");
        assertTrue(ProcessIdentity.isAlive(ProcessIdentity.of(handle.pid(), Optional.empty())),
                "a live process whose start time was unknown: the pid decides");
        assertFalse(ProcessIdentity.isAlive(ProcessIdentity.of(handle.pid(),
                handle.info().startInstant().map(start -> start.minusSeconds(100)))),
                "the pid of a live process that started 100 s after the recorded one: reused");
        child.getOutputStream().close();
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        assertFalse(ProcessIdentity.isAlive(live), "a finished process");
    }
}
