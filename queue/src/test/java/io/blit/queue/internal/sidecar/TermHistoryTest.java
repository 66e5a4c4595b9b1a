package io.blit.queue.internal.sidecar;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.QueueCorruptedException;
import io.blit.queue.TermHistory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The term history: where two copies of a queue part, and its file, attacked as a stranger's file would be. */
class TermHistoryTest {
    @TempDir
    Path dir;

    private static final UUID ID = new UUID(1, 2);

    private static TermHistory history(long... numberAndFirst) {
        List<TermHistory.Term> terms = new java.util.ArrayList<>();
        for (int i = 0; i < numberAndFirst.length; i += 2) {
            terms.add(new TermHistory.Term(numberAndFirst[i], numberAndFirst[i + 1], numberAndFirst[i]));
        }
        return new TermHistory(ID, terms);
    }

    @Test
    void anOldPrimaryRejoiningSharesWhatItHadBeforeTheReplicaWasPromoted() {
        TermHistory oldPrimary = history(0, 0);                 // appended 0..99 in term 0, then died
        TermHistory newPrimary = history(0, 0, 1, 90);          // held 0..89, promoted at 90, appended to 120
        assertEquals(90, TermHistory.sharedEnd(oldPrimary, 100, newPrimary, 120));
        assertEquals(90, TermHistory.sharedEnd(newPrimary, 120, oldPrimary, 100));
    }

    @Test
    void aReplicaBehindSharesItsWholeEnd() {
        assertEquals(50, TermHistory.sharedEnd(history(0, 0), 50, history(0, 0, 1, 90), 120));
        assertEquals(50, TermHistory.sharedEnd(history(0, 0, 1, 30), 50, history(0, 0, 1, 30, 2, 70), 120));
    }

    @Test
    void twoPromotionsToOneTermNumberDoNotCountAsOneTerm() {
        TermHistory a = new TermHistory(ID, List.of(new TermHistory.Term(0, 0, 0), new TermHistory.Term(1, 40, 7)));
        TermHistory b = new TermHistory(ID, List.of(new TermHistory.Term(0, 0, 0), new TermHistory.Term(1, 40, 8)));
        assertEquals(40, TermHistory.sharedEnd(a, 60, b, 70));
        TermHistory promoted = history(0, 0).withTerm(1, 40);
        TermHistory promotedElsewhere = history(0, 0).withTerm(1, 40);
        assertNotEquals(promoted.terms().getLast().origin(), promotedElsewhere.terms().getLast().origin());
        assertEquals(40, TermHistory.sharedEnd(promoted, 60, promotedElsewhere, 70));
    }

    @Test
    void theNewestTermBothHoldDecidesWhenOnlyTheNewestTermsAreKnown() {
        TermHistory source = history(0, 0, 1, 30, 2, 70, 3, 110);
        // a replica that knows term 1 (from 30) and then was promoted itself to term 2 at 80: it shares term 1 only
        List<TermHistory.Term> replica = List.of(new TermHistory.Term(1, 30, 1), new TermHistory.Term(2, 80, 99));
        assertEquals(70, TermHistory.sharedEnd(source.terms(), 130, replica, 95));
        // one that followed the source into term 2 and holds up to 100: the source's term 3 begins after it
        assertEquals(100, TermHistory.sharedEnd(source.terms(), 130, source.newest(2).subList(0, 1), 100));
        assertEquals(100, TermHistory.sharedEnd(source.terms(), 130, List.of(new TermHistory.Term(2, 70, 2)), 100));
        // one of the newest term, ahead of the source within it: only the ends limit
        assertEquals(120, TermHistory.sharedEnd(source.terms(), 120, source.newest(1), 125));
        // no term in common: nothing is known to be shared
        assertEquals(0, TermHistory.sharedEnd(source.terms(), 130, List.of(new TermHistory.Term(5, 0, 5)), 10));
        assertEquals(0, TermHistory.sharedEnd(source.terms(), 130, List.of(), 10));
        // the whole-history form agrees
        assertEquals(70, TermHistory.sharedEnd(source, 130, new TermHistory(ID, List.of(new TermHistory.Term(0, 0, 0),
                new TermHistory.Term(1, 30, 1), new TermHistory.Term(2, 80, 99))), 95));
    }

    @Test
    void aReplicaTakesItsSourcesNewestTermsAfterItsOlderOnes() {
        TermHistory replica = history(0, 0, 1, 30);
        TermHistory source = history(0, 0, 1, 30, 2, 70, 3, 110);
        assertEquals(source, replica.followedBy(source.newest(2)));
        assertEquals(source, replica.followedBy(source.terms()));
        assertEquals(source, history(0, 0).followedBy(source.newest(3)));
        // a replica promoted elsewhere to term 2 takes the source's term 2 in place of its own
        TermHistory promotedElsewhere = history(0, 0, 1, 30).withTerm(2, 80);
        assertEquals(source, promotedElsewhere.followedBy(source.newest(2)));
        assertEquals(history(0, 0, 1, 30).terms(), history(0, 0, 1, 30, 2, 70).newest(5).subList(0, 2));
        assertThrows(IllegalArgumentException.class, () -> replica.followedBy(List.of()));
    }

