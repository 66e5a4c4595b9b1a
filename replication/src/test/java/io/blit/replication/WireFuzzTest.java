package io.blit.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.TermHistory;
import io.blit.replication.wire.Accept;
import io.blit.replication.wire.Ack;
import io.blit.replication.wire.Batch;
import io.blit.replication.wire.BatchProtection;
import io.blit.replication.wire.Challenge;
import io.blit.replication.wire.Confirm;
import io.blit.replication.wire.Heartbeat;
import io.blit.replication.wire.HmacSha256;
import io.blit.replication.wire.Keys;
import io.blit.replication.wire.Positions;
import io.blit.replication.wire.Refuse;
import io.blit.replication.wire.Sealer;
import io.blit.replication.wire.Session;
import io.blit.replication.wire.Subscribe;
import io.blit.replication.wire.Wire;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Property tests of every decoder in {@code io.blit.replication.wire} that reads bytes from the network: for arbitrary
 * bytes and for mutations of valid encodings (bits and bytes flipped, truncated, extended, length and count fields set
 * to 0, -1, {@code Integer.MIN_VALUE}, {@code Integer.MAX_VALUE}, 2^31 - 8, or just past the end), every decoder
 * answers with what it documents (a reason, null, false) and nothing else, reads nothing outside the message, and
 * writes nothing; a batch that {@link Batch#check} passes walks entry by entry exactly to its tag; valid encodings
 * decode to what was encoded and open under their key, and a change of one bit anywhere makes them fail to verify.
 *
 * <p>Each message is decoded twice: in a buffer of exactly its length (bounds-checked: a read past its end throws
 * {@link IndexOutOfBoundsException}) and in one where random junk follows it; both must give the same answers, so a
 * decoder that read past the end would fail either way.
 *
 * <p>Each property runs {@code blit.fuzz.iterations} cases (default 20,000; a few seconds in all); case {@code i}
 * draws everything from {@code new SplittableRandom(seed + i)}, {@code seed} being {@code blit.fuzz.seed} (default
 * {@value #DEFAULT_SEED}), and every failure names its case's seed. To run long, or to replay one failing case:
 *
 * <pre>
 * ./mvnw -q -B -o -pl replication -am test -Dtest='WireFuzzTest' -Dsurefire.failIfNoSpecifiedTests=false -Dblit.fuzz.iterations=5000000
 * ./mvnw -q -B -o -pl replication -am test -Dtest='WireFuzzTest#aCheckedBatchWalksExactlyToItsTag' \
 *        -Dsurefire.failIfNoSpecifiedTests=false -Dblit.fuzz.seed=&lt;the case's seed&gt; -Dblit.fuzz.iterations=1
 * </pre>
 */
class WireFuzzTest {
    static final long DEFAULT_SEED = 0x5EED_B117L;
    private static final long SEED = Long.getLong("blit.fuzz.seed", DEFAULT_SEED);
    private static final int ITERATIONS = Integer.getInteger("blit.fuzz.iterations", 20_000);
    /** Runs of at least this many cases also check that the generators reach both sides of each check. */
    private static final int MEASURED = 1_000;

    private static final byte[] SECRET = "the wire fuzz test's shared secret, 32+ bytes".getBytes(StandardCharsets.UTF_8);
    private static final long REPLICA_ID = 0x1234_5678_9ABC_DEFL;
    private static final byte[] REPLICA_NONCE = bytes(new SplittableRandom(1), Wire.NONCE);
    private static final byte[] SOURCE_NONCE = bytes(new SplittableRandom(2), Wire.NONCE);
    /** The source's clock a fuzzed SUBSCRIBE's freshness is judged by (fixed: a description is reproducible). */
    private static final long NOW = 1_795_000_000_000L;
    private static final java.util.UUID QUEUE = new java.util.UUID(0x0123_4567_89AB_CDEFL, 0xFEDC_BA98_7654_3210L);
    private static final byte[][] SESSION_KEYS = Keys.session(SECRET, REPLICA_NONCE, SOURCE_NONCE, QUEUE,
            "127.0.0.1:7000");

    private final HmacSha256 subscribeMac = new HmacSha256(Keys.subscribeKey(SECRET));
    private final HmacSha256 challengeMac = new HmacSha256(Keys.challengeKey(SECRET));
    /** Opens what the source sends (ACCEPT, REFUSE, BATCH, HEARTBEAT). */
    private final Sealer toReplica = new Sealer(SESSION_KEYS[0]);
    /** Opens what the replica sends (CONFIRM, ACK). */
    private final Sealer toSource = new Sealer(SESSION_KEYS[1]);

    /** A new sealer of what the source sends: one {@code Cipher} refuses to seal twice under a key and sequence. */
    private static Sealer sealsToReplica() {
        return new Sealer(SESSION_KEYS[0]);
    }

    /** A new sealer of what the replica sends. */
    private static Sealer sealsToSource() {
        return new Sealer(SESSION_KEYS[1]);
    }

    /** One case of a property, drawing from its own seeded random. */
    private interface Property {
        void check(SplittableRandom random) throws Exception;
    }

    /** Runs {@code property} for every case; a failure names the case's seed and how to replay it. */
    private static void forAll(Property property) {
        for (int i = 0; i < ITERATIONS; i++) {
            long seed = SEED + i;
            try {
                property.check(new SplittableRandom(seed));
            } catch (Throwable t) {
                throw new AssertionError("case seed " + seed + " (replay: -Dblit.fuzz.seed=" + seed
                        + " -Dblit.fuzz.iterations=1): " + t, t);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Properties

    @Test
    void arbitraryBytesNeverBreakADecoder() {
        String[] accepts = {"CONFIRM wellFormed true", "ACCEPT wellFormed true", "REFUSE wellFormed true",
                "HEARTBEAT wellFormed true", "ACK wellFormed true"};
        int[] accepted = new int[accepts.length];
        forAll(random -> {
            byte[] message = arbitraryMessage(random);
            String answers = decodeBothWays(message, message.length, random);
            for (int i = 0; i < accepts.length; i++) {
                accepted[i] += answers.contains(accepts[i]) ? 1 : 0;
            }
        });
        if (ITERATIONS >= MEASURED) { // the generator gets past the length checks of every fixed or stated length
            assertTrue(Arrays.stream(accepted).allMatch(n -> n > 0), Arrays.toString(accepts) + " " + Arrays.toString(accepted));
        }
    }

    @Test
    void mutatedEncodingsNeverBreakADecoderAndNeverVerify() {
        int[] changed = new int[1];
        forAll(random -> {
            Encoded valid = validMessage(random);
            byte[] mutated = mutate(valid.bytes, valid.bytes.length, valid.fieldOffsets, random);
            String answers = decodeBothWays(mutated, mutated.length, random);
            boolean same = Arrays.equals(valid.bytes, mutated);
            if (!same) {
                changed[0]++;
                assertFalse(verifies(valid.type, new UnsafeBuffer(mutated.clone()), mutated.length, valid.encrypted),
                        () -> "a changed " + name(valid.type) + " still verifies: " + answers);
            }
        });
        if (ITERATIONS >= MEASURED) {
            assertTrue(changed[0] > ITERATIONS * 9 / 10, changed[0] + " of " + ITERATIONS + " mutations changed a byte");
        }
    }

    @Test
    void aCheckedBatchWalksExactlyToItsTag() {
        int[] passed = new int[2];
        forAll(random -> {
            Encoded valid = validBatch(random, false);
            UnsafeBuffer exact = new UnsafeBuffer(valid.bytes.clone());
            assertNull(Batch.check(exact, valid.bytes.length), "a valid batch passes the check");
            assertEquals(valid.entries, walk(exact, valid.bytes.length), "a valid batch's entries, walked");
            byte[] mutated = random.nextInt(4) == 0 ? valid.bytes : mutate(valid.bytes, valid.bytes.length,
                    valid.fieldOffsets, random);
            decodeBothWays(mutated, mutated.length, random); // walks the batch if it passes the check
            passed[Batch.check(new UnsafeBuffer(mutated), mutated.length) == null ? 1 : 0]++;
        });
        if (ITERATIONS >= MEASURED) { // both sides of the check are exercised
            assertTrue(passed[0] > ITERATIONS / 10 && passed[1] > ITERATIONS / 10, "refused, passed: " + Arrays.toString(passed));
        }
    }

    @Test
    void validEncodingsRoundTrip() {
        forAll(random -> {
            switch (random.nextInt(9)) {
                case 0 -> subscribeRoundTrips(random);
                case 1 -> challengeRoundTrips(random);
                case 2 -> {
                    byte[] nonce = bytes(random, Wire.NONCE);
                    long id = random.nextLong();
                    int controlSession = random.nextInt();
                    UnsafeBuffer b = buffer(Confirm.LENGTH);
                    assertEquals(Confirm.LENGTH, Confirm.encode(b, id, nonce, controlSession, sealsToSource()));
                    assertTrue(Confirm.wellFormed(b, Confirm.LENGTH) && Session.open(b, Confirm.LENGTH, toSource));
                    assertEquals(id, Confirm.replicaId(b));
                    assertEquals(controlSession, Confirm.controlSession(b));
                    b.putInt(Session.AUX_AT, controlSession ^ (1 << random.nextInt(32)), Wire.ORDER);
                    assertFalse(Session.open(b, Confirm.LENGTH, toSource), "another control session breaks the tag");
                    assertTrue(Confirm.names(b, nonce));
                    assertFalse(Confirm.names(b, flipBit(nonce, random.nextInt(Wire.NONCE * 8))));
                }
                case 3 -> {
                    long start = random.nextLong(Long.MAX_VALUE);
                    BatchProtection protection = BatchProtection.values()[random.nextInt(BatchProtection.values().length)];
                    List<TermHistory.Term> terms = terms(random, 1);
                    UnsafeBuffer b = buffer(Accept.MAX_LENGTH);
                    int length = Accept.encode(b, start, protection, terms, sealsToReplica());
                    assertTrue(Accept.wellFormed(b, length) && Session.open(b, length, toReplica));
                    assertEquals(start, Accept.start(b));
                    assertEquals(protection, Accept.protection(b));
                    assertEquals(terms, Accept.terms(b));
                }
                case 4 -> refuseRoundTrips(random);
                case 5 -> {
                    UnsafeBuffer b = buffer(Heartbeat.LENGTH);
                    assertEquals(Heartbeat.LENGTH, Heartbeat.encode(b, random.nextLong(), random.nextLong(), sealsToReplica()));
                    assertTrue(Heartbeat.wellFormed(b, Heartbeat.LENGTH) && Session.open(b, Heartbeat.LENGTH, toReplica));
                }
                case 6 -> {
                    long sequence = 1 + random.nextLong(Long.MAX_VALUE - 1);
                    long id = random.nextLong();
                    long committed = random.nextLong();
                    long forced = random.nextLong();
                    UnsafeBuffer b = buffer(Ack.LENGTH);
                    assertEquals(Ack.LENGTH, Ack.encode(b, sequence, id, committed, forced, sealsToSource()));
                    assertTrue(Ack.wellFormed(b, Ack.LENGTH) && Session.open(b, Ack.LENGTH, toSource));
                    assertEquals(sequence, Session.sequence(b));
                    assertEquals(id, Ack.replicaId(b));
                    assertEquals(committed, Ack.committed(b));
                    assertEquals(forced, Ack.forced(b));
                }
                case 7 -> positionsRoundTrip(random);
                default -> batchRoundTrips(random);
            }
        });
    }

    @Test
    void oneBitChangedAnywhereFailsVerification() {
        forAll(random -> {
            Encoded valid = validMessage(random);
            UnsafeBuffer intact = new UnsafeBuffer(valid.bytes.clone());
            assertTrue(verifies(valid.type, intact, valid.bytes.length, valid.encrypted),
                    () -> "a valid " + name(valid.type) + " verifies");
            int bit = random.nextInt(valid.bytes.length * 8);
            byte[] flipped = flipBit(valid.bytes, bit);
            UnsafeBuffer changed = new UnsafeBuffer(flipped.clone());
            assertFalse(verifies(valid.type, changed, flipped.length, valid.encrypted),
                    () -> name(valid.type) + " of " + valid.bytes.length + " bytes with bit " + bit + " flipped");
            assertArrayEquals(flipped, changed.byteArray(), "a message that fails to open is left as it was");
        });
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Decoding

    /**
     * Every decoder's answers for the message in a buffer of exactly its length and in one followed by junk, which
     * must agree; neither may throw, nor change the message.
     */
    private String decodeBothWays(byte[] message, int length, SplittableRandom random) {
        byte[] exactBytes = Arrays.copyOf(message, length);
        byte[] paddedBytes = Arrays.copyOf(message, length + 1 + random.nextInt(64));
        for (int i = length; i < paddedBytes.length; i++) {
            paddedBytes[i] = (byte) random.nextInt(256);
        }
        byte[] paddedBefore = paddedBytes.clone();
        String exact = decodeAll(new UnsafeBuffer(exactBytes), length);
        String padded = decodeAll(new UnsafeBuffer(paddedBytes), length);
        assertEquals(exact, padded, "the answers for the message alone and followed by junk");
        assertArrayEquals(Arrays.copyOf(message, length), exactBytes, "decoding changed the message");
        assertArrayEquals(paddedBefore, paddedBytes, "decoding changed the message or what follows it");
        return exact;
    }

    /** What every decoder says of the {@code length} bytes at offset 0, as a string to compare. */
    private String decodeAll(UnsafeBuffer b, int length) {
        StringBuilder s = new StringBuilder("type ").append(Wire.type(b, 0, length));
        String subscribe = Subscribe.check(b, length);
        s.append(" | SUBSCRIBE check ").append(subscribe);
        if (subscribe == null) {
            s.append(" version ").append(Subscribe.version(b))
                    .append(" signed ").append(Subscribe.signed(b, length, subscribeMac))
                    .append(" id ").append(Subscribe.replicaId(b))
                    .append(" hasNonce ").append(Subscribe.hasNonce(b, REPLICA_NONCE))
                    .append(" time ").append(Subscribe.time(b)).append(" fresh ").append(Subscribe.fresh(b, NOW))
                    .append(' ').append(describe(Subscribe.decode(b, length)));
        }
        boolean answers = Challenge.answers(b, length, REPLICA_ID, REPLICA_NONCE, challengeMac);
        s.append(" | CHALLENGE answers ").append(answers);
        if (answers) {
            s.append(' ').append(hex(Challenge.sourceNonce(b))).append(' ').append(Challenge.sessionId(b));
        }
        boolean confirm = Confirm.wellFormed(b, length);
        s.append(" | CONFIRM wellFormed ").append(confirm);
        if (confirm) {
            s.append(' ').append(Confirm.replicaId(b)).append(' ').append(Confirm.names(b, SOURCE_NONCE))
                    .append(' ').append(Confirm.controlSession(b));
        }
        boolean accept = Accept.wellFormed(b, length);
        s.append(" | ACCEPT wellFormed ").append(accept);
        if (accept) {
            assertTrue(Accept.start(b) >= 0, "a well-formed ACCEPT's start");
            s.append(' ').append(Accept.start(b)).append(' ').append(Accept.protection(b));
        }
        boolean refuse = Refuse.wellFormed(b, length);
        s.append(" | REFUSE wellFormed ").append(refuse);
        if (refuse) {
            s.append(' ').append(Refuse.reason(b));
        }
        s.append(" | HEARTBEAT wellFormed ").append(Heartbeat.wellFormed(b, length));
        boolean ack = Ack.wellFormed(b, length);
        s.append(" | ACK wellFormed ").append(ack);
        if (ack) {
            s.append(' ').append(Ack.replicaId(b)).append(' ').append(Ack.committed(b)).append(' ').append(Ack.forced(b));
        }
        String positions = Positions.check(b, length);
        s.append(" | POSITIONS check ").append(positions);
        if (positions == null) {
            s.append(' ').append(positionsEntries(b));
        }
        String batch = Batch.check(b, length);
        s.append(" | BATCH check ").append(batch);
        if (batch == null) {
            s.append(' ').append(walk(b, length));
        }
        if (length >= Session.MIN_LENGTH) {
            s.append(" | session ").append(Session.sequence(b)).append(' ').append(Session.aux(b))
                    .append(" opens ").append(Session.open(b, length, toReplica))
                    .append(' ').append(Session.open(b, length, toSource));
        }
        return s.toString();
    }

    /**
     * Walks a checked batch's entries with {@link Batch#next}: each starts inside [16, length - 16), is of a known
     * kind with accessors in range, and the last ends exactly at the tag. Returns the entries as text.
     */
    private static List<String> walk(UnsafeBuffer b, int length) {
        int end = length - Sealer.TAG;
        int count = Session.aux(b);
        assertTrue(count >= 1, "a checked batch's entry count");
        List<String> entries = new ArrayList<>();
        int at = Session.BODY_AT;
        for (int i = 0; i < count; i++) {
            assertTrue(at >= Session.BODY_AT && at < end, "entry " + i + " of " + count + " starts at " + at
                    + ", outside [16, " + end + ")");
            int kind = Batch.kind(b, at);
            int next = Batch.next(b, at);
            assertTrue(next > at && next <= end && (next - at) % 8 == 0,
                    "entry " + i + " at " + at + " ends at " + next + " (tag at " + end + ")");
            switch (kind) {
                case Batch.ENTRY_FILE -> {
                    byte[] header = Batch.fileHeader(b, at);
                    assertTrue(header.length >= 1 && header.length <= Batch.MAX_FILE_HEADER, "header of " + header.length);
                    assertEquals(Batch.fileEntryLength(header.length), next - at, "a FILE entry's length");
                    entries.add("FILE " + digest(header));
                }
                case Batch.ENTRY_RECORD -> {
                    assertTrue(Batch.index(b, at) >= 0, "a RECORD's index");
                    assertEquals(Batch.RECORD_LENGTH, next - at, "a RECORD entry's length");
                    entries.add("RECORD " + Batch.index(b, at) + " " + Batch.recordWord(b, at));
                }
                case Batch.ENTRY_RUN -> {
                    long runLength = Batch.runLength(b, at);
                    assertTrue(Batch.runCount(b, at) >= 1 && Batch.index(b, at) >= 0 && Batch.runPosition(b, at) >= 0
                            && runLength >= 8 && runLength % 8 == 0, "a RUN's head");
                    assertEquals(Batch.RUN_BYTES + runLength, next - at, "a RUN entry's length");
                    byte[] records = new byte[(int) runLength];
                    b.getBytes(at + Batch.RUN_BYTES, records);
                    entries.add("RUN " + Batch.runCount(b, at) + " " + Batch.index(b, at) + " "
                            + Batch.runPosition(b, at) + " " + digest(records));
                }
                case Batch.ENTRY_PART -> {
                    long recordLength = Batch.partRecordLength(b, at);
                    long partOffset = Batch.partOffset(b, at);
                    long partLength = Batch.partLength(b, at);
                    assertTrue(Batch.index(b, at) >= 0 && Batch.runPosition(b, at) >= 0 && recordLength >= 16
                            && recordLength % 8 == 0 && partOffset >= 0 && partOffset % 8 == 0 && partLength >= 8
                            && partLength % 8 == 0 && partOffset + partLength <= recordLength, "a PART's head");
                    assertEquals(Batch.PART_BYTES + partLength, next - at, "a PART entry's length");
                    byte[] part = new byte[(int) partLength];
                    b.getBytes(at + Batch.PART_BYTES, part);
                    entries.add("PART " + Batch.index(b, at) + " " + Batch.runPosition(b, at) + " " + recordLength
                            + " " + partOffset + " " + digest(part));
                }
                default -> throw new AssertionError("a checked batch has an entry of kind " + kind + " at " + at);
            }
            at = next;
        }
        assertEquals(end, at, "the entries of a checked batch end at its tag");
        return entries;
    }

    /**
     * The entries of a checked POSITIONS, as text; each within what {@link Positions#check} promises: 1 to 64 of them,
     * a committed index of -1 or more, a known state, a name of 1 to 32 characters of {@code [A-Za-z0-9._-]}.
     */
    private static List<String> positionsEntries(UnsafeBuffer b) {
        int count = Positions.count(b);
        assertTrue(count >= 1 && count <= Positions.MAX_ENTRIES, "a checked POSITIONS' entry count " + count);
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long committed = Positions.committed(b, i);
            int state = Positions.state(b, i);
            String name = Positions.name(b, i);
            assertTrue(committed >= -1, "a checked position's index " + committed);
            assertTrue(state == Positions.NAMED || state == Positions.REMOVED, "a checked position's state " + state);
            assertTrue(name.matches("[A-Za-z0-9._-]{1,32}"), "a checked position's name " + name);
            entries.add(state + " " + name + " " + committed + " " + Positions.lastCommitMillis(b, i));
        }
        return entries;
    }

    /** Whether the message verifies as its type does: SUBSCRIBE's and CHALLENGE's MAC, or the session tag. */
    private boolean verifies(int type, UnsafeBuffer b, int length, boolean encrypted) {
        return switch (type) {
            case Wire.SUBSCRIBE -> Subscribe.check(b, length) == null && Subscribe.signed(b, length, subscribeMac);
            case Wire.CHALLENGE -> Challenge.answers(b, length, REPLICA_ID, REPLICA_NONCE, challengeMac);
            case Wire.CONFIRM, Wire.ACK -> length >= Session.MIN_LENGTH && Session.open(b, length, toSource);
            default -> length >= Session.MIN_LENGTH && (encrypted
                    ? Session.openEncrypted(b, length, toReplica)
                    : Session.open(b, length, toReplica));
        };
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Round trips

    private void subscribeRoundTrips(SplittableRandom random) {
        Subscribe.Request request = new Subscribe.Request(random.nextLong(), bytes(random, Wire.NONCE),
                random.nextLong(), random.nextInt(4), endpoint(random), blob(random), blob(random), random.nextLong(),
                queueId(random), endpoint(random), terms(random, 0));
        UnsafeBuffer b = buffer(Wire.MAX_CONTROL_MESSAGE);
        int length = Subscribe.encode(b, request, subscribeMac);
        assertNull(Subscribe.check(b, length));
        int undefined = 4 << random.nextInt(30); // a flag the protocol does not define: malformed, signed or not
        b.putInt(40, request.flags() | undefined, Wire.ORDER);
        assertNotNull(Subscribe.check(b, length), "flags " + (request.flags() | undefined));
        b.putInt(40, request.flags(), Wire.ORDER);
        assertTrue(Subscribe.signed(b, length, subscribeMac));
        assertEquals(Wire.VERSION, Subscribe.version(b));
        assertEquals(request.replicaId(), Subscribe.replicaId(b));
        assertTrue(Subscribe.hasNonce(b, request.nonce()));
        assertEquals(request.time(), Subscribe.time(b));
        if (Math.abs(request.time()) < Long.MAX_VALUE / 2) { // a clock's reading, far from overflow
            long skew = random.nextLong(-Wire.FRESHNESS_MILLIS, Wire.FRESHNESS_MILLIS + 1);
            assertTrue(Subscribe.fresh(b, request.time() + skew), "fresh within the window either way");
            long beyond = skew >= 0 ? Wire.FRESHNESS_MILLIS + 1 : -Wire.FRESHNESS_MILLIS - 1;
            assertFalse(Subscribe.fresh(b, request.time() + beyond), "stale beyond it");
        }
        assertEquals(describe(request), describe(Subscribe.decode(b, length)));
    }

    private void challengeRoundTrips(SplittableRandom random) {
        long id = random.nextLong();
        byte[] replicaNonce = bytes(random, Wire.NONCE);
        byte[] sourceNonce = bytes(random, Wire.NONCE);
        int session = random.nextInt();
        UnsafeBuffer b = buffer(Challenge.LENGTH);
        java.util.UUID queue = queueId(random);
        assertEquals(Challenge.LENGTH, Challenge.encode(b, id, replicaNonce, sourceNonce, session, queue,
                challengeMac));
        assertEquals(queue, Challenge.queueId(b));
        assertTrue(Challenge.answers(b, Challenge.LENGTH, id, replicaNonce, challengeMac));
        assertFalse(Challenge.answers(b, Challenge.LENGTH, id ^ 1, replicaNonce, challengeMac), "another replica");
        assertFalse(Challenge.answers(b, Challenge.LENGTH, id, flipBit(replicaNonce, random.nextInt(128)), challengeMac),
                "another request of the replica");
        assertArrayEquals(sourceNonce, Challenge.sourceNonce(b));
        assertEquals(session, Challenge.sessionId(b));
    }

    private void refuseRoundTrips(SplittableRandom random) {
        String reason = text(random);
        UnsafeBuffer b = buffer(Session.MIN_LENGTH + Refuse.MAX_REASON);
        int length = Refuse.encode(b, reason, sealsToReplica());
        assertTrue(Refuse.wellFormed(b, length) && Session.open(b, length, toReplica));
        byte[] utf8 = reason.getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= Refuse.MAX_REASON) {
            assertEquals(reason, Refuse.reason(b));
        } else { // cut to its first 4096 bytes
            assertEquals(Session.MIN_LENGTH + Refuse.MAX_REASON, length);
            assertEquals(new String(utf8, 0, Refuse.MAX_REASON, StandardCharsets.UTF_8), Refuse.reason(b));
        }
    }

    private void positionsRoundTrip(SplittableRandom random) {
        boolean encrypted = random.nextBoolean();
        Encoded positions = validPositions(random, encrypted);
        UnsafeBuffer b = new UnsafeBuffer(positions.bytes.clone());
        int length = positions.bytes.length;
        assertTrue(encrypted ? Session.openEncrypted(b, length, toReplica) : Session.open(b, length, toReplica),
                "positions open");
        assertNull(Positions.check(b, length));
        assertEquals(positions.entries, positionsEntries(b));
    }

    private void batchRoundTrips(SplittableRandom random) {
        boolean encrypted = random.nextBoolean();
        Encoded batch = validBatch(random, encrypted);
        UnsafeBuffer b = new UnsafeBuffer(batch.bytes.clone());
        int length = batch.bytes.length;
        if (encrypted) {
            assertTrue(Session.openEncrypted(b, length, toReplica), "an encrypted batch opens");
        } else {
            assertTrue(Session.open(b, length, toReplica), "a batch opens");
        }
        assertNull(Batch.check(b, length));
        assertEquals(batch.entries, walk(b, length));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Generators

    /** A valid encoding, the offsets of its length, count and type fields, and (for a batch) its entries as text. */
    private record Encoded(int type, byte[] bytes, int[] fieldOffsets, boolean encrypted, List<String> entries) {
    }

    private Encoded validMessage(SplittableRandom random) {
        int type = 1 + random.nextInt(Wire.POSITIONS);
        UnsafeBuffer b = buffer(Wire.MAX_CONTROL_MESSAGE);
        int length;
        int[] fields = {0, 4, 8};
        switch (type) {
            case Wire.SUBSCRIBE -> {
                length = Subscribe.encode(b, new Subscribe.Request(REPLICA_ID, REPLICA_NONCE, random.nextLong(),
                        random.nextInt(4), endpoint(random), blob(random), blob(random), random.nextLong(),
                        queueId(random), endpoint(random), terms(random, 0)), subscribeMac);
                fields = new int[] {0, 4, 40, 44, 46, 48, 52, 56, 64, 80, 84};
            }
            case Wire.CHALLENGE -> {
                length = Challenge.encode(b, REPLICA_ID, REPLICA_NONCE, bytes(random, Wire.NONCE), random.nextInt(),
                        queueId(random), challengeMac);
                fields = new int[] {0, 4, 8, 48, 52, 56};
            }
            case Wire.CONFIRM -> length = Confirm.encode(b, random.nextLong(), bytes(random, Wire.NONCE), random.nextInt(),
                    sealsToSource());
            case Wire.ACCEPT -> {
                length = Accept.encode(b, random.nextLong(Long.MAX_VALUE),
                        BatchProtection.values()[random.nextInt(BatchProtection.values().length)], terms(random, 1),
                        sealsToReplica());
                fields = new int[] {0, 4, 8, 16, 24, 28, 32, 40};
            }
            case Wire.REFUSE -> length = Refuse.encode(b, text(random), sealsToReplica());
            case Wire.BATCH -> {
                return validBatch(random, random.nextInt(4) == 0);
            }
            case Wire.HEARTBEAT -> length = Heartbeat.encode(b, random.nextLong(), random.nextLong(), sealsToReplica());
            case Wire.POSITIONS -> {
                return validPositions(random, random.nextInt(4) == 0);
            }
            default -> length = Ack.encode(b, 1 + random.nextLong(Long.MAX_VALUE - 1), random.nextLong(),
                    random.nextLong(), random.nextLong(), sealsToSource());
        }
        return new Encoded(type, Arrays.copyOf(b.byteArray(), length), fields, false, List.of());
    }

    /**
     * A valid sealed POSITIONS of 1 to 64 entries (named or removed, indices from -1, names of 1 to 32 characters),
     * encrypted if asked; its entries as {@link #positionsEntries} gives them.
     */
    private Encoded validPositions(SplittableRandom random, boolean encrypted) {
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-";
        UnsafeBuffer b = buffer(Positions.length(Positions.MAX_ENTRIES));
        int count = random.nextInt(4) == 0 ? Positions.MAX_ENTRIES : 1 + random.nextInt(8);
        List<Integer> fields = new ArrayList<>(List.of(0, 4, 8));
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int at = Positions.entryAt(i);
            fields.addAll(List.of(at, at + 8, at + 16, at + 20));
            StringBuilder name = new StringBuilder();
            for (int n = random.nextInt(4) == 0 ? Positions.NAME_BYTES : 1 + random.nextInt(12); n > 0; n--) {
                name.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            long committed = random.nextBoolean() ? -1 + random.nextLong(1000) : random.nextLong(-1, Long.MAX_VALUE);
            long time = random.nextLong();
            int state = random.nextInt(4) == 0 ? Positions.REMOVED : Positions.NAMED;
            Positions.putEntry(b, i, committed, time, state, name.length());
            b.setMemory(at + Positions.NAME_AT, Positions.NAME_BYTES, (byte) 0);
            b.putBytes(at + Positions.NAME_AT, name.toString().getBytes(StandardCharsets.US_ASCII));
            entries.add(state + " " + name + " " + committed + " " + time);
        }
        int unsealed = Positions.head(b, 1 + random.nextLong(Long.MAX_VALUE - 1), count);
        int length = encrypted ? Session.sealEncrypted(b, unsealed, sealsToReplica())
                : Session.seal(b, unsealed, sealsToReplica());
        return new Encoded(Wire.POSITIONS, Arrays.copyOf(b.byteArray(), length),
                fields.stream().mapToInt(Integer::intValue).toArray(), encrypted, entries);
    }

    /** A valid sealed batch of 1 to 8 random entries (FILE, RECORD, RUN, PART), encrypted if asked. */
    private Encoded validBatch(SplittableRandom random, boolean encrypted) {
        UnsafeBuffer b = buffer(1 << 16);
        Batch.start(b, random.nextLong());
        int count = 1 + random.nextInt(8);
        int at = Session.BODY_AT;
        List<Integer> fields = new ArrayList<>(List.of(0, 4, 8));
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            fields.addAll(List.of(at, at + 4, at + 8, at + 16, at + 24));
            switch (random.nextInt(4)) {
                case 0 -> {
                    byte[] header = bytes(random, random.nextInt(8) == 0 ? Batch.MAX_FILE_HEADER : 1 + random.nextInt(200));
                    Batch.putFile(b, at, header);
                    at += Batch.fileEntryLength(header.length);
                    entries.add("FILE " + digest(header));
                }
                case 1 -> {
                    long index = random.nextLong(Long.MAX_VALUE);
                    long word = random.nextLong();
                    Batch.putRecord(b, at, index, word);
                    at += Batch.RECORD_LENGTH;
                    entries.add("RECORD " + index + " " + word);
                }
                case 2 -> {
                    fields.addAll(List.of(at + 32, at + 40));
                    long index = random.nextLong(Long.MAX_VALUE);
                    long position = random.nextLong(Long.MAX_VALUE);
                    byte[] part = bytes(random, 8 * (1 + random.nextInt(64)));
                    long recordLength = random.nextBoolean() ? Math.max(16, part.length + 8L * random.nextInt(3))
                            : 8 * random.nextLong(part.length / 8 + 1, Long.MAX_VALUE / 8);
                    long partOffset = 8 * random.nextLong((recordLength - part.length) / 8 + 1);
                    Batch.putPartHead(b, at, index, position, recordLength, partOffset, part.length);
                    b.putBytes(at + Batch.PART_BYTES, part);
                    at += Batch.PART_BYTES + part.length;
                    entries.add("PART " + index + " " + position + " " + recordLength + " " + partOffset + " "
                            + digest(part));
                }
                default -> {
                    int runCount = 1 + random.nextInt(random.nextBoolean() ? 4 : Integer.MAX_VALUE);
                    long index = random.nextLong(Long.MAX_VALUE);
                    long position = random.nextLong(Long.MAX_VALUE);
                    byte[] records = bytes(random, 8 * (1 + random.nextInt(64)));
                    Batch.putRunHead(b, at, runCount, index, position, records.length);
                    b.putBytes(at + Batch.RUN_BYTES, records);
                    at += Batch.RUN_BYTES + records.length;
                    entries.add("RUN " + runCount + " " + index + " " + position + " " + digest(records));
                }
            }
        }
        Batch.count(b, count);
        int length = encrypted ? Session.sealEncrypted(b, at, sealsToReplica()) : Session.seal(b, at, sealsToReplica());
        return new Encoded(Wire.BATCH, Arrays.copyOf(b.byteArray(), length),
                fields.stream().mapToInt(Integer::intValue).toArray(), encrypted, entries);
    }

    /**
     * Bytes that are mostly not a message: random, but with a known type in front and a length that is some message's
     * own (or one off it) often enough to get past the first checks.
     */
    private static byte[] arbitraryMessage(SplittableRandom random) {
        int[] lengths = {Confirm.LENGTH, Accept.MAX_LENGTH, 72, Heartbeat.LENGTH, Ack.LENGTH, Challenge.LENGTH,
                Session.MIN_LENGTH, Session.MIN_LENGTH + Batch.FILE_BYTES};
        int length = switch (random.nextInt(4)) {
            case 0 -> random.nextInt(16);
            case 1 -> lengths[random.nextInt(lengths.length)] + random.nextInt(3) - 1;
            case 2 -> random.nextInt(200);
            default -> random.nextInt(5000);
        };
        byte[] message = bytes(random, length);
        UnsafeBuffer b = new UnsafeBuffer(message);
        if (length >= 4 && random.nextBoolean()) {
            b.putInt(0, random.nextInt(Wire.POSITIONS + 2), Wire.ORDER);
        }
        if (length >= 8 && random.nextBoolean()) { // a REFUSE's reason length, a batch's count, ...
            b.putInt(Session.AUX_AT, random.nextBoolean() ? length - Session.MIN_LENGTH : random.nextInt(4), Wire.ORDER);
        }
        if (length >= 40 && random.nextBoolean()) { // a CONFIRM's or an ACK's sequence, an ACCEPT's start
            b.putLong(Session.SEQUENCE_AT, random.nextLong(0, 3), Wire.ORDER);
            b.putLong(16, random.nextLong(Long.MAX_VALUE), Wire.ORDER);
        }
        if (length >= 72 && random.nextBoolean()) { // an ACCEPT's term count, as its length states, and terms in order
            int count = (length - 48) / 24;
            b.putInt(24, count, Wire.ORDER);
            b.putInt(28, 0, Wire.ORDER);
            for (int i = 0, at = 32; i < count && at + 24 <= length; i++, at += 24) {
                b.putLong(at, i, Wire.ORDER);
                b.putLong(at + 8, i, Wire.ORDER);
            }
        }
        return message;
    }

    /**
     * One mutation of {@code message}: a bit or a few bytes flipped, cut short, extended with random bytes, or one of
     * its fields (or any aligned int or long) set to an extreme value or to a length at or just past its end.
     */
    private static byte[] mutate(byte[] message, int length, int[] fields, SplittableRandom random) {
        switch (random.nextInt(6)) {
            case 0 -> {
                return flipBit(message, random.nextInt(length * 8));
            }
            case 1 -> {
                byte[] copy = message.clone();
                for (int n = 1 + random.nextInt(4); n > 0; n--) {
                    copy[random.nextInt(length)] = (byte) random.nextInt(256);
                }
                return copy;
            }
            case 2 -> {
                return Arrays.copyOf(message, random.nextInt(length));
            }
            case 3 -> {
                byte[] longer = Arrays.copyOf(message, length + 1 + random.nextInt(64));
                for (int i = length; i < longer.length; i++) {
                    longer[i] = (byte) random.nextInt(256);
                }
                return longer;
            }
            case 4 -> {
                int at = random.nextBoolean() ? fields[random.nextInt(fields.length)] : 4 * random.nextInt(length / 4);
                if (at + 4 > length) {
                    return message.clone();
                }
                int[] extremes = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, (1 << 31) - 8, Integer.MAX_VALUE - 7,
                        8, 4096, 4097, length, length - at, length - at + 1, length - at - Sealer.TAG,
                        length - at - Sealer.TAG + 1, length - at - Sealer.TAG - Batch.RUN_BYTES,
                        length - at - Sealer.TAG - Batch.RUN_BYTES + 8, length - at - Sealer.TAG - Batch.PART_BYTES,
                        length - at - Sealer.TAG - Batch.PART_BYTES + 8, random.nextInt()};
                byte[] copy = message.clone();
                new UnsafeBuffer(copy).putInt(at, extremes[random.nextInt(extremes.length)], Wire.ORDER);
                return copy;
            }
            default -> {
                int at = random.nextBoolean() ? fields[random.nextInt(fields.length)] : 8 * random.nextInt(length / 8 + 1);
                if (at + 8 > length) {
                    return message.clone();
                }
                long[] extremes = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE, (1L << 31) - 8,
                        1L << 32, 1L << 40, length, length - at - Sealer.TAG - Batch.RUN_BYTES + 16,
                        length - at - Sealer.TAG - Batch.RUN_BYTES + 8, length - at - Sealer.TAG - Batch.RUN_BYTES + 24,
                        length - at - Sealer.TAG - Batch.PART_BYTES + 8, length - at - Sealer.TAG - Batch.PART_BYTES - 8,
                        Long.MAX_VALUE - 7, random.nextLong()};
                byte[] copy = message.clone();
                new UnsafeBuffer(copy).putLong(at, extremes[random.nextInt(extremes.length)], Wire.ORDER);
                return copy;
            }
        }
    }

    private static String endpoint(SplittableRandom random) {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(8) == 0 ? Subscribe.MAX_ENDPOINT : 1 + random.nextInt(40);
        for (int i = 0; i < length; i++) {
            s.append((char) (' ' + random.nextInt(95)));
        }
        return s.toString();
    }

    /**
     * {@code least} to {@link Wire#MAX_TERMS} terms in order (numbers strictly increasing, first indices not
     * decreasing), sometimes the most, with random origins.
     */
    private static List<TermHistory.Term> terms(SplittableRandom random, int least) {
        int count = random.nextInt(4) == 0 ? Wire.MAX_TERMS : random.nextInt(least, 5);
        List<TermHistory.Term> terms = new ArrayList<>();
        long number = random.nextLong(1 << 20);
        long first = random.nextLong(1L << 40);
        for (int i = 0; i < count; i++) {
            terms.add(new TermHistory.Term(number, first, random.nextLong()));
            number += random.nextLong(1, 1 << 10);
            first += random.nextLong(1 << 20);
        }
        return terms;
    }

    /** A queue id: none (zero) or random. */
    private static java.util.UUID queueId(SplittableRandom random) {
        return random.nextInt(4) == 0 ? Wire.NO_QUEUE : new java.util.UUID(random.nextLong(), random.nextLong());
    }

    /** Null (none), or 1 to 4096 random bytes. */
    private static byte[] blob(SplittableRandom random) {
        return switch (random.nextInt(4)) {
            case 0 -> null;
            case 1 -> bytes(random, Subscribe.MAX_BLOB);
            default -> bytes(random, 1 + random.nextInt(300));
        };
    }

    /** Text of up to 5,000 characters, some outside ASCII (so its UTF-8 may pass 4,096 bytes or be cut in a character). */
    private static String text(SplittableRandom random) {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(4) == 0 ? 4000 + random.nextInt(1000) : random.nextInt(100);
        for (int i = 0; i < length; i++) {
            s.append(random.nextInt(8) == 0 ? (char) (0xA0 + random.nextInt(0x2000)) : (char) ('a' + random.nextInt(26)));
        }
        return s.toString();
    }

    private static byte[] bytes(SplittableRandom random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] flipBit(byte[] bytes, int bit) {
        byte[] copy = bytes.clone();
        copy[bit / 8] ^= (byte) (1 << (bit % 8));
        return copy;
    }

    private static UnsafeBuffer buffer(int capacity) {
        return new UnsafeBuffer(new byte[capacity]);
    }

    private static String describe(Subscribe.Request r) {
        return "request " + r.replicaId() + " " + hex(r.nonce()) + " " + r.nextIndex() + " " + r.flags() + " "
                + r.endpoint() + " " + (r.newestHeader() == null ? "-" : digest(r.newestHeader())) + " "
                + (r.expectedDescriptor() == null ? "-" : digest(r.expectedDescriptor())) + " " + r.time() + " " + r.queueId()
                + " " + r.source() + " " + r.terms();
    }

    /** Length and CRC32C of {@code bytes}: what two decodings of the same bytes must agree on. */
    private static String digest(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return bytes.length + " bytes, CRC32C " + Long.toHexString(crc.getValue());
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    private static String name(int type) {
        return switch (type) {
            case Wire.SUBSCRIBE -> "SUBSCRIBE";
            case Wire.CHALLENGE -> "CHALLENGE";
            case Wire.CONFIRM -> "CONFIRM";
            case Wire.ACCEPT -> "ACCEPT";
            case Wire.REFUSE -> "REFUSE";
            case Wire.BATCH -> "BATCH";
            case Wire.HEARTBEAT -> "HEARTBEAT";
            case Wire.POSITIONS -> "POSITIONS";
            default -> "ACK";
        };
    }
}
