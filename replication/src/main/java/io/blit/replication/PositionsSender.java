package io.blit.replication;

import io.blit.queue.replica.SourcePositions;
import io.blit.replication.wire.Positions;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.Arrays;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What one session sends of its source's named consumers: at most every {@value #INTERVAL_MILLIS} ms, every consumer
 * whose state or committed index differs from what this session last sent of it (every one, the first time), in
 * {@link Positions} messages of up to {@value Positions#MAX_ENTRIES} entries. A position beyond what the session has
 * sent of the records waits for a later round, so a replica gets a position only after the records it covers. A
 * removed consumer is sent once as removed. A slot given to another name since its name was sent READY (slots are
 * reused, docs/format.md "The positions file") sends that name as removed first, so the replica's slots follow the
 * source's removals even when a removal and the reuse fall between two rounds. A slot whose state word changed while
 * it was read (its name perhaps half rewritten) is sent at a later round.
 *
 * <p>Nothing is allocated per round once the positions file is mapped: the slots are read out of the mapping, names
 * copied into the message with one bulk copy, and what was sent kept in three arrays of the file's slot count, made
 * once. While the queue has no positions file, it is looked for at most every {@value #ABSENT_LOOK_MILLIS} ms.
 *
 * <p>Not thread-safe: belongs to its session's thread.
 */
final class PositionsSender implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.blit.replication");
    /** The least time between two rounds. */
    static final long INTERVAL_MILLIS = 100;
    /** The least time between two looks for a positions file that does not exist. */
    static final long ABSENT_LOOK_MILLIS = 1_000;
    /** A state word no slot has (a name is at most 32 bytes): nothing sent yet. */
    private static final long NOTHING_SENT = -1;
    /** The state bits of a state word; the rest are the name's length and CRC32C. */
    private static final long KIND_BITS = 3L << 62;

    private final Path dir;
    private final SourcePositions positions;
    /** Per slot, the state word and committed index last sent; null until the file is mapped. */
    private long[] sentState;
    private long[] sentCommitted;
    /** Per slot, the name last sent READY ({@value Positions#NAME_BYTES} bytes each, zero-padded). */
    private byte[] sentNames;
    private long lastRound;
    private long lastLook;
    private boolean started;
    /** Set when the file cannot be read: this session sends no positions. */
    private boolean broken;

    PositionsSender(Path dir) {
        this.dir = dir;
        this.positions = SourcePositions.of(dir);
    }

    /** {@return whether a round is due at {@code nowNanos}: the interval has passed since the last round} */
    boolean due(long nowNanos) {
        return !broken && (!started || nowNanos - lastRound >= INTERVAL_MILLIS * 1_000_000L);
    }

    /**
     * Starts a round at {@code nowNanos}: maps the positions file if it has come to exist (looking at most every
     * {@value #ABSENT_LOOK_MILLIS} ms). {@return whether there is a file to send from}
     */
    boolean startRound(long nowNanos) {
        started = true;
        lastRound = nowNanos;
        if (sentState != null) {
            return true;
        }
        if (broken || lastLook != 0 && nowNanos - lastLook < ABSENT_LOOK_MILLIS * 1_000_000L) {
            return false;
        }
        lastLook = nowNanos;
        try {
            if (!positions.available()) {
                return false;
            }
        } catch (RuntimeException e) {
            broken = true;
            LOG.log(System.Logger.Level.WARNING, "the positions file of " + dir + " cannot be read; this session"
                    + " sends no consumer positions", e);
            return false;
        }
        sentState = new long[positions.slotCount()];
        sentCommitted = new long[positions.slotCount()];
        Arrays.fill(sentState, NOTHING_SENT);
        sentNames = new byte[positions.slotCount() * Positions.NAME_BYTES];
        return true;
    }

    /**
     * Writes the round's next message into {@code buffer} (viewed as {@code segment} too) from offset 0, with
     * {@code sequence}, and counts its entries as sent: up to {@value Positions#MAX_ENTRIES} consumers that changed,
     * each named with a committed index below {@code sentBelow} or removed.
     *
     * @return the message's length before its tag, or 0 if nothing more changed
     */
    int next(UnsafeBuffer buffer, MemorySegment segment, long sequence, long sentBelow) {
        if (sentState == null) {
            return 0;
        }
        int count = 0;
        for (int k = 0; k < sentState.length && count < Positions.MAX_ENTRIES; k++) {
            long state = positions.stateWord(k);
            int kind = SourcePositions.kind(state);
            if (kind == SourcePositions.END) {
                break; // slots are used as a prefix
            }
            if (kind == SourcePositions.CREATING) {
                continue;
            }
            long sent = sentState[k];
            if (sent != NOTHING_SENT && SourcePositions.kind(sent) == SourcePositions.READY
                    && (sent & ~KIND_BITS) != (state & ~KIND_BITS)) { // reused since: its old name goes first
                int length = SourcePositions.nameLength(sent);
                Positions.putEntry(buffer, count, sentCommitted[k], 0, Positions.REMOVED, length);
                buffer.putBytes(Positions.entryAt(count) + Positions.NAME_AT, sentNames,
                        k * Positions.NAME_BYTES, Positions.NAME_BYTES);
                sentState[k] = (long) SourcePositions.REMOVED << 62 | sent & ~KIND_BITS;
                if (++count == Positions.MAX_ENTRIES) {
                    break;
                }
            }
            long committed = positions.committed(k);
            boolean removed = kind == SourcePositions.REMOVED;
            if (state == sentState[k] && (removed || committed == sentCommitted[k])) {
                continue;
            }
            if (!removed && committed >= sentBelow) {
                continue; // its records are not sent yet: a later round
            }
            int nameLength = SourcePositions.nameLength(state);
            if (nameLength < 1 || nameLength > Positions.NAME_BYTES) {
                continue; // a slot no reader lists: not a consumer
            }
            Positions.putEntry(buffer, count, committed, positions.lastCommitMillis(k),
                    removed ? Positions.REMOVED : Positions.NAMED, nameLength);
            int nameAt = Positions.entryAt(count) + Positions.NAME_AT;
            positions.copyName(k, segment, nameAt);
            buffer.setMemory(nameAt + nameLength, Positions.NAME_BYTES - nameLength, (byte) 0);
            VarHandle.acquireFence(); // the name and index read above come before the word's check below
            if (positions.stateWord(k) != state) {
                continue; // changed while read (reused: the name may be torn): a later round sends it
            }
            MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, nameAt, sentNames, k * Positions.NAME_BYTES,
                    Positions.NAME_BYTES);
            sentState[k] = state;
            sentCommitted[k] = committed;
            count++;
        }
        return count == 0 ? 0 : Positions.head(buffer, sequence, count);
    }

    @Override
    public void close() {
        positions.close();
    }
}