    @Test
    void differentQueuesShareNothingAndSaySo() {
        TermHistory other = new TermHistory(new UUID(3, 4), history(0, 0).terms());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TermHistory.sharedEnd(history(0, 0), 10, other, 10));
        assertTrue(e.getMessage().contains("different queues"), e.getMessage());
    }

    @Test
    void termsMustIncrease() {
        assertThrows(IllegalArgumentException.class, () -> history(0, 0, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> history(0, 10, 1, 5));
        assertThrows(IllegalArgumentException.class, () -> history(0, 0).withTerm(0, 5));
        assertThrows(IllegalArgumentException.class, () -> new TermHistory(ID, List.of()));
        assertEquals(1, history(0, 0, 1, 0).currentTerm()); // a promotion before any record: same first index
    }

    @Test
    void termOfAnIndex() {
        TermHistory h = history(0, 0, 3, 10, 5, 10, 7, 20);
        assertEquals(0, h.termOf(9));
        assertEquals(5, h.termOf(10));
        assertEquals(5, h.termOf(19));
        assertEquals(7, h.termOf(1_000));
    }

    @Test
    void aWrittenHistoryReadsBackAndReplacesTheOldOneWhole() throws IOException {
        assertNull(TermHistoryFile.read(dir));
        TermHistory created = TermHistory.createNew();
        TermHistoryFile.write(dir, created, false, "w1");
        assertEquals(created, TermHistoryFile.read(dir));
        TermHistory promoted = created.withTerm(1, 42);
        TermHistoryFile.write(dir, promoted, true, "w1");
        assertEquals(promoted, TermHistoryFile.read(dir));
        try (var files = Files.list(dir)) {
            assertEquals(List.of(dir.resolve(TermHistoryFile.NAME)), files.toList()); // no temporary left
        }
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve(TermHistoryFile.NAME))));
    }

    @Test
    void aPlantedLinkIsNotFollowed() throws IOException {
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
        TermHistoryFile.write(elsewhere, TermHistory.createNew(), false, "w1");
        Path queue = Files.createDirectory(dir.resolve("queue"));
        Files.createSymbolicLink(queue.resolve(TermHistoryFile.NAME), elsewhere.resolve(TermHistoryFile.NAME));
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> TermHistoryFile.read(queue));
        assertTrue(e.getMessage().contains("not a regular file"), e.getMessage());
    }

    @Test
    void everyDamagedFieldIsNamed() {
        byte[] good = TermHistoryFile.encode(history(0, 0, 1, 90));
        assertEquals(history(0, 0, 1, 90), TermHistoryFile.decode(dir, good));
        assertMessage(withInt(good, TermHistoryFile.VERSION_OFFSET, 2), "version 2");
        assertMessage(withInt(good, TermHistoryFile.INCOMPATIBLE_OFFSET, 0x10), "incompatible features 0x10");
        assertMessage(withInt(good, TermHistoryFile.COUNT_OFFSET, 0), "term count 0");
        assertMessage(withInt(good, TermHistoryFile.COUNT_OFFSET, -1), "term count 4294967295");
        assertMessage(withInt(good, TermHistoryFile.COUNT_OFFSET, 3), "3 terms take");
        assertMessage(java.util.Arrays.copyOf(good, 20), "truncated");
        byte[] flipped = good.clone();
        flipped[TermHistoryFile.HEADER_LENGTH + 3] ^= 1;
        assertMessage(flipped, "CRC32C");
    }

    @Test
    void randomBytesAreRefusedWithTheQueuesOwnException() {
        byte[] good = TermHistoryFile.encode(history(0, 0, 1, 90, 4, 100));
        SplittableRandom random = new SplittableRandom(20261128);
        for (int round = 0; round < 20_000; round++) {
            byte[] bytes = round % 2 == 0 ? good.clone() : new byte[random.nextInt(200)];
            if (round % 2 == 0) {
                for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
                    bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                }
            } else {
                random.nextBytes(bytes);
            }
            try {
                TermHistory decoded = TermHistoryFile.decode(dir, bytes);
                assertArrayEquals(bytes, TermHistoryFile.encode(decoded)); // accepted only if it is exactly a history
            } catch (QueueCorruptedException expected) {
                // refused, naming the file
            }
        }
    }

    private static byte[] withInt(byte[] bytes, int offset, int value) {
        byte[] copy = bytes.clone();
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putInt(offset, value);
        return copy;
    }

    private void assertMessage(byte[] bytes, String expected) {
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class, () -> TermHistoryFile.decode(dir, bytes));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
