package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.RetentionPolicy;
import io.blit.queue.TermHistory;
import io.blit.queue.replica.QueueIdentity;
import io.blit.queue.replica.QueueTerms;
import io.blit.replication.wire.Positions;
import io.blit.replication.wire.Subscribe;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hand-crafted ACCEPTs from a source that holds the secret ({@link FakeSource}) to a real {@link Replica} that holds
 * records: a replica takes an accept's terms only where they extend its own history, none it could not be promoted
 * above, sets records aside only when started with {@code rejoin}, and a start it cannot honour ends the session,
 * never the replica (docs/failover.md, "A term counts only within the queue's own history").
 *
 * <p>The replica first follows a real source of 45,000 records in files of 1 MiB whose retention keeps the newest two,
 * so that its first file starts above index 0.
 */
@SuppressWarnings("try") // sources and replicas held open for their side effects
class HostileAcceptTest {
    private static final long RECORDS = 45_000;
    private static final Duration HANDSHAKE = Duration.ofSeconds(15);
    private static final Duration RESUBSCRIBE_WITHIN = Duration.ofSeconds(5);
    private static final Duration SOURCE_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path source;
    @TempDir
    Path replicaDir;
    @TempDir
    Path aeronDir;

    private FakeSource fake;
    private Replica replica;
    private String control;
    /** What the replica holds once it followed the real source. */
    private long next;
    private long first;
    private List<TermHistory.Term> held;
    /** The replica's newest request, not answered yet. */
    private Subscribe.Request pending;

