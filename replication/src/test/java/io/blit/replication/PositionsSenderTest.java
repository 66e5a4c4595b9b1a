package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.NamedTailer;
import io.blit.replication.wire.Keys;
import io.blit.replication.wire.Positions;
import io.blit.replication.wire.Sealer;
import io.blit.replication.wire.Session;
import io.blit.replication.wire.Wire;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a session sends of its source's named consumers ({@link PositionsSender}): every consumer the first time, paged
 * by {@value Positions#MAX_ENTRIES}; afterwards only those that changed; a position only once its records were sent;
 * a removal once; and nothing allocated per round once the positions file is mapped.
 */
class PositionsSenderTest {
    private static final long ROUND = PositionsSender.INTERVAL_MILLIS * 1_000_000L;

    @TempDir
    Path dir;

    private final byte[] bytes = new byte[Positions.length(Positions.MAX_ENTRIES)];
    private final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
    private final MemorySegment segment = MemorySegment.ofArray(bytes);
    private final byte[][] keys = Keys.session(ReplicationTest.SECRET, new byte[Wire.NONCE], new byte[Wire.NONCE],
            new java.util.UUID(1, 2), "127.0.0.1:7000");
    private long sequence;
    private long now = 1;

    @Test
    void sendsEveryConsumerFirstThenWhatChangedOnceItsRecordsWereSent() {
        try (BlitQueue<Tick> queue = BlitQueue.open(dir, Tick.class, ReplicationTest.SMALL);
             Appender<Tick> appender = queue.appender();
             PositionsSender sender = new PositionsSender(dir)) {
            assertFalse(sender.startRound(now), "no positions file: nothing to send");
            Tick tick = new Tick();
            for (long n = 0; n < 1_000; n++) {
                appender.append(tick.fillFor(n));
            }
            for (int i = 0; i < 100; i++) {
                try (NamedTailer<Tick> c = queue.tailer("c" + i)) {
                    c.seek(i);
                    c.commit();
                }
            }
            now += ROUND;
            assertFalse(sender.startRound(now), "a positions file that appeared is looked for once a second");
            now += PositionsSender.ABSENT_LOOK_MILLIS * 1_000_000L;
            assertTrue(sender.startRound(now));
            List<List<String>> pages = round(sender, 1_000);
            assertEquals(List.of(64, 36), pages.stream().map(List::size).toList(), "two pages, 64 entries at most each");
            TreeMap<String, String> all = new TreeMap<>();
            pages.stream().flatMap(List::stream).forEach(e -> all.put(e.split(" ")[1], e));
            assertEquals(100, all.size());
            assertEquals("1 c42 41", all.get("c42"));
            assertEquals("1 c0 -1", all.get("c0"), "a consumer that committed nothing: -1");

            assertTrue(sender.startRound(now += ROUND));
            assertEquals(List.of(), round(sender, 1_000), "nothing changed: nothing sent");

            try (NamedTailer<Tick> c = queue.tailer("c7")) {
                c.seek(900); // committed 899: below what was sent
                c.commit();
            }
            try (NamedTailer<Tick> c = queue.tailer("c8")) {
                c.seek(1_000); // committed 999: its record not sent yet
                c.commit();
            }
            assertTrue(queue.removeConsumer("c9"));
            sender.startRound(now += ROUND);
            assertEquals(List.of(List.of("1 c7 899", "2 c9 8")), round(sender, 999));
            sender.startRound(now += ROUND);
            assertEquals(List.of(List.of("1 c8 999")), round(sender, 1_000), "sent once its record was");
            sender.startRound(now += ROUND);
            assertEquals(List.of(), round(sender, 1_000), "a removal is sent once");
        }
    }

    /**
     * A slot whose name was sent and that was removed and given to another name between two rounds (the file had no
     * FREE slot left) sends the old name as removed, then the new name: the replica follows the removal.
     */
    @Test
    void aSlotReusedBetweenRoundsSendsItsOldNameAsRemovedFirst() {
        try (BlitQueue<Tick> queue = BlitQueue.open(dir, Tick.class, ReplicationTest.SMALL);
             Appender<Tick> appender = queue.appender()) {
            Tick tick = new Tick();
            for (long n = 0; n < 100; n++) {
                appender.append(tick.fillFor(n));
            }
            for (int i = 0; i < 1023; i++) {
                queue.tailer("c" + i).close(); // committed -1: the start of the queue, minus 1
            }
            try (PositionsSender sender = new PositionsSender(dir)) {
                assertTrue(sender.startRound(now));
                assertEquals(1023, round(sender, 100).stream().mapToInt(List::size).sum());
                assertTrue(queue.removeConsumer("c5"));
                try (NamedTailer<Tick> fresh = queue.tailer("fresh")) {
                    fresh.seek(10);
                    fresh.commit();
                }
                assertTrue(sender.startRound(now += ROUND));
                assertEquals(List.of(List.of("2 c5 -1", "1 fresh 9")), round(sender, 100));
                sender.startRound(now += ROUND);
                assertEquals(List.of(), round(sender, 100), "each sent once");
            }
        }
    }

    @Test
    void aRoundAllocatesNothingOnceTheFileIsMapped() {
        try (BlitQueue<Tick> queue = BlitQueue.open(dir, Tick.class, ReplicationTest.SMALL);
             Appender<Tick> appender = queue.appender();
             NamedTailer<Tick> c = queue.tailer("c");
             PositionsSender sender = new PositionsSender(dir)) {
            Tick tick = new Tick();
            for (long n = 0; n < 3_000; n++) { // a record to read and commit in every round
                appender.append(tick.fillFor(n));
            }
            Tick in = new Tick();
            var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            int sent = 0;
            for (int pass = 0; pass < 2; pass++) { // the first pass warms up; the second is measured
                long before = threads.getCurrentThreadAllocatedBytes();
                for (int round = 0; round < 1_000; round++) {
                    assertTrue(c.readNext(in));
                    c.commit();
                    sender.startRound(now += PositionsSender.ABSENT_LOOK_MILLIS * 1_000_000L);
                    while (sender.next(buffer, segment, ++sequence, 3_000) > 0) {
                        sent++;
                    }
                }
                long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                if (pass == 1) {
                    assertTrue(allocated < 4_096, "1,000 rounds, each sending a changed position, allocated "
                            + allocated + " bytes");
                }
            }
            assertEquals(2_000, sent, "a position sent in each round");
        }
    }

    /** Every message of a round, each sealed, checked and decoded: its entries as "state name committed". */
    private List<List<String>> round(PositionsSender sender, long sentBelow) {
        List<List<String>> pages = new ArrayList<>();
        int length;
        while ((length = sender.next(buffer, segment, ++sequence, sentBelow)) > 0) {
            int sealed = Session.seal(buffer, length, new Sealer(keys[0]));
            assertTrue(Session.open(buffer, sealed, new Sealer(keys[0])));
            assertNull(Positions.check(buffer, sealed));
            List<String> entries = new ArrayList<>();
            for (int i = 0; i < Positions.count(buffer); i++) {
                entries.add(Positions.state(buffer, i) + " " + Positions.name(buffer, i) + " "
                        + Positions.committed(buffer, i));
            }
            pages.add(entries);
        }
        return pages;
    }
}
