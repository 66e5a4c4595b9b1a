package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.replica.RecordStream;
import io.blit.replication.wire.Accept;
import io.blit.replication.wire.Batch;
import io.blit.replication.wire.Heartbeat;
import io.blit.replication.wire.Positions;
import io.blit.replication.wire.Sealer;
import io.blit.replication.wire.Session;
import io.blit.replication.wire.Subscribe;
import io.blit.replication.wire.Wire;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica facing a source that holds the secret and sends what no honest source sends ({@link FakeSource}): every
 * message below is sealed under the session's key with the session's next sequence number, so it passes the tag check
 * and reaches the replica's decoding. Each one must end the session and nothing else: the replica keeps running, sends
 * a new SUBSCRIBE (a new nonce) at once, and has written nothing (its index and every byte of its directory as they
 * were). Then a real {@link ReplicationSource} over the queue the fake source took its honest bytes from serves the
 * same replica to the end, and the files are byte-identical. A sealed REFUSE in place of the ACCEPT is the one message
 * that stops the replica.
 *
 * <p>The FILE cases run while the replica holds no file (so nothing but the check of the header itself can refuse
 * it); then the fake source serves the queue's first file and first run honestly, and the stream cases run at the
 * replica's next index and file position, each a mutation of the honest next run or record that the replica would
 * take unchanged.
 */
class HostileSourceTest {
    static final byte[] SECRET = ReplicationTest.SECRET;
    private static final long RECORDS = 60_000; // three files of 1 MiB
    private static final long SEGMENT = 1 << 20;
    private static final QueueOptions OPTIONS = QueueOptions.defaults().segmentSize(SEGMENT);
    /**
     * Far longer than {@link #RESUBSCRIBE_WITHIN}: a resubscription within it is the session's end (a hostile message),
     * never the source timeout. A wait that may have to sit this timeout out is longer than it.
     */
    private static final Duration SOURCE_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration RESUBSCRIBE_WITHIN = Duration.ofSeconds(5);
    private static final Duration HANDSHAKE = Duration.ofSeconds(15);
    /** Bounds the real source's serving of the whole queue to the replica, on a loaded machine. */
    private static final Duration CATCH_UP = Duration.ofSeconds(60);
    private static final ByteOrder LE = Wire.ORDER;

    // The queue's record header word (docs/format.md, "Records"), in the byte order of its files.
    private static final ByteOrder WORD_ORDER = ByteOrder.nativeOrder();
    private static final long STATE_MASK = 3L << 62;
    private static final long CLAIMED = 1L << 62;
    private static final long COMMITTED = 2L << 62;
    private static final long PADDING = 1L << 61;
    private static final long LENGTH_MASK = 0xFFFF_FFFFL;

    // Offsets in a segment file's header (queue/.../internal/SegmentHeader.java).
    private static final int HEADER_LENGTH_AT = 12;
    private static final int SEGMENT_SIZE_AT = 16;
    private static final int FIRST_INDEX_AT = 24;
    private static final int PID_AT = 40;

    @TempDir
    Path source;
    @TempDir
    Path replicaDir;
    @TempDir
    Path aeronDir;

    private String control;
    private FakeSource fake;
    private Replica replica;
    private HugeFileGuard guard;
    /** The replica's newest request, not answered yet. */
    private Subscribe.Request pending;
    /** Whether a session of the fake source is accepted and still open. */
    private boolean streaming;
    /** Why the replica's thread cannot be stopped (an earlier case left it looping), or null. */
    private String stuck;

    /** The source queue's first file header, first run (served honestly) and the run after it (mutated). */
    private byte[] header;
    private Run prefix;
    private Run next;

    /** A RUN as the source's file stores it. */
    private record Run(long index, int count, long position, byte[] bytes) {
    }

    @AfterEach
    void stop() {
        if (replica != null) {
            replica.close();
        }
        if (fake != null) {
            fake.close();
        }
        if (guard != null) {
            guard.close();
        }
    }