    @BeforeEach
    void followARealSource() throws Exception {
        try (BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class,
                ReplicationTest.SMALL.retention(RetentionPolicy.keepNewestFiles(2)));
             Appender<Tick> appender = queue.appender()) {
            Tick tick = new Tick();
            for (long n = 0; n < RECORDS; n++) {
                appender.append(tick.fillFor(n));
            }
        }
        String realControl = Ports.loopback();
        try (ReplicationSource real = ReplicationSource.start(source, ReplicationTest.options(realControl));
             Replica follower = Replica.start(replicaDir, ReplicaOptions.of(realControl, Ports.loopback(),
                     ReplicationTest.SECRET))) {
            follower.awaitIndex(RECORDS, Duration.ofSeconds(30));
        }
        next = TickQueues.endOf(replicaDir);
        assertEquals(RECORDS, next);
        first = firstFileIndex(replicaDir);
        assertTrue(first > 0, "the replica's first file starts at " + first);
        held = QueueIdentity.history(replicaDir).terms();
        control = Ports.loopback();
        fake = FakeSource.start(aeronDir.resolve("fake-source"), control, ReplicationTest.SECRET);
    }

    @AfterEach
    void stop() {
        if (replica != null) {
            replica.close();
        }
        if (fake != null) {
            fake.close();
        }
    }

    @Test
    void aLowStartToAReplicaNotStartedWithRejoinIsRefusedNamingRejoinAndSetsNothingAside() throws Exception {
        Subscribe.Request request = handshake(false);
        Map<String, String> before = snapshot();
        fake.accept(next - 5, held);
        HostileNetworkTest.waitFor(() -> !replica.running(), 10);
        assertNull(replica.failure(), "a refusal, not a failure");
        assertNotNull(replica.refusal());
        String refusal = replica.refusal().getMessage();
        assertTrue(refusal.contains("--rejoin") && refusal.contains("from index " + (next - 5)), refusal);
        assertFalse(refusal.contains("promote"), refusal);
        assertTrue(replica.quarantined().isEmpty());
        assertEquals(before, snapshot(), "the replica's directory, quarantine included");
        assertEquals(next, request.nextIndex());
        assertEquals(next, TickQueues.endOf(replicaDir));
    }

    @Test
    void theSameLowStartToAReplicaStartedWithRejoinSetsTheTailAside() throws Exception {
        handshake(true);
        fake.accept(next - 5, held);
        HostileNetworkTest.waitFor(() -> !replica.quarantined().isEmpty() || !replica.running(), 10);
        assertNull(replica.failure());
        assertEquals(1, replica.quarantined().size());
        assertEquals(next - 5, replica.quarantined().getFirst().from());
        assertEquals(next - 5, replica.nextIndex());
    }

    @Test
    void termsAboveTheHighestLearntTermAreNotTakenAndTheReplicaCanStillBePromoted() throws Exception {
        byte[] terms = Files.readAllBytes(replicaDir.resolve("terms.blitt"));
        long fence = QueueTerms.fenceTerm(replicaDir);
        for (long huge : new long[] {QueueTerms.MAX_TERM, Long.MAX_VALUE}) {
            List<TermHistory.Term> claimed = new ArrayList<>(held);
            claimed.add(new TermHistory.Term(huge, next, 42));
            endsTheSessionAndWritesNothing(next, claimed);
        }
        assertEquals(fence, QueueTerms.fenceTerm(replicaDir), "the fence");
        assertTrue(java.util.Arrays.equals(terms, Files.readAllBytes(replicaDir.resolve("terms.blitt"))),
                "the term history");
        replica.close();
        assertEquals(held.getLast().number() + 1, QueueTerms.promote(replicaDir), "promoted above its own term");
    }

    @Test
    void theHighestLearntTermIsTakenAndLeavesRoomForAPromotion() throws Exception {
        handshake(false);
        List<TermHistory.Term> claimed = new ArrayList<>(held);
        claimed.add(new TermHistory.Term(QueueTerms.MAX_LEARNT_TERM, next, 42));
        fake.accept(next, claimed);
        HostileNetworkTest.waitFor(() -> QueueTerms.status(replicaDir).term() == QueueTerms.MAX_LEARNT_TERM, 10);
        assertTrue(replica.running());
        replica.close();
        assertEquals(QueueTerms.MAX_TERM, QueueTerms.promote(replicaDir));
    }

    @Test
    void aStartTheReplicaCannotHonourEndsTheSessionAndTheReplicaRunsOn() throws Exception {
        for (long start : new long[] {first - 1, 0, next + 1, Long.MAX_VALUE}) {
            endsTheSessionAndWritesNothing(start, held);
        }
    }

    @Test
    void termsThatWouldChangeTheTermsOfRecordsItKeepsAreNotTaken() throws Exception {
        // a term 1 said to begin below the replica's end, with no record set aside: its records would change terms
        List<TermHistory.Term> claimed = new ArrayList<>(held);
        claimed.add(new TermHistory.Term(held.getLast().number() + 1, next - 5, 42));
        endsTheSessionAndWritesNothing(next, claimed);
        // a history of another lineage below what it keeps
        endsTheSessionAndWritesNothing(next, List.of(new TermHistory.Term(0, 0, 7), new TermHistory.Term(5, next, 8)));
    }

    /**
     * A source that sends 1,024 names (16 POSITIONS of 64) fills the replica's positions file only up to the slots kept
     * for the replica's own consumers: the last {@link io.blit.queue.replica.ReplicaPositions#RESERVED_SLOTS} stay
     * free, and a consumer opened on the replica gets one. Names the source removes free their slots for its next
     * names, and the reserve still holds.
     */
    @Test
    void aSourceSendingMoreNamesThanSlotsLeavesTheLastSlotsToTheReplicasOwnConsumers() throws Exception {
        handshake(false);
        fake.accept(next, held);
        int reserved = io.blit.queue.replica.ReplicaPositions.RESERVED_SLOTS;
        for (int m = 0; m < 16; m++) {
            int first = m * Positions.MAX_ENTRIES;
            fake.sendSealed((b, sequence) -> {
                int length = Positions.head(b, sequence, Positions.MAX_ENTRIES);
                for (int i = 0; i < Positions.MAX_ENTRIES; i++) {
                    byte[] name = ("stream-" + (first + i)).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                    Positions.putEntry(b, i, 5, 1_795_000_000_000L, Positions.NAMED, name.length);
                    b.setMemory(Positions.entryAt(i) + Positions.NAME_AT, Positions.NAME_BYTES, (byte) 0);
                    b.putBytes(Positions.entryAt(i) + Positions.NAME_AT, name);
                }
                return length;
            });
        }
        Map<String, Long> stored = ConsumerPositionsTest.awaitPositions(replicaDir, p -> p.size() >= 1023 - reserved);
        Thread.sleep(300); // any name beyond would be stored by now
        stored = ConsumerPositionsTest.awaitPositions(replicaDir, p -> true);
        assertEquals(1023 - reserved, stored.size(), "the names the stream created");
        assertTrue(replica.running());
        assertNull(replica.failure());
        try (BlitQueue<Tick> queue = BlitQueue.open(replicaDir, Tick.class, ReplicationTest.SMALL);
             io.blit.queue.NamedTailer<Tick> own = queue.tailer("own")) {
            own.commit(); // a slot of its own
        }
        assertEquals(1023 - reserved + 1, ConsumerPositionsTest.positionsOf(replicaDir).size());

        // the source removes 128 names and sends 128 new ones: 63 take the FREE slots left beside the replica's own
        // consumer, 64 reuse removed slots, and the last stays out: 64 removed slots stay reusable, the reserve
        for (int first = 0; first < 128; first += Positions.MAX_ENTRIES) {
            sendNames(first, Positions.REMOVED, "stream-");
        }
        for (int first = 0; first < 128; first += Positions.MAX_ENTRIES) {
            sendNames(first, Positions.NAMED, "again-");
        }
        stored = ConsumerPositionsTest.awaitPositions(replicaDir, p -> p.containsKey("again-126"));
        Thread.sleep(300); // any name beyond would be stored by now
        stored = ConsumerPositionsTest.awaitPositions(replicaDir, p -> true);
        assertEquals(1023 - reserved, stored.size(), "831 names of the stream, 127 new ones and the replica's own");
        assertTrue(stored.containsKey("own"));
        assertFalse(stored.containsKey("again-127"), "the reserve holds: " + reserved + " slots stay reusable");
        assertFalse(stored.containsKey("stream-0"));
        byte[] header = java.nio.file.Files.readAllBytes(replicaDir.resolve("consumers.blitc"));
        assertEquals(1, header[48] & 1, "removed slots were reused: incompatible feature bit 0 of the file");
        assertTrue(replica.running());
        assertNull(replica.failure());
    }

    /** Sends one POSITIONS message of {@value Positions#MAX_ENTRIES} names {@code prefix + (first + i)} in {@code state}. */
    private void sendNames(int first, int state, String prefix) {
        fake.sendSealed((b, sequence) -> {
            int length = Positions.head(b, sequence, Positions.MAX_ENTRIES);
            for (int i = 0; i < Positions.MAX_ENTRIES; i++) {
                byte[] name = (prefix + (first + i)).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                Positions.putEntry(b, i, 5, 1_795_000_000_000L, state, name.length);
                b.setMemory(Positions.entryAt(i) + Positions.NAME_AT, Positions.NAME_BYTES, (byte) 0);
                b.putBytes(Positions.entryAt(i) + Positions.NAME_AT, name);
            }
            return length;
        });
    }

    /** One session: the accept of {@code start} and {@code terms} must end it, and nothing else. */
    private void endsTheSessionAndWritesNothing(long start, List<TermHistory.Term> terms) throws Exception {
        if (replica == null) {
            handshake(false);
        } else {
            fake.challenge(pending, HANDSHAKE);
        }
        Map<String, String> before = snapshot();
        fake.accept(start, terms);
        Subscribe.Request again = fake.awaitNewRequest(RESUBSCRIBE_WITHIN);
        String what = "an accept from " + start + " of terms " + terms;
        assertNull(replica.failure(), () -> what + ": the replica stopped: " + replica.failure());
        assertNull(replica.refusal(), what);
        assertTrue(replica.running(), what);
        assertNotNull(again, what + ": the replica subscribes again at once");
        assertEquals(next, again.nextIndex(), what);
        assertEquals(before, snapshot(), what + ": the replica's directory");
        pending = again;
    }

    /** Starts the replica on the fake source and answers its request with a challenge; returns the request. */
    private Subscribe.Request handshake(boolean rejoin) {
        replica = Replica.start(replicaDir, ReplicaOptions.of(control, Ports.loopback(), ReplicationTest.SECRET)
                .sourceTimeout(SOURCE_TIMEOUT).rejoin(rejoin));
        Subscribe.Request request = fake.awaitNewRequest(HANDSHAKE);
        assertNotNull(request, "the replica subscribes");
        assertEquals(next, request.nextIndex());
        fake.challenge(request, HANDSHAKE);
        return request;
    }

    private static long firstFileIndex(Path dir) throws IOException {
        String[] names = ReplicationTest.segmentNames(dir);
        return Long.parseLong(names[0].replaceAll("\\D", ""));
    }

    /**
     * Every file and directory under the replica's directory: path to size and CRC32C (directories: "dir"); not its lock
     * nor the temporaries of the blank next file its writer prepares and deletes when it closes.
     */
    private Map<String, String> snapshot() throws InterruptedException {
        Thread.sleep(100); // what an accept would write is written within this
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> tree = Files.walk(replicaDir)) {
            for (Path path : (Iterable<Path>) tree::iterator) {
                String name = replicaDir.relativize(path).toString();
                if (Files.isDirectory(path)) {
                    files.put(name, "dir");
                } else if (!name.equals("replica.lock") && !name.contains(".tmp-")) { // the next file, zero-filled
                    CRC32C crc = new CRC32C();
                    crc.update(Files.readAllBytes(path));
                    files.put(name, Files.size(path) + " bytes, CRC32C " + Long.toHexString(crc.getValue()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }
}
