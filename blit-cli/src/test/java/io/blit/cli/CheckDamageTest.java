package io.blit.cli;

import static io.blit.cli.BlitCliRun.appendRaw;
import static io.blit.cli.BlitCliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.cli.BlitCliRun.Result;
import io.blit.queue.QueueOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage the record walk alone would take for a clean end or a valid position, found by {@code check} (exit 1, naming
 * file, offset and index) and refused by {@code dump}: a flipped padding bit in a record's header word, and a
 * checkpoint slot that is in range but points at another record.
 */
class CheckDamageTest {
    private static final String FILE = "segment-00000000000000000000.blitq";
    /** Bytes of a record of an 8-byte raw payload: header word, time, payload. */
    private static final long RECORD = 24;

    @TempDir
    Path tmp;

    private Path dir() {
        return tmp.resolve("q");
    }

    @Test
    void aFlippedPaddingBitInTheMiddleIsCorruptionNotTheEndOfTheRecords() throws IOException {
        appendRaw(dir(), 3000, QueueOptions.defaults().segmentSize(1 << 20));
        long word = 8192 + 1000 * RECORD;
        flipWordBit(word, 61); // the P bit of record 1000's COMMITTED word
        Result check = run("check", "--dir", dir().toString());
        assertEquals(1, check.code(), check.out() + check.err());
        assertTrue(check.out().contains(FILE + " at byte " + word + " (index 1000): ")
                && check.out().contains("padding bit but is not a padding word"), check.out());
        assertFalse(check.out().contains("records ok"), check.out());

        Result dump = run("dump", "--dir", dir().toString());
        assertEquals(2, dump.code(), "not a silent stop at record 1000: " + dump.out());
        assertTrue(dump.err().contains(FILE) && dump.err().contains("at byte " + word), dump.err());
    }

    @Test
    void aCheckpointSlotInRangeButAtAnotherRecordIsFoundByCheckAndNotTrustedBySeeks() throws IOException {
        appendRaw(dir(), 9000, QueueOptions.defaults().segmentSize(1 << 20));
        long slot2 = 4096 + 2 * 4; // the position of ordinal 8192's record
        long right = 8192 + 8192 * RECORD;
        assertEquals(right, readSlot(slot2), "slot 2 as written");
        Result intact = run("dump", "--dir", dir().toString(), "--from", "8200", "--to", "8200");
        assertTrue(intact.out().contains("index=8200 length=8 bytes=0820000000000000 "), intact.out());

        writeSlot(slot2, right + RECORD); // the record of index 8193: a record boundary, one record late
        Result check = run("check", "--dir", dir().toString());
        assertEquals(1, check.code(), check.out() + check.err());
        assertTrue(check.out().contains(FILE + " at byte " + slot2 + " (index 8192): checkpoint 2 holds position "
                + (right + RECORD) + ", but the record of ordinal 8192 (index 8192) is at " + right), check.out());
        Result dump = run("dump", "--dir", dir().toString(), "--from", "8200", "--to", "8200");
        assertEquals(2, dump.code(), dump.out() + dump.err());
        assertFalse(dump.out().contains("index=8200"), "the record of index 8201 labelled 8200: " + dump.out());
        assertTrue(dump.err().contains(FILE) && dump.err().contains("at byte " + slot2)
                && dump.err().contains("checkpoint 2"), dump.err());

        writeSlot(slot2, right + 1); // odd: not a record boundary at all
        Result odd = run("check", "--dir", dir().toString());
        assertEquals(1, odd.code(), odd.out() + odd.err());
        assertTrue(odd.out().contains(FILE + " at byte " + slot2 + " (index 8192): checkpoint 2 holds position "
                + (right + 1)), odd.out());
    }

    @Test
    void aFlippedPayloadOrStateBitOfARecordWithAChecksumIsFoundByCheckAndRefusedByDump() throws IOException {
        appendRaw(dir(), 3000, QueueOptions.defaults().segmentSize(1 << 20).recordChecksums(true));
        long record = 32; // header word, time, CRC, reserved word, 8-byte payload
        long word = 8192 + 1000 * record;
        flipWordBit(word + 24, 3); // a bit of record 1000's payload
        Result check = run("check", "--dir", dir().toString());
        assertEquals(1, check.code(), check.out() + check.err());
        assertTrue(check.out().contains("check failed: ") && check.out().contains(FILE + " at byte " + word
                + " (index 1000): record checksum mismatch: the record stores CRC32C 0x"), check.out());
        Result dump = run("dump", "--dir", dir().toString());
        assertEquals(2, dump.code(), "record 1000 is not printed with its damaged payload: " + dump.out());
        assertTrue(dump.err().contains(FILE) && dump.err().contains("at byte " + word)
                && dump.err().contains("checksum"), dump.err());
        flipWordBit(word + 24, 3);

        flipWordBit(word, 62); // COMMITTED turned ABANDONED: readers skip index 1000
        Result hidden = run("check", "--dir", dir().toString());
        assertEquals(1, hidden.code(), hidden.out() + hidden.err());
        assertTrue(hidden.out().contains(FILE + " at byte " + word + " (index 1000): an ABANDONED record whose body"
                + " checksums as a COMMITTED one"), hidden.out());
    }

    private Path segment() {
        return dir().resolve(FILE);
    }

    private void flipWordBit(long word, int bit) throws IOException {
        long at = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? word + bit / 8 : word + 7 - bit / 8;
        try (FileChannel channel = FileChannel.open(segment(), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, at);
            one.put(0, (byte) (one.get(0) ^ (1 << (bit % 8))));
            channel.write(one.rewind(), at);
        }
    }

    private long readSlot(long offset) throws IOException {
        try (FileChannel channel = FileChannel.open(segment(), StandardOpenOption.READ)) {
            ByteBuffer slot = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder());
            channel.read(slot, offset);
            return Integer.toUnsignedLong(slot.getInt(0));
        }
    }

    private void writeSlot(long offset, long position) throws IOException {
        try (FileChannel channel = FileChannel.open(segment(), StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, (int) position), offset);
        }
    }
}
