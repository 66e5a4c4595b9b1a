package io.blit.queue.internal.sidecar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.BlitQueue;
import io.blit.queue.NamedTailer;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.file.ProcessIdentity;
import io.blit.queue.internal.format.ConsumerFormat;
import io.blit.queue.internal.writer.WriterRegistry;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The positions file's slots: creation as a prefix, capacity, takeover of dead claimers and holders (writer ids),
 * the upgrade of a format-1 file, corruption.
 */
class ConsumerSlotsTest {
    /** A writer id that no process holds: its lock byte is free. */
    private static final long DEAD_WRITER = 4_000_000;

    @TempDir
    Path dir;

    private WriterRegistry writers;

    @org.junit.jupiter.api.BeforeEach
    void registry() {
        writers = WriterRegistry.acquire(dir);
    }

    @org.junit.jupiter.api.AfterEach
    void releaseRegistry() {
        writers.release();
    }

    private long me() {
        return writers.lease(false);
    }

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
            assertEquals(null, ConsumerFile.mapExisting(dir, arena, writers));
            ConsumerSlots slots = ConsumerFile.mapOrCreate(dir, false, arena, writers);
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
            ConsumerSlots slots = ConsumerFile.mapOrCreate(dir, false, arena, writers);
            for (int k = 0; k < ConsumerFile.SLOTS; k++) {
                assertEquals(k, slots.findOrCreate(("c" + k).getBytes(StandardCharsets.US_ASCII), k - 1L, me()));
            }
            assertEquals(517, slots.findOrCreate("c517".getBytes(StandardCharsets.US_ASCII), 99, me()), "an existing name is found");
            assertEquals(516, slots.committed(517), "and keeps its position");
            IllegalStateException full = assertThrows(IllegalStateException.class,
                    () -> slots.findOrCreate("one-more".getBytes(StandardCharsets.US_ASCII), -1, me()));
            assertTrue(full.getMessage().contains("holds 1023 names, all used"), full.getMessage());
            assertEquals(ConsumerFile.SLOTS, slots.entries().size());
            assertEquals("c1022", slots.entries().getLast().name());
        }
    }

    @Test
    void aSlotLeftClaimingByADeadProcessIsTakenOver() {
        try (Arena arena = Arena.ofConfined()) {
            ConsumerSlots slots = ConsumerFile.mapOrCreate(dir, false, arena, writers);
            MemorySegment file = ConsumerFile.mapExisting(dir, arena, writers).segment();
            slots.findOrCreate("a".getBytes(StandardCharsets.US_ASCII), -1, me());
            setWord(file, 1, ConsumerFormat.STATE_OFFSET, ConsumerFormat.CLAIMING << 62 | DEAD_WRITER);
            assertEquals(-1, slots.find("b".getBytes(StandardCharsets.US_ASCII)), "a CLAIMING slot is no consumer");
            assertEquals(1, slots.findOrCreate("b".getBytes(StandardCharsets.US_ASCII), 41, me()));
            assertEquals(41, slots.committed(1));
            assertEquals(2, slots.entries().size());
        }
    }

    @Test
    void aHolderWhoseWriterIdIsNotHeldIsDeadAndIsTakenOver() {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir); Arena arena = Arena.ofConfined()) {
            queue.tailer("risk").close();
            MemorySegment file = ConsumerFile.mapExisting(dir, arena, writers).segment();
            setWord(file, 0, ConsumerFormat.HOLDER_OFFSET, DEAD_WRITER);
            try (NamedTailer<Void> risk = queue.tailer("risk")) {
                assertEquals(me(), word(file, 0, ConsumerFormat.HOLDER_OFFSET));
                assertEquals("risk", risk.name());
            }
            assertEquals(0, word(file, 0, ConsumerFormat.HOLDER_OFFSET), "released on close");
        }
    }

    @Test
    void aCommitAfterTheNameWasTakenOverIsRefusedAndNotMade() {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir);
             NamedTailer<Void> risk = queue.tailer("risk");
             Arena arena = Arena.ofConfined()) {
            MemorySegment file = ConsumerFile.mapExisting(dir, arena, writers).segment();
            setWord(file, 0, ConsumerFormat.HOLDER_OFFSET, DEAD_WRITER);
            IllegalStateException e = assertThrows(IllegalStateException.class, risk::commit);
            assertTrue(e.getMessage().contains("no longer holds its name (now held by writer 4000000)"), e.getMessage());
            assertEquals(-1, word(file, 0, ConsumerFormat.COMMITTED_OFFSET));
            assertEquals(0, word(file, 0, ConsumerFormat.TIME_OFFSET));
            setWord(file, 0, ConsumerFormat.HOLDER_OFFSET, me());
        }
    }

    @Test
    void aSlotWhoseNameDoesNotMatchItsChecksumIsReportedCorrupt() {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir); Arena arena = Arena.ofConfined()) {
            queue.tailer("risk").close();
            MemorySegment file = ConsumerFile.mapExisting(dir, arena, writers).segment();
            long name = ConsumerFile.HEADER_LENGTH + ConsumerFormat.NAME_OFFSET;
            file.set(ValueLayout.JAVA_BYTE, name, (byte) 'R');
            QueueCorruptedException e = assertThrows(QueueCorruptedException.class, queue::consumers);
            assertEquals(name, e.offset());
            assertTrue(e.getMessage().contains("name \"Risk\" does not match its CRC32C"), e.getMessage());
        }
    }

    @Test
    void aFormatOneFileIsUpgradedKeepingNamesAndPositionsOnceNoEarlierBuildHoldsIt() {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir); Arena arena = Arena.ofConfined()) {
            try (NamedTailer<Void> risk = queue.tailer("risk")) {
                risk.commit();
            }
            MemorySegment file = ConsumerFile.mapExisting(dir, arena, writers).segment();
            ConsumerFile.rewriteVersion(file, 1); // as an earlier build wrote it: holders named by pid and start time
            setWord(file, 0, ConsumerFormat.HOLDER_OFFSET, ProcessIdentity.current()); // held by a live earlier build
            IllegalStateException inUse = assertThrows(IllegalStateException.class, () -> queue.tailer("risk"));
            assertTrue(inUse.getMessage().contains("is of format 1 and in use by live process "
                    + ProcessHandle.current().pid()), inUse.getMessage());
            assertEquals(1, file.get(ValueLayout.JAVA_INT, ConsumerFile.VERSION_OFFSET), "left as it was");
            assertEquals("risk", queue.consumers().getFirst().name(), "listed as it is");

            setWord(file, 0, ConsumerFormat.HOLDER_OFFSET, earlierProcessWithThisPid()); // that process is gone
            try (NamedTailer<Void> risk = queue.tailer("risk")) {
                assertEquals(me(), word(file, 0, ConsumerFormat.HOLDER_OFFSET));
                assertEquals(-1, risk.lastReadIndex(), "the committed position is kept");
            }
            assertEquals(2, file.get(ValueLayout.JAVA_INT, ConsumerFile.VERSION_OFFSET));
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