    @TestFactory
    List<DynamicTest> eachHostileMessageEndsTheSessionAndWritesNothing() throws Exception {
        readSourceMaterial();
        control = Ports.loopback();
        fake = FakeSource.start(aeronDir.resolve("fake-source"), control, SECRET);
        fake.servesQueue(io.blit.queue.replica.QueueIdentity.ofSource(source)); // the real source takes over later
        guard = HugeFileGuard.watch(replicaDir, 16 * SEGMENT);
        replica = startReplica();
        pending = fake.awaitNewRequest(HANDSHAKE); // the replica has opened its directory
        assertNotNull(pending, "the replica subscribes");

        List<DynamicTest> tests = new ArrayList<>();
        for (Case c : fileCases()) {
            tests.add(dynamicTest("no file yet: " + c.name, () -> step(() -> refusedWithoutAWrite(c.message))));
        }
        tests.add(dynamicTest("an honest batch: the first file and its first run are taken",
                () -> step(this::serveThePrefix)));
        for (Case c : streamCases()) {
            tests.add(dynamicTest(c.name, () -> step(() -> refusedWithoutAWrite(c.message))));
        }
        for (Case c : positionsCases()) {
            tests.add(dynamicTest(c.name, () -> step(() -> refusedWithoutAWrite(c.message))));
        }
        tests.add(dynamicTest("POSITIONS beyond the replica's end are stored at its end",
                () -> step(this::positionsBeyondTheEndAreClamped)));
        tests.add(dynamicTest("a real source takes over and the replica ends byte-identical", this::realSourceTakesOver));
        return tests;
    }

