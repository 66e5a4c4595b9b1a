package io.blit.queue.replica;

import static io.blit.queue.replica.ReplicaCopies.copyAsReplica;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.MarketData;
import io.blit.queue.QueueFencedException;
import io.blit.queue.QueueOptions;
import io.blit.queue.ReplicaAppendException;
import io.blit.queue.ReplicaLockHolder;
import io.blit.queue.TermHistory;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.segment.SegmentHeader;
import io.blit.queue.internal.sidecar.TermHistoryFile;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Promotion: a replica becomes the primary of a new term at its end index, its appends continue there, and the old
 * primary, fenced at that term, refuses appends; what is not a promotable replica is refused with nothing changed.
 */
class QueueTermsPromoteTest {
    /** 64 KiB files: a MarketData record is 160 bytes, 358 of them fill a file. */
    private static final QueueOptions SMALL = QueueOptions.defaults().segmentSize(64 * 1024);

    @TempDir
    Path tmp;

    @Test
    void aPromotedReplicaAppendsAtItsEndIndexInTheNewTermAndItsNewFilesRecordIt() throws Exception {
        Path primary = tmp.resolve("primary");
        Path replica = tmp.resolve("replica");
        append(primary, 5);
        copyAsReplica(primary, replica);
        try (BlitQueue<MarketData> queue = BlitQueue.open(replica, MarketData.class, SMALL)) {
            assertThrows(ReplicaAppendException.class, queue::appender, "a replica refuses appenders");
        }
        QueueTerms.Status before = QueueTerms.status(replica);
        assertEquals(QueueTerms.Role.REPLICA, before.role());

        assertEquals(1, QueueTerms.promote(replica));

        QueueTerms.Status after = QueueTerms.status(replica);
        assertEquals(new QueueTerms.Status(before.queueId(), 1, 5, 1, 5, QueueTerms.Role.PRIMARY), after);
        TermHistory history = TermHistoryFile.read(replica);
        assertEquals(List.of(0L, 1L), history.terms().stream().map(TermHistory.Term::number).toList());
        assertEquals(5, history.terms().getLast().firstIndex());
        assertTrue(Files.notExists(replica.resolve("replica-of")));
        try (BlitQueue<MarketData> queue = BlitQueue.open(replica, MarketData.class, SMALL);
             Appender<MarketData> appender = queue.appender()) {
            assertEquals(5, appender.append(new MarketData().fillFor(5, 5)));
            for (int i = 6; i < 400; i++) { // past the first file: a new one, created in term 1
                assertEquals(i, appender.append(new MarketData().fillFor(i, i)));
            }
        }
        long[] firsts = SegmentFiles.list(replica);
        assertTrue(firsts.length >= 2, "rolled: " + firsts.length);
        assertEquals(0, SegmentHeader.termOf(SegmentFiles.readHeaderBytes(replica, firsts[0])), "copied in term 0");
        assertEquals(1, SegmentHeader.termOf(SegmentFiles.readHeaderBytes(replica, firsts[1])), "created in term 1");

        assertTrue(QueueTerms.fence(primary, 1), "the old primary learns of term 1");
        try (BlitQueue<MarketData> queue = BlitQueue.open(primary, MarketData.class, SMALL)) {
            QueueFencedException e = assertThrows(QueueFencedException.class, queue::appender);
            assertEquals(1, e.newTerm());
        }
        assertEquals(QueueTerms.Role.FENCED, QueueTerms.status(primary).role());
    }

    @Test
    void aGivenTermMustExceedTheTermAndTheFenceAndARefusalChangesNothing() throws Exception {
        Path replica = tmp.resolve("replica");
        append(tmp.resolve("primary"), 3);
        copyAsReplica(tmp.resolve("primary"), replica);
        QueueTerms.fence(replica, 4); // the replica learnt of term 4
        List<String> before = names(replica);
        TermHistory history = TermHistoryFile.read(replica);

        IllegalArgumentException low = assertThrows(IllegalArgumentException.class,
                () -> QueueTerms.promote(replica, 4));
        assertTrue(low.getMessage().contains("term 4") && low.getMessage().contains("fence 4"), low.getMessage());
        assertThrows(IllegalArgumentException.class, () -> QueueTerms.promote(replica, 0));
        assertThrows(IllegalArgumentException.class, () -> QueueTerms.promote(replica, QueueTerms.MAX_TERM + 1));
        assertEquals(before, names(replica));
        assertEquals(history, TermHistoryFile.read(replica));

        assertEquals(9, QueueTerms.promote(replica, 9));
        assertEquals(9, QueueTerms.status(replica).fenceTerm());
        assertEquals(3, QueueTerms.status(replica).termStart());
    }

    @Test
    void withoutATermThePromotionIsOneAboveTheFence() throws Exception {
        Path replica = tmp.resolve("replica");
        append(tmp.resolve("primary"), 2);
        copyAsReplica(tmp.resolve("primary"), replica);
        QueueTerms.fence(replica, 6);
        assertEquals(7, QueueTerms.promote(replica));
    }

