package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.sidecar.ConsumerFile;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Named consumers in one process: positions, starts, names, one holder, listing, removal, cost. */
class NamedTailerTest {
    @TempDir
    Path dir;

    static void append(BlitQueue<MarketData> queue, long from, long to) {
        try (Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData();
            for (long n = from; n < to; n++) {
                assertEquals(n, appender.append(md.fillFor(n, 0)));
            }
        }
    }

    /** Reads {@code count} messages, checking each is the next index; returns the index after them. */
    static long read(NamedTailer<MarketData> tailer, long from, int count) {
        MarketData md = new MarketData();
        for (int i = 0; i < count; i++) {
            assertTrue(tailer.readNext(md), "message " + (from + i));
            assertTrue(md.isConsistentFor(from + i), "message " + (from + i) + " read " + md.securityId);
            assertEquals(from + i, tailer.lastReadIndex());
        }
        return from + count;
    }

    @Test
    void resumesAfterTheLastCommittedIndex() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            append(queue, 0, 20);
            try (NamedTailer<MarketData> risk = queue.tailer("risk")) {
                assertEquals(-1, risk.committedIndex(), "a new name starting at 0 commits -1");
                read(risk, 0, 7);
                risk.commit();
                assertEquals(6, risk.committedIndex());
            }
            try (NamedTailer<MarketData> risk = queue.tailer("risk")) {
                assertEquals(7, risk.index());
                assertEquals(6, risk.lastReadIndex());
                read(risk, 7, 13);
                assertFalse(risk.readNext(new MarketData()));
            }
        }
    }

    @Test
    void closingWithoutCommitReadsTheUncommittedMessagesAgain() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            append(queue, 0, 10);
            try (NamedTailer<MarketData> risk = queue.tailer("risk")) {
                read(risk, 0, 3);
                risk.commit();
                read(risk, 3, 4); // 3..6 read, not committed: at least once means they come again
            }
            try (NamedTailer<MarketData> risk = queue.tailer("risk")) {
                read(risk, 3, 7);
            }
        }
    }

    @Test
    void autoCommitCommitsEveryReadBeforeItReturns() {
        NamedTailer.Options auto = NamedTailer.Options.defaults().autoCommit(true);
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            append(queue, 0, 5);
            try (NamedTailer<MarketData> audit = queue.tailer("audit", auto)) {
                MarketData md = new MarketData();
                for (long n = 0; n < 5; n++) {
                    assertTrue(audit.readNext(md));
                    assertEquals(n, audit.committedIndex());
                    assertEquals(n, queue.consumers().getFirst().committedIndex());
                }
                assertFalse(audit.readNext(md));
                assertEquals(4, audit.committedIndex(), "no read, no commit");
            }
        }
    }

    @Test
    void aNewNameStartsWhereTheOptionsSayAndRecordsThatStartAtOnce() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            append(queue, 0, 10);
            queue.tailer("first").close();
            queue.tailer("end", NamedTailer.Options.defaults().fromEnd()).close();
            queue.tailer("four", NamedTailer.Options.defaults().from(4)).close();
            append(queue, 10, 15); // appended after the three names were created: the end consumer reads them
            try (NamedTailer<MarketData> first = queue.tailer("first");
                 NamedTailer<MarketData> end = queue.tailer("end", NamedTailer.Options.defaults().fromStart());
                 NamedTailer<MarketData> four = queue.tailer("four")) {
                read(first, 0, 15);
                read(end, 10, 5);
                read(four, 4, 11);
            }
            assertThrows(IllegalArgumentException.class, () -> queue.tailer("far", NamedTailer.Options.defaults().from(16)));
            assertEquals(List.of("first", "end", "four"), queue.consumers().stream().map(ConsumerPosition::name).toList(),
                    "a refused start creates no consumer");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "risk desk", "risk/desk", "rïsk", "risk\n", "123456789012345678901234567890123"})
    void namesOutsideTheCharsetOrLengthAreRefused(String name) {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> queue.tailer(name));
            assertTrue(e.getMessage().startsWith("consumer name \"" + name + "\" must be 1 to 32 characters of A-Z a-z 0-9 . _ -: "),
                    e.getMessage());
            assertFalse(Files.exists(ConsumerFile.path(dir)), "a refused name creates nothing");
        }
    }

    @Test
    void namesAtTheLimitsAreAccepted() {
        List<String> names = List.of("a", "Z", "0", "risk.desk_2-b", "12345678901234567890123456789012");
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            for (String name : names) {
                queue.tailer(name).close();
            }
            assertEquals(names, queue.consumers().stream().map(ConsumerPosition::name).toList());
            assertThrows(NullPointerException.class, () -> queue.tailer(null));
        }
    }

    @Test
    void aSecondOpenInThisProcessIsRefusedNamingThePidUntilTheFirstIsClosed() {
        long pid = ProcessHandle.current().pid();
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             BlitQueue<MarketData> other = BlitQueue.open(dir, MarketData.class)) {
            NamedTailer<MarketData> first = queue.tailer("risk");
            ConsumerHeldException e = assertThrows(ConsumerHeldException.class, () -> queue.tailer("risk"));
            assertEquals(pid, e.holderPid());
            assertEquals("risk", e.consumer());
            assertTrue(e.getMessage().contains("held by this process (pid " + pid + ")"), e.getMessage());
            assertThrows(ConsumerHeldException.class, () -> other.tailer("risk"), "another queue object of the directory too");
            assertEquals(OptionalLong.of(pid), queue.consumers().getFirst().holderPid());
            first.close();
            assertEquals(OptionalLong.empty(), queue.consumers().getFirst().holderPid(), "close releases the name");
            other.tailer("risk").close();
        }
    }

    @Test
    void consumersListsNameCommittedIndexLagHolderAndLastCommit() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            assertEquals(List.of(), queue.consumers());
            assertFalse(Files.exists(ConsumerFile.path(dir)), "listing creates nothing");
            append(queue, 0, 100);
            Instant before = Instant.ofEpochMilli(System.currentTimeMillis());
            try (NamedTailer<MarketData> risk = queue.tailer("risk")) {
                read(risk, 0, 30);
                risk.commit();
                Instant after = Instant.ofEpochMilli(System.currentTimeMillis());
                queue.tailer("idle", NamedTailer.Options.defaults().from(90)).close();

                List<ConsumerPosition> consumers = queue.consumers();
                assertEquals(2, consumers.size(), consumers.toString());
                ConsumerPosition r = consumers.get(0);
                assertEquals("risk", r.name());
                assertEquals(29, r.committedIndex());
                assertEquals(70, r.lag(), "indices 30..99 follow the committed one");
                assertEquals(OptionalLong.of(ProcessHandle.current().pid()), r.holderPid());
                Instant at = r.lastCommit().orElseThrow();
                assertFalse(at.isBefore(before) || at.isAfter(after), at + " not in [" + before + ", " + after + "]");
                assertEquals(new ConsumerPosition("idle", 89, 10, OptionalLong.empty(), Optional.empty()), consumers.get(1));
            }
            assertEquals(100, queue.endIndex());
        }
    }

    @Test
    void seekMovesTheNextReadAndWhatTheNextCommitRecords() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            append(queue, 0, 50);
            try (NamedTailer<MarketData> risk = queue.tailer("risk")) {
                read(risk, 0, 5);
                risk.commit();
                risk.seek(40);
                assertEquals(4, risk.committedIndex(), "a seek alone commits nothing");
                assertEquals(39, risk.lastReadIndex());
                read(risk, 40, 2);
                risk.seek(10);
                risk.commit();
                assertEquals(9, risk.committedIndex());
                assertThrows(IllegalArgumentException.class, () -> risk.seek(51));
                assertThrows(IllegalArgumentException.class, () -> risk.seek(-1));
                read(risk, 10, 3);
            }
        }
    }

    @Test
    void removeConsumerForgetsThePositionAndIsRefusedWhileHeld() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            append(queue, 0, 10);
            try (NamedTailer<MarketData> risk = queue.tailer("risk")) {
                read(risk, 0, 5);
                risk.commit();
                assertThrows(ConsumerHeldException.class, () -> queue.removeConsumer("risk"));
            }
            queue.tailer("audit").close();
            assertTrue(queue.removeConsumer("risk"));
            assertFalse(queue.removeConsumer("risk"), "gone");
            assertFalse(queue.removeConsumer("never"));
            assertEquals(List.of("audit"), queue.consumers().stream().map(ConsumerPosition::name).toList());
            try (NamedTailer<MarketData> risk = queue.tailer("risk", NamedTailer.Options.defaults().from(8))) {
                assertEquals(7, risk.committedIndex(), "a removed name starts anew, where the options say");
                read(risk, 8, 2);
            }
            assertEquals(List.of("risk", "audit"), queue.consumers().stream().map(ConsumerPosition::name).toList(),
                    "a removed name takes its old slot again");
        }
    }

    @Test
    void closingTheQueueClosesItsNamedTailersAndReleasesTheirNames() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            append(queue, 0, 3);
        }
        BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
        NamedTailer<MarketData> risk = queue.tailer("risk");
        read(risk, 0, 1);
        queue.close();
        assertThrows(IllegalStateException.class, risk::commit);
        assertThrows(IllegalStateException.class, () -> queue.tailer("risk"), "a closed queue opens nothing");
        try (BlitQueue<MarketData> again = BlitQueue.open(dir, MarketData.class);
             NamedTailer<MarketData> reopened = again.tailer("risk")) {
            assertEquals(0, reopened.index(), "released, and nothing was committed");
        }
    }

    @Test
    void aRawQueueHasNamedConsumersToo() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            append(queue, 0, 4);
        }
        try (BlitQueue<Void> raw = BlitQueue.openRaw(dir);
             NamedTailer<Void> bytes = raw.tailer("bytes", NamedTailer.Options.defaults().autoCommit(true));
             Arena arena = Arena.ofConfined()) {
            MemorySegment into = arena.allocate(256);
            for (int n = 0; n < 4; n++) {
                assertEquals(144, bytes.readNextBytes(into));
                assertEquals(n, into.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, 0), "securityId first");
            }
            assertEquals(-1, bytes.readNextBytes(into));
            assertEquals(3, bytes.committedIndex());
        }
    }

    @Test
    void aCorruptPositionsFileIsRefusedNamingTheFileAndOffset() throws Exception {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            queue.tailer("risk").close();
            try (RandomAccessFile file = new RandomAccessFile(ConsumerFile.path(dir).toFile(), "rw")) {
                file.seek(56); // reserved, covered by the CRC
                file.write(1);
            }
            QueueCorruptedException e = assertThrows(QueueCorruptedException.class, () -> queue.tailer("risk"));
            assertEquals(ConsumerFile.path(dir), e.file());
            assertEquals(ConsumerFile.CRC_OFFSET, e.offset());
            assertTrue(e.getMessage().contains("header checksum mismatch"), e.getMessage());
            assertThrows(QueueCorruptedException.class, queue::consumers);
        }
    }

    @Test
    void aPrivateQueueCreatesItsPositionsFileForItsUserOnly() throws Exception {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class,
                QueueOptions.defaults().privateFiles(true))) {
            queue.tailer("risk").close();
        }
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(ConsumerFile.path(dir))));
    }

    @Test
    void readingAndCommittingAllocateNothingOnceWarm() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            append(queue, 0, 200_000);
            try (NamedTailer<MarketData> manual = queue.tailer("manual");
                 NamedTailer<MarketData> auto = queue.tailer("auto", NamedTailer.Options.defaults().autoCommit(true))) {
                MarketData md = new MarketData();
                for (int i = 0; i < 100_000; i++) {
                    manual.readNext(md);
                    manual.commit();
                    auto.readNext(md);
                }
                long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < 100_000; i++) {
                    manual.readNext(md);
                    manual.commit();
                    auto.readNext(md);
                }
                long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                assertTrue(allocated < 10_000, "200,000 reads and commits allocated " + allocated + " bytes");
                assertEquals(199_999, manual.committedIndex());
                assertEquals(199_999, auto.committedIndex());
            }
        }
    }
}