    @Test
    void aSealedRefusalInPlaceOfTheAcceptStopsTheReplicaNamingTheReason() throws Exception {
        control = Ports.loopback();
        fake = FakeSource.start(aeronDir.resolve("fake-source"), control, SECRET);
        replica = startReplica();
        Subscribe.Request request = fake.awaitNewRequest(HANDSHAKE);
        assertNotNull(request, "the replica subscribes");
        fake.challenge(request, HANDSHAKE);
        fake.refuse("this source serves another queue (a test's reason)");
        long deadline = System.nanoTime() + RESUBSCRIBE_WITHIN.toNanos();
        while (replica.running() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertFalse(replica.running(), "a sealed refusal stops the replica");
        assertNull(replica.failure(), "a refusal is not a failure");
        assertNotNull(replica.refusal(), "the refusal is reported");
        assertTrue(replica.refusal().getMessage().contains("this source serves another queue (a test's reason)"),
                replica.refusal().getMessage());
        assertFalse(fake.newRequestWithin(Duration.ofSeconds(1)), "a refused replica does not subscribe again");
    }

    // ---------------------------------------------------------------------------------------------------------------
    // The cases

    private record Case(String name, FakeSource.Message message) {
    }

    /** FILE entries while the replica holds no file: the check of the header is all that can refuse them. */
    private List<Case> fileCases() {
        List<Case> cases = new ArrayList<>();
        for (int length : new int[] {-1, 0, 4097, 1 << 20, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            // the entry carries 4097 bytes for 4097, so that only the limit is wrong
            byte[] carried = length == 4097 ? Arrays.copyOf(header, 4097) : header;
            cases.add(new Case("a FILE entry whose header length is " + length,
                    batch(1, (b, at) -> fileEntryStating(b, at, carried, length))));
        }
        cases.add(new Case("a FILE header with a bad CRC (one bit of its pid flipped)",
                fileBatch(flipBit(header, PID_AT * 8 + 3))));
        cases.add(new Case("a FILE header whose CRC itself is wrong",
                fileBatch(flipBit(header, (header.length - 1) * 8))));
        for (long size : new long[] {1L << 40, 1L << 62, -4096, 4096, 70_000}) {
            cases.add(new Case("a FILE header (CRC valid) stating a segment size of " + size,
                    fileBatch(withCrc(withLong(header, SEGMENT_SIZE_AT, size)))));
        }
        cases.add(new Case("a FILE header (CRC valid) stating first index -1",
                fileBatch(withCrc(withLong(header, FIRST_INDEX_AT, -1)))));
        cases.add(new Case("a FILE entry of only the first 20 bytes of a header", fileBatch(Arrays.copyOf(header, 20))));
        byte[] junk = Arrays.copyOf(header, header.length + 8);
        Arrays.fill(junk, header.length, junk.length, (byte) 0x5a);
        cases.add(new Case("a FILE header followed by 8 bytes that are not its", fileBatch(junk)));
        return cases;
    }

    /** Stream cases at the replica's next index and position: each a mutation of what the replica would take. */
    private List<Case> streamCases() {
        List<Case> cases = new ArrayList<>();
        int lastRecordAt = lastRecordOffset(next.bytes);
        for (long length : new long[] {0xFFFF_FFFFL, 0xFFFF_FFF8L, 0x8000_0000L}) {
            cases.add(new Case("a RUN whose first record word states the negative length " + (int) length,
                    runBatch(new Run(next.index, next.count, next.position, withWordLength(next.bytes, 0, length)))));
        }
        cases.add(new Case("a RUN whose first record word states a length of 2^31 - 8",
                runBatch(new Run(next.index, next.count, next.position, withWordLength(next.bytes, 0, 0x7FFF_FFF8L)))));
        cases.add(new Case("a RUN whose last record runs past the run",
                runBatch(new Run(next.index, next.count, next.position,
                        withWordLength(next.bytes, lastRecordAt, next.bytes.length - lastRecordAt)))));
        cases.add(new Case("a RUN whose first record is CLAIMED, not final",
                runBatch(new Run(next.index, next.count, next.position,
                        withWord(next.bytes, 0, (word(next.bytes, 0) & ~STATE_MASK) | CLAIMED)))));
        cases.add(new Case("a RUN whose first record word is a padding word",
                runBatch(new Run(next.index, next.count, next.position,
                        withWord(next.bytes, 0, word(next.bytes, 0) | PADDING)))));
        for (int count : new int[] {0, next.count - 1, next.count + 1, Integer.MAX_VALUE, -1}) {
            cases.add(new Case("a RUN of " + next.count + " records announced as " + count,
                    runBatch(new Run(next.index, count, next.position, next.bytes))));
        }
        cases.add(new Case("a RUN cut inside its last record",
                runBatch(new Run(next.index, next.count, next.position,
                        Arrays.copyOf(next.bytes, next.bytes.length - 8)))));
        for (long length : new long[] {next.bytes.length + 4L, next.bytes.length - 4L, next.bytes.length + 8L,
                (1L << 31) - 8, Long.MAX_VALUE, -8, 0}) {
            cases.add(new Case("a RUN of " + next.bytes.length + " bytes whose length field states " + length,
                    batch(1, (b, at) -> runEntryStating(b, at, next, length))));
        }
        cases.add(new Case("a RUN one index ahead of the replica (a gap)",
                runBatch(new Run(next.index + 1, next.count, next.position, next.bytes))));
        cases.add(new Case("a RUN one index behind the replica that overlaps what it holds",
                runBatch(new Run(next.index - 1, next.count, next.position, next.bytes))));
        cases.add(new Case("a RUN at index 2^63 - 1, whose indices overflow",
                runBatch(new Run(Long.MAX_VALUE, next.count, next.position, next.bytes))));
        cases.add(new Case("a RUN 8 bytes past the replica's file position",
                runBatch(new Run(next.index, next.count, next.position + 8, next.bytes))));
        int first = (int) ((8 + (word(next.bytes, 0) & LENGTH_MASK) + 7) & ~7L);
        cases.add(new Case("a PART from offset 8 with no first part before it", batch(1, (b, at) ->
                partEntry(b, at, next.index, next.position, first, 8, Arrays.copyOfRange(next.bytes, 8, first)))));
        cases.add(new Case("a first PART whose record length is 8 more than its word states", batch(1, (b, at) ->
                partEntry(b, at, next.index, next.position, first + 8, 0, Arrays.copyOf(next.bytes, first)))));
        cases.add(new Case("a first PART whose record word is CLAIMED, not final", batch(1, (b, at) ->
                partEntry(b, at, next.index, next.position, first, 0,
                        withWord(Arrays.copyOf(next.bytes, first), 0, (word(next.bytes, 0) & ~STATE_MASK) | CLAIMED)))));
        cases.add(new Case("a first PART one index ahead of the replica (a gap)", batch(1, (b, at) ->
                partEntry(b, at, next.index + 1, next.position, first, 0, Arrays.copyOf(next.bytes, first)))));
        cases.add(new Case("a first PART 8 bytes past the replica's file position", batch(1, (b, at) ->
                partEntry(b, at, next.index, next.position + 8, first, 0, Arrays.copyOf(next.bytes, first)))));
        for (int kind : new int[] {0, 5, -1}) {
            cases.add(new Case("an entry of unknown kind " + kind, batch(1, (b, at) -> {
                int end = runEntry(b, at, next);
                b.putInt(at, kind, LE);
                return end;
            })));
        }
        for (int count : new int[] {2, Integer.MAX_VALUE, 0, -1}) {
            cases.add(new Case("a batch of one entry whose entry count is " + count,
                    batch(count, (b, at) -> runEntry(b, at, next))));
        }
        cases.add(new Case("a batch with 8 bytes after its entries", batch(1, (b, at) -> {
            int end = runEntry(b, at, next);
            b.putLong(end, 0L);
            return end + 8;
        })));
        cases.add(new Case("a batch with no entry at all", batch(0, (b, at) -> at)));
        long nextWord = word(next.bytes, 0);
        cases.add(new Case("a RECORD entry whose zero field is not zero", batch(1, (b, at) -> {
            Batch.putRecord(b, at, next.index, (nextWord & ~LENGTH_MASK & ~STATE_MASK) | COMMITTED | PADDING);
            b.putInt(at + 4, 8, LE);
            return at + Batch.RECORD_LENGTH;
        })));
        cases.add(new Case("a RECORD entry of a committed record word stating 8 payload bytes", batch(1, (b, at) -> {
            Batch.putRecord(b, at, next.index, (nextWord & ~LENGTH_MASK) | 8);
            return at + Batch.RECORD_LENGTH;
        })));
        cases.add(new Case("a RECORD entry of a padding word stating 8 payload bytes", batch(1, (b, at) -> {
            Batch.putRecord(b, at, next.index, (nextWord & ~LENGTH_MASK & ~STATE_MASK) | COMMITTED | PADDING | 8);
            return at + Batch.RECORD_LENGTH;
        })));
        cases.add(new Case("a RECORD entry of a padding word one index ahead (a gap)", batch(1, (b, at) -> {
            Batch.putRecord(b, at, next.index + 1, (nextWord & ~LENGTH_MASK & ~STATE_MASK) | COMMITTED | PADDING);
            return at + Batch.RECORD_LENGTH;
        })));
        cases.add(new Case("the honest next BATCH with a sequence number skipped",
                (b, sequence) -> runBatch(next).write(b, sequence + 1)));
        cases.add(new Case("a HEARTBEAT with a sequence number skipped", (b, sequence) -> {
            Session.head(b, Wire.HEARTBEAT, 0, sequence + 1);
            b.putLong(Session.BODY_AT, next.index, LE);
            return Heartbeat.LENGTH - Sealer.TAG;
        }));
        cases.add(new Case("a HEARTBEAT 8 bytes longer than a heartbeat", (b, sequence) -> {
            Session.head(b, Wire.HEARTBEAT, 0, sequence);
            b.putLong(Session.BODY_AT, next.index, LE);
            b.putLong(Session.BODY_AT + 8, 0L, LE);
            return Heartbeat.LENGTH - Sealer.TAG + 8;
        }));
        for (int type : new int[] {99, 0, Wire.ACK, Wire.SUBSCRIBE}) {
            cases.add(new Case("a message of type " + type + " in the stream", (b, sequence) -> {
                Session.head(b, type, 0, sequence);
                b.putLong(Session.BODY_AT, next.index, LE);
                return Session.BODY_AT + 8;
            }));
        }
        cases.add(new Case("a second ACCEPT", (b, sequence) -> {
            Session.head(b, Wire.ACCEPT, 0, sequence);
            b.putLong(Session.BODY_AT, next.index, LE);
            b.putInt(24, 1, LE); // one term: term 0 from index 0
            b.putInt(28, 0, LE);
            b.setMemory(32, 24, (byte) 0);
            return 56;
        }));
        cases.add(new Case("a REFUSE after the ACCEPT (a refusal belongs in place of the ACCEPT only)", (b, sequence) -> {
            byte[] reason = "too late to refuse".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            Session.head(b, Wire.REFUSE, reason.length, sequence);
            b.putBytes(Session.BODY_AT, reason);
            return Session.BODY_AT + reason.length;
        }));
        return cases;
    }

    /** POSITIONS that no honest source sends: each must end the session with no position stored (no file created). */
    private List<Case> positionsCases() {
        List<Case> cases = new ArrayList<>();
        Entry good = new Entry(5, Positions.NAMED, 1, "c");
        for (int count : new int[] {0, -1, 2, Positions.MAX_ENTRIES + 1, Integer.MAX_VALUE}) {
            cases.add(new Case("a POSITIONS of one entry stating " + count + " entries", positions(count, 0, good)));
        }
        List<Entry> many = new ArrayList<>();
        for (int i = 0; i <= Positions.MAX_ENTRIES; i++) {
            many.add(new Entry(i, Positions.NAMED, 1, "c" + i));
        }
        cases.add(new Case("a POSITIONS of 65 entries", positions(many.size(), 0, many.toArray(Entry[]::new))));
        cases.add(new Case("a POSITIONS with no entry", positions(0, 0)));
        cases.add(new Case("a POSITIONS with 8 bytes after its entry", positions(1, 8, good)));
        for (int state : new int[] {0, 3, -1}) {
            cases.add(new Case("a POSITIONS entry of state " + state, positions(1, 0, new Entry(5, state, 1, "c"))));
        }
        for (long committed : new long[] {-2, Long.MIN_VALUE}) {
            cases.add(new Case("a POSITIONS entry at index " + committed,
                    positions(1, 0, new Entry(committed, Positions.NAMED, 1, "c"))));
        }
        for (int length : new int[] {0, 33, -1, Integer.MAX_VALUE}) {
            cases.add(new Case("a POSITIONS entry whose name length is " + length,
                    positions(1, 0, new Entry(5, Positions.NAMED, length, "c"))));
        }
        for (String name : new String[] {"a/b", "a b", "..\\x", "\u00e9t\u00e9"}) {
            cases.add(new Case("a POSITIONS entry named " + name.replace('\\', '|'),
                    positions(1, 0, new Entry(5, Positions.NAMED, name.length(), name))));
        }
        cases.add(new Case("a POSITIONS entry whose name is shorter than its length (a zero byte in it)",
                positions(1, 0, new Entry(5, Positions.NAMED, 2, "c"))));
        cases.add(new Case("a POSITIONS entry with a byte after its name in the padding",
                positions(1, 0, new Entry(5, Positions.NAMED, 1, "cx"))));
        cases.add(new Case("a POSITIONS whose first entry is good and second bad: neither stored",
                positions(2, 0, good, new Entry(5, Positions.NAMED, 40, "d"))));
        return cases;
    }

    /** One entry of a hand-made POSITIONS: its name's bytes as given (up to 32), its length field as stated. */
    private record Entry(long committed, int state, int nameLength, String name) {
    }

    /** A POSITIONS stating {@code count} entries, carrying {@code entries} and {@code extra} zero bytes after them. */
    private static FakeSource.Message positions(int count, int extra, Entry... entries) {
        return (b, sequence) -> {
            Session.head(b, Wire.POSITIONS, count, sequence);
            int at = Session.BODY_AT;
            for (Entry e : entries) {
                b.putLong(at, e.committed, LE);
                b.putLong(at + 8, 1_795_000_000_000L, LE);
                b.putInt(at + 16, e.state, LE);
                b.putInt(at + 20, e.nameLength, LE);
                b.setMemory(at + Positions.NAME_AT, Positions.NAME_BYTES, (byte) 0);
                b.putBytes(at + Positions.NAME_AT, e.name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                at += Positions.ENTRY_LENGTH;
            }
            b.setMemory(at, extra, (byte) 0);
            return at + extra;
        };
    }

    /**
     * An honest source never sends a position past what it sent of the records; one that does gets it stored at the
     * replica's last index, and a position within what the replica holds is stored as sent.
     */
    private void positionsBeyondTheEndAreClamped() throws Exception {
        ensureSession();
        long held = replica.nextIndex();
        fake.sendSealed(positions(3, 0, new Entry(Long.MAX_VALUE, Positions.NAMED, 1, "c"),
                new Entry(held + 1, Positions.NAMED, 3, "c.2"), new Entry(5, Positions.NAMED, 1, "z")));
        Map<String, Long> stored = ConsumerPositionsTest.awaitPositions(replicaDir, p -> p.size() == 3);
        assertEquals(Map.of("c", held - 1, "c.2", held - 1, "z", 5L), stored, "the replica's consumers");
        assertTrue(replica.running());
        assertEquals(held, replica.nextIndex());
    }

    // ---------------------------------------------------------------------------------------------------------------
    // The steps

    private interface Step {
        void run() throws Exception;
    }

    /**
     * Runs one step of the sequence. When it fails, the replica is stopped and started again on its directory, so that
     * the next steps still test something; if its thread does not stop (it loops), the remaining steps are aborted.
     */
    private void step(Step step) throws Exception {
        assumeTrue(stuck == null, () -> "an earlier step left the replica's thread running: " + stuck);
        try {
            step.run();
        } catch (Exception | AssertionError e) {
            streaming = false;
            pending = null;
            replica.close();
            if (replica.running()) {
                stuck = e.getMessage();
            } else {
                fake.discardRequests(Duration.ofMillis(200)); // the closed replica's
                replica = startReplica();
            }
            throw e;
        }
    }

    private Replica startReplica() {
        return Replica.start(replicaDir,
                ReplicaOptions.of(control, Ports.loopback(), SECRET).sourceTimeout(SOURCE_TIMEOUT));
    }

    /** Sends {@code hostile} in an accepted session; the replica must end it, write nothing and subscribe anew. */
    private void refusedWithoutAWrite(FakeSource.Message hostile) throws Exception {
        long held = replica.nextIndex();
        ensureSession();
        Map<String, String> before = stableSnapshot(); // after the accept: a replica takes its queue id with it
        fake.sendSealed(hostile);
        streaming = false;
        Subscribe.Request again = fake.awaitNewRequest(RESUBSCRIBE_WITHIN);
        RuntimeException failure = replica.failure();
        assertNull(failure, () -> "the replica stopped: " + failure);
        assertNull(replica.refusal(), "the replica was not refused");
        assertTrue(replica.running(), "the replica runs");
        assertNotNull(again, "the replica sends a new SUBSCRIBE (a new nonce) within " + RESUBSCRIBE_WITHIN);
        assertEquals(held, again.nextIndex(), "its new request states what it held");
        assertEquals(held, replica.nextIndex(), "the replica's index");
        assertEquals(before, stableSnapshot(), "the replica's directory (file: size and CRC32C)");
        pending = again;
    }

    /** The honest first batch: the first file's header and first run; the session stays open. */
    private void serveThePrefix() throws Exception {
        ensureSession();
        fake.sendSealed(batch(2, (b, at) -> runEntry(b, fileEntry(b, at, header), prefix)));
        long deadline = System.nanoTime() + HANDSHAKE.toNanos();
        while (replica.nextIndex() < prefix.index + prefix.count && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(prefix.index + prefix.count, replica.nextIndex(), "the replica took the honest batch");
        assertTrue(replica.running());
        assertEquals(next.index, replica.nextIndex(), "the mutated run starts at the replica's next index");
    }

    private void realSourceTakesOver() throws Exception {
        assumeTrue(stuck == null, () -> "an earlier step left the replica's thread running: " + stuck);
        fake.close();
        fake = null;
        try (ReplicationSource real = ReplicationSource.start(source, SourceOptions.of(control, SECRET));
             BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, OPTIONS);
             Appender<Tick> appender = queue.appender()) {
            // the replica resubscribes as soon as the fake source's stream ends; should it still sit out its source
            // timeout (a session the fake's close did not end), the wait outlasts that timeout and the catch-up after it
            replica.awaitIndex(RECORDS, SOURCE_TIMEOUT.plus(CATCH_UP));
            Tick tick = new Tick();
            for (long n = RECORDS; n < RECORDS + 1_000; n++) {
                appender.append(tick.fillFor(n));
            }
            replica.awaitIndex(RECORDS + 1_000, Duration.ofSeconds(30));
            real.awaitReplicated(RECORDS + 999, 1, Duration.ofSeconds(10));
        }
        replica.close();
        assertNull(replica.failure());
        ReplicationTest.assertSameFiles(source, replicaDir);
        assertTrue(ReplicationTest.segmentNames(replicaDir).length >= 3, "the replica crossed rolls");
    }

    /** Opens a session of the fake source (answers the replica's newest request, accepts) unless one is open. */
    private void ensureSession() {
        if (streaming) {
            return;
        }
        Subscribe.Request request = pending != null ? pending : fake.awaitNewRequest(HANDSHAKE);
        assertNotNull(request, "the replica subscribes");
        assertEquals(replica.nextIndex(), request.nextIndex(), "the request states what the replica holds");
        pending = null;
        fake.challenge(request, HANDSHAKE);
        fake.accept(Math.max(0, request.nextIndex()));
        assertEquals(0, fake.malformedControlMessages(), "every control message of the replica is well formed");
        streaming = true;
    }

    /** Appends the queue's records, and reads its first file header, first run and next run as a source would. */
    private void readSourceMaterial() {
        try (BlitQueue<Tick> queue = BlitQueue.open(source, Tick.class, OPTIONS);
             Appender<Tick> appender = queue.appender()) {
            Tick tick = new Tick();
            for (long n = 0; n < RECORDS; n++) {
                appender.append(tick.fillFor(n));
            }
            try (RecordStream stream = RecordStream.open(source, OPTIONS, 0)) {
                assertEquals(RecordStream.FILE, stream.pollRun(4096));
                header = stream.fileHeader();
                prefix = run(stream, 4096);
                next = run(stream, 400);
            }
        }
        assertTrue(next.count > 1, "the mutated run holds several records");
    }

    private static Run run(RecordStream stream, long maxBytes) {
        assertEquals(RecordStream.RUN, stream.pollRun(maxBytes));
        byte[] bytes = new byte[Math.toIntExact(stream.runLength())];
        stream.copyRun(MemorySegment.ofArray(bytes), 0);
        return new Run(stream.index(), stream.runCount(), stream.runPosition(), bytes);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Batches

    /** Writes entries from {@code at}; returns where they end. */
    private interface Entries {
        int write(UnsafeBuffer buffer, int at);
    }

    /** A BATCH stating {@code count} entries, those {@code entries} writes. */
    private static FakeSource.Message batch(int count, Entries entries) {
        return (b, sequence) -> {
            Batch.start(b, sequence);
            int end = entries.write(b, Session.BODY_AT);
            Batch.count(b, count);
            return end;
        };
    }

    private static FakeSource.Message fileBatch(byte[] fileHeader) {
        return batch(1, (b, at) -> fileEntry(b, at, fileHeader));
    }

    private static FakeSource.Message runBatch(Run run) {
        return batch(1, (b, at) -> runEntry(b, at, run));
    }

    private static int fileEntry(UnsafeBuffer b, int at, byte[] fileHeader) {
        Batch.putFile(b, at, fileHeader);
        return at + Batch.fileEntryLength(fileHeader.length);
    }

    /** A FILE entry carrying {@code fileHeader} whose length field states {@code length}. */
    private static int fileEntryStating(UnsafeBuffer b, int at, byte[] fileHeader, int length) {
        int end = fileEntry(b, at, fileHeader);
        b.putInt(at + 4, length, LE);
        return end;
    }

    /** A PART entry of {@code part}, the bytes of a {@code recordLength}-byte record from {@code partOffset}. */
    private static int partEntry(UnsafeBuffer b, int at, long index, long position, long recordLength, long partOffset,
                                 byte[] part) {
        Batch.putPartHead(b, at, index, position, recordLength, partOffset, part.length);
        b.putBytes(at + Batch.PART_BYTES, part);
        return at + Batch.PART_BYTES + part.length;
    }

    private static int runEntry(UnsafeBuffer b, int at, Run run) {
        Batch.putRunHead(b, at, run.count, run.index, run.position, run.bytes.length);
        b.putBytes(at + Batch.RUN_BYTES, run.bytes);
        return at + Batch.RUN_BYTES + run.bytes.length;
    }

    /** The honest next run whose length field states {@code length}. */
    private static int runEntryStating(UnsafeBuffer b, int at, Run run, long length) {
        int end = runEntry(b, at, run);
        b.putLong(at + 24, length, LE);
        return end;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Byte mutations

    private static byte[] flipBit(byte[] bytes, int bit) {
        byte[] copy = bytes.clone();
        copy[bit / 8] ^= (byte) (1 << (bit % 8));
        return copy;
    }

    private static byte[] withLong(byte[] bytes, int at, long value) {
        byte[] copy = bytes.clone();
        ByteBuffer.wrap(copy).order(LE).putLong(at, value);
        return copy;
    }

    /** A segment header with its CRC32C (of its first header-length bytes, stored after them) made right. */
    private static byte[] withCrc(byte[] fileHeader) {
        byte[] copy = fileHeader.clone();
        int length = ByteBuffer.wrap(copy).order(LE).getInt(HEADER_LENGTH_AT);
        CRC32C crc = new CRC32C();
        crc.update(copy, 0, length);
        ByteBuffer.wrap(copy).order(LE).putInt(length, (int) crc.getValue());
        return copy;
    }

    private static long word(byte[] run, int at) {
        return ByteBuffer.wrap(run).order(WORD_ORDER).getLong(at);
    }

    private static byte[] withWord(byte[] run, int at, long word) {
        byte[] copy = run.clone();
        ByteBuffer.wrap(copy).order(WORD_ORDER).putLong(at, word);
        return copy;
    }

    /** The run with the record word at {@code at} stating {@code length} (its low 32 bits). */
    private static byte[] withWordLength(byte[] run, int at, long length) {
        return withWord(run, at, (word(run, at) & ~LENGTH_MASK) | (length & LENGTH_MASK));
    }

    /** Where the last record of an honest run starts. */
    private static int lastRecordOffset(byte[] run) {
        int at = 0;
        int last = 0;
        while (at < run.length) {
            last = at;
            at += (int) ((8 + (word(run, at) & LENGTH_MASK) + 7) & ~7L);
        }
        return last;
    }

    // ---------------------------------------------------------------------------------------------------------------
    // The replica's directory

    /** Every file of the replica's directory: name to size and CRC32C of its bytes, once two reads 50 ms apart agree. */
    private Map<String, String> stableSnapshot() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        Map<String, String> last = snapshot();
        while (true) {
            Thread.sleep(50);
            Map<String, String> now = snapshot();
            if (now.equals(last)) {
                return now;
            }
            assertTrue(System.nanoTime() < deadline, "the replica's directory keeps changing: " + now);
            last = now;
        }
    }

    private Map<String, String> snapshot() {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> list = Files.list(replicaDir)) {
            for (Path file : (Iterable<Path>) list::iterator) {
                long size = Files.size(file);
                assertTrue(size <= SEGMENT, file + " is " + size + " bytes, larger than any file of the source");
                CRC32C crc = new CRC32C();
                crc.update(Files.readAllBytes(file));
                files.put(file.getFileName().toString(), size + " bytes, CRC32C " + Long.toHexString(crc.getValue()));
            }
        } catch (java.nio.file.NoSuchFileException vanished) {
            return snapshot(); // a temporary published or deleted while listed: read again
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    /**
     * Halts the JVM if a file in the watched directory grows past a limit: a replica that took a header stating a
     * segment size of 2^40 would zero-fill a terabyte on the machine's shared disk, and no failed assertion stops its
     * thread. Halting stops it within milliseconds; surefire reports the crash.
     */
    private static final class HugeFileGuard implements AutoCloseable {
        private final Thread thread;
        private volatile boolean running = true;

        private HugeFileGuard(Path dir, long limit) {
            thread = Thread.ofPlatform().daemon().name("huge-file-guard").start(() -> {
                while (running) {
                    try (Stream<Path> files = Files.list(dir)) {
                        files.forEach(file -> {
                            try {
                                if (Files.size(file) > limit) {
                                    System.err.println("HostileSourceTest: " + file + " is " + Files.size(file)
                                            + " bytes: the replica is filling the disk; halting");
                                    Runtime.getRuntime().halt(99);
                                }
                            } catch (IOException gone) {
                                // deleted meanwhile
                            }
                        });
                    } catch (IOException | UncheckedIOException ignored) {
                        // listed while a file was deleted: list again
                    }
                    try {
                        Thread.sleep(2);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }

        static HugeFileGuard watch(Path dir, long limit) {
            return new HugeFileGuard(dir, limit);
        }

        @Override
        public void close() {
            running = false;
            thread.interrupt();
        }
    }
}
