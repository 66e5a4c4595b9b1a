package io.blit.queue.internal.sidecar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.BlitQueue;
import io.blit.queue.ConsumerPosition;
import io.blit.queue.NamedTailer;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.format.FileFeatures;
import io.blit.queue.internal.writer.WriterRegistry;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reuse of REMOVED slots: a queue that creates and removes names without end never fills its positions file; a slot
 * is reused only when no FREE one is left, never while a live process holds it, and its name's own REMOVED slot comes
 * first; the first reuse sets the file's incompatible feature {@link ConsumerFile#SLOT_REUSE}, which builds that do
 * not know it refuse.
 */
class ConsumerSlotReuseTest {
    private static final ValueLayout.OfLong LE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @TempDir
    Path dir;

    private WriterRegistry writers;

    @BeforeEach
    void registry() {
        writers = WriterRegistry.acquire(dir);
    }

    @AfterEach
    void releaseRegistry() {
        writers.release();
    }

    private static byte[] bytes(String name) {
        return name.getBytes(StandardCharsets.US_ASCII);
    }

    private static long features(ConsumerSlots slots) {
        return slots.segment().get(LE_LONG, ConsumerFile.INCOMPATIBLE_OFFSET);
    }

    @Test
    void aQueueThatCreatesAndRemoves5000NamesStillOpensNewOnes() {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir);
             NamedTailer<Void> keeper = queue.tailer("keeper")) {
            for (int i = 0; i < 5000; i++) {
                queue.tailer("name-" + i).close();
                assertTrue(queue.removeConsumer("name-" + i), "name-" + i);
            }
            try (NamedTailer<Void> last = queue.tailer("after-5000")) {
                last.commit();
            }
            keeper.commit(); // its slot was never given to another name: it still holds it
            assertEquals(List.of("keeper", "after-5000"),
                    queue.consumers().stream().map(ConsumerPosition::name).toList());
        }
        try (Arena arena = Arena.ofConfined()) {
            ConsumerSlots slots = ConsumerFile.mapExisting(dir, arena, writers);
            assertEquals(ConsumerFile.SLOT_REUSE, features(slots), "the reuse is recorded");
            assertEquals(ConsumerFile.SLOTS, slots.usedSlots());
        }
    }

    @Test
    void aRemovedSlotIsReusedOnlyWhenNoFreeSlotIsLeftAndNeverWhileHeld() {
        try (Arena arena = Arena.ofConfined()) {
            ConsumerSlots slots = ConsumerFile.mapOrCreate(dir, false, arena, writers);
            long me = writers.lease(false);
            slots.findOrCreate(bytes("a"), -1, me);
            slots.findOrCreate(bytes("b"), -1, me);
            assertTrue(slots.markRemoved(0, bytes("a")));
            assertEquals(2, slots.findOrCreate(bytes("c"), 7, me), "a FREE slot while there is one");
            assertEquals(0, features(slots), "no reuse, no feature: builds without it still read the file");
            for (int k = 3; k < ConsumerFile.SLOTS; k++) {
                assertEquals(k, slots.findOrCreate(bytes("f" + k), -1, me));
            }
            assertTrue(slots.claim(1, "b", me));
            assertTrue(slots.markRemoved(1, bytes("b"))); // removed while this process still holds it
            assertTrue(slots.markRemoved(2, bytes("c")));
            assertEquals(2, slots.findOrCreate(bytes("c"), 9, me), "a name's own REMOVED slot comes first");
            assertEquals(9, slots.committed(2));
            assertEquals(0, features(slots), "reviving a name is no reuse");
            assertEquals(0, slots.findOrCreate(bytes("d"), 11, me), "the first REMOVED slot held by no live process");
            assertEquals(ConsumerFile.SLOT_REUSE, features(slots));
            assertEquals(11, slots.committed(0));
            assertEquals(0, slots.lastCommitMillis(0));
            assertEquals(-1, slots.findOrCreate(bytes("e"), -1, me, 0), "slot 1 is held: not reused");
            slots.release(1, me);
            assertEquals(1, slots.findOrCreate(bytes("e"), 12, me), "released: reused");
            assertEquals(0, slots.holder(1));
            assertEquals(-1, slots.findAny(bytes("b")), "b's slot is e's now");
            assertEquals(List.of("d", "e", "c"), slots.entries().subList(0, 3).stream().map(ConsumerSlots.Entry::name)
                    .toList());
            IllegalStateException full = assertThrows(IllegalStateException.class,
                    () -> slots.findOrCreate(bytes("g"), -1, me));
            assertTrue(full.getMessage().contains("holds 1023 names, all used"), full.getMessage());
        }
    }

    @Test
    void aReserveKeepsTheLastReusableSlots() {
        try (Arena arena = Arena.ofConfined()) {
            ConsumerSlots slots = ConsumerFile.mapOrCreate(dir, false, arena, writers);
            long me = writers.lease(false);
            for (int k = 0; k < ConsumerFile.SLOTS - 2; k++) {
                assertEquals(k, slots.findOrCreate(bytes("n" + k), -1, me, 2));
            }
            assertEquals(2, slots.reusableSlots());
            assertEquals(-1, slots.findOrCreate(bytes("x"), -1, me, 2), "two left, both kept");
            assertEquals(ConsumerFile.SLOTS - 2, slots.findOrCreate(bytes("x"), -1, me, 1), "one of them may go");
            assertTrue(slots.markRemoved(5, bytes("n5")));
            assertEquals(2, slots.reusableSlots(), "a REMOVED slot is reusable");
            assertEquals(ConsumerFile.SLOTS - 1, slots.findOrCreate(bytes("y"), -1, me, 1), "FREE first");
            assertEquals(-1, slots.findOrCreate(bytes("z"), -1, me, 1), "the REMOVED slot is the last reusable one");
            assertEquals(5, slots.findOrCreate(bytes("z"), -1, me, 0));
            assertEquals(5, slots.findOrCreate(bytes("z"), 3, me, 1000), "an existing name needs no slot");
        }
    }

    /**
     * A build that predates slot reuse knows no incompatible bit of the positions file: its header check is
     * {@link FileFeatures#incompatibleProblem(long)} with nothing known (the mask it had). It refuses a file once a
     * slot was reused, naming bit 0; this build reads it, and refuses any bit it does not know.
     */
    @Test
    void theReuseBitIsRecordedAndABuildThatDoesNotKnowItRefusesTheFile() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            ConsumerSlots slots = ConsumerFile.mapOrCreate(dir, false, arena, writers);
            long me = writers.lease(false);
            for (int k = 0; k < ConsumerFile.SLOTS; k++) {
                slots.findOrCreate(bytes("n" + k), -1, me);
            }
            assertNull(FileFeatures.incompatibleProblem(features(slots)), "full, but nothing reused yet");
            assertTrue(slots.markRemoved(3, bytes("n3")));
            assertEquals(3, slots.findOrCreate(bytes("other"), -1, me));
            String refusal = FileFeatures.incompatibleProblem(features(slots));
            assertNotNull(refusal, "an older build refuses the file");
            assertTrue(refusal.contains("bit 0 not known to this reader"), refusal);
            assertNotNull(ConsumerFile.mapExisting(dir, arena, writers), "this build reads it: the header's CRC holds");

            MemorySegment header = slots.segment();
            header.set(LE_LONG, ConsumerFile.INCOMPATIBLE_OFFSET, ConsumerFile.SLOT_REUSE | 2);
            CRC32C crc = new CRC32C();
            crc.update(header.asSlice(0, ConsumerFile.CRC_OFFSET).asByteBuffer());
            header.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), ConsumerFile.CRC_OFFSET,
                    (int) crc.getValue());
            QueueCorruptedException unknown = assertThrows(QueueCorruptedException.class,
                    () -> ConsumerFile.mapExisting(dir, arena, writers));
            assertTrue(unknown.getMessage().contains("bit 1 not known to this reader"), unknown.getMessage());
        }
    }
}