    @Test
    void aPrimaryIsRefused() throws Exception {
        Path primary = tmp.resolve("primary");
        append(primary, 2);
        List<String> before = names(primary);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> QueueTerms.promote(primary));
        assertTrue(e.getMessage().contains("queue " + primary + " is not a replica"), e.getMessage());
        assertEquals(before, names(primary));
        assertEquals(0, QueueTerms.status(primary).term());
    }

    /**
     * A fenced former primary is never told to promote itself (that would make a second primary): the refusal names
     * the newer term and says to follow its primary with {@code --rejoin}; nothing is changed.
     */
    @Test
    void aFencedPrimaryIsRefusedSayingToFollowThePrimaryOfTheNewerTerm() throws Exception {
        Path primary = tmp.resolve("primary");
        append(primary, 5);
        QueueTerms.fence(primary, 3);
        QueueTerms.Status before = QueueTerms.status(primary);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> QueueTerms.promote(primary));
        assertTrue(e.getMessage().contains("is fenced") && e.getMessage().contains("term 3")
                && e.getMessage().contains("follow the primary of term 3 with replicate follow --rejoin")
                && e.getMessage().contains("second primary"), e.getMessage());
        assertEquals(before, QueueTerms.status(primary));
    }

    /**
     * A former primary demoted to rejoin a newer one (its {@code replica-of} names that primary) refuses appends naming
     * the primary to append on, with no word of promoting it.
     */
    @Test
    void aDemotedPrimaryRefusesAppendsNamingThePrimaryItFollowsNeverSuggestingAPromotion() throws Exception {
        Path primary = tmp.resolve("primary");
        append(primary, 5);
        assertTrue(QueueTerms.demote(primary, "aeron newprimary:7000", false));
        try (BlitQueue<MarketData> queue = BlitQueue.open(primary, MarketData.class, SMALL)) {
            ReplicaAppendException e = assertThrows(ReplicaAppendException.class, queue::appender);
            assertTrue(e.getMessage().contains("append on the primary it follows (aeron newprimary:7000)"),
                    e.getMessage());
            assertTrue(!e.getMessage().contains("promot"), e.getMessage());
        }
    }

    @Test
    void aReplicaWithoutAQueueIdIsRefused() throws Exception {
        Path replica = tmp.resolve("replica");
        append(tmp.resolve("primary"), 2);
        copyAsReplica(tmp.resolve("primary"), replica);
        Files.delete(replica.resolve(TermHistoryFile.NAME));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> QueueTerms.promote(replica));
        assertTrue(e.getMessage().contains("holds no queue id"), e.getMessage());
        assertTrue(Files.exists(replica.resolve("replica-of")), "still a replica");
    }

    @Test
    void aReplicaAFollowerHoldsIsRefusedNamingItsPid() throws Exception {
        Path replica = tmp.resolve("replica");
        append(tmp.resolve("primary"), 2);
        copyAsReplica(tmp.resolve("primary"), replica);
        Process follower = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--sun-misc-unsafe-memory-access=allow", "-cp", System.getProperty("java.class.path"),
                ReplicaLockHolder.class.getName(), replica.toString()).redirectErrorStream(true).start();
        try {
            String line = new BufferedReader(new InputStreamReader(follower.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            assertTrue(line != null && line.startsWith("locked "), "the child holds the lock: " + line);
            TermHistory history = TermHistoryFile.read(replica);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> QueueTerms.promote(replica));
            assertTrue(e.getMessage().contains("is followed already (by pid " + follower.pid() + ")"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("stop it before promoting"), e.getMessage());
            assertEquals(history, TermHistoryFile.read(replica));
            assertEquals(QueueTerms.Role.REPLICA, QueueTerms.status(replica).role());
            follower.getOutputStream().close();
            assertTrue(follower.waitFor(30, TimeUnit.SECONDS));
        } finally {
            follower.destroyForcibly();
        }
        assertEquals(1, QueueTerms.promote(replica), "once the follower stopped");
    }

    @Test
    void aPromotionCutShortAfterItsHistoryIsCompletedByARerunInTheNextTerm() throws Exception {
        Path replica = tmp.resolve("replica");
        append(tmp.resolve("primary"), 4);
        copyAsReplica(tmp.resolve("primary"), replica);
        TermHistory history = TermHistoryFile.read(replica);
        TermHistoryFile.write(replica, history.withTerm(1, 4), false, "crashed"); // step 1 done, then a crash

        assertEquals(2, QueueTerms.promote(replica));
        TermHistory after = TermHistoryFile.read(replica);
        assertEquals(List.of(0L, 1L, 2L), after.terms().stream().map(TermHistory.Term::number).toList());
        assertEquals(4, after.terms().getLast().firstIndex());
        try (BlitQueue<MarketData> queue = BlitQueue.open(replica, MarketData.class, SMALL);
             Appender<MarketData> appender = queue.appender()) {
            assertEquals(4, appender.append(new MarketData()));
        }
    }

    @Test
    void theReplicaKeepsItsQueueId() throws Exception {
        Path primary = tmp.resolve("primary");
        Path replica = tmp.resolve("replica");
        append(primary, 1);
        copyAsReplica(primary, replica);
        QueueTerms.promote(replica);
        assertEquals(QueueTerms.status(primary).queueId(), QueueTerms.status(replica).queueId());
        assertNotEquals(null, QueueTerms.status(replica).queueId());
    }

    /** Appends {@code count} messages to the queue in {@code dir} (which gets its id, term 0 and fence). */
    private static void append(Path dir, int count) {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, SMALL);
             Appender<MarketData> appender = queue.appender()) {
            for (int i = 0; i < count; i++) {
                appender.append(new MarketData().fillFor(i, i));
            }
        }
    }

    private static List<String> names(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
