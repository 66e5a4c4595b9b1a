package io.blit.queue.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.Appender;
import io.blit.queue.BlitQueue;
import io.blit.queue.MarketData;
import io.blit.queue.QueueOptions;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flips single bits of a small typed queue (8000 MarketData records over two 1 MiB files: file 0 ends with a padding
 * word and has checkpoint 1 written) one at a time, runs the verifier of {@code blit check} ({@link QueueVerifier})
 * and flips the bit back, asserting for each flip that the damage is found and named where it is: every bit of file
 * 0's header, type table and CRC; a seeded sample of file 1's; a seeded sample of 2000 bits of file 0's checkpoint
 * slots (the written one and unwritten ones); a seeded sample of 3000 bits of record header words of both files; and
 * every bit of file 0's padding word.
 *
 * <p>Excluded, because format 4 (this queue's) cannot tell them from what a writer may store (it has no record
 * checksum; format 5's is {@link RecordChecksumBitFlipTest}'s, where none is excluded), and said so here: flips in a record's time or payload; bit 62 of a COMMITTED word, which makes it
 * ABANDONED (a writer abandons a claim with the same claimer and length, so the message's index is skipped exactly as
 * for a genuine abandon); and the claimer bits 32-53 of COMMITTED and padding words, which a reader does not use (the
 * reader returns the same messages). A flip that turns a written checkpoint slot into 0 is excluded too: 0 means "not
 * written", and readers then start from an earlier slot and return the same records.
 */
class QueueVerifierBitFlipTest {
    private static final int MESSAGES = 8000;
    private static final long SEGMENT = 1 << 20;
    private static final long RECORD = RecordHeader.messageRecordLength(144);
    /** A damaged header is named by its file and an offset in the header area (where its check failed). */
    private static final int HEADER_AREA = SegmentFormat.HEADER_AREA;

    @TempDir
    Path dir;

    @Test
    void everySingleBitFlipOfHeadersTablesSlotsAndRecordWordsIsFoundWhereItIs() throws IOException {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class,
                QueueOptions.defaults().segmentSize(SEGMENT)); Appender<MarketData> appender = queue.appender()) {
            MarketData message = new MarketData();
            for (long n = 0; n < MESSAGES; n++) {
                appender.append(message.fillFor(n, n));
            }
        }
        long[] firsts = SegmentFiles.list(dir);
        assertEquals(2, firsts.length, "two files");
        assertEquals(List.of(), QueueVerifier.verify(dir), "the intact queue");
        long perFile = (SEGMENT - SegmentFormat.RECORDS_START) / RECORD;
        assertEquals(perFile, firsts[1], "file 0 is full");
        Path file0 = SegmentFiles.path(dir, 0);
        Path file1 = SegmentFiles.path(dir, firsts[1]);
        int headerEnd = headerLength(file0) + Integer.BYTES;
        SplittableRandom random = new SplittableRandom(46);
        int flips = 0;

        for (long bit = 0; bit < headerEnd * 8L; bit++) {
            flipAndExpect(file0, bit / 8, (int) (bit % 8), p -> p.file().equals(file0) && p.offset() < HEADER_AREA);
            flips++;
        }
        int headerEnd1 = headerLength(file1) + Integer.BYTES;
        for (int i = 0; i < 500; i++) {
            long bit = random.nextLong(headerEnd1 * 8L);
            flipAndExpect(file1, bit / 8, (int) (bit % 8), p -> p.file().equals(file1) && p.offset() < HEADER_AREA);
            flips++;
        }

        for (int i = 0; i < 2000; i++) {
            int slot = i < 32 ? 1 : random.nextInt(SegmentFormat.CHECKPOINT_SLOTS); // every bit of the written slot, then a sample
            int bit = i < 32 ? i : random.nextInt(32);
            long offset = SegmentFormat.CHECKPOINT_AREA_OFFSET + slot * 4L;
            if (read(file0, offset, 4) == (1L << bit)) {
                continue; // the written slot turned 0: "not written" (see the class comment)
            }
            flipAndExpect(file0, wordByte(offset, 4, bit), bit % 8, p -> p.file().equals(file0) && p.offset() == offset);
            flips++;
        }

        for (int i = 0; i < 3000 + 64; i++) {
            boolean padding = i >= 3000;
            long index = padding ? perFile : random.nextLong(MESSAGES);
            int bit = padding ? i - 3000 : random.nextInt(64);
            if ((bit >= RecordHeader.WRITER_SHIFT && bit < RecordHeader.TYPE_SHIFT) || (bit == 62 && !padding)) {
                continue; // the claimer field, and COMMITTED turned ABANDONED (see the class comment)
            }
            Path file = index < perFile || padding ? file0 : file1; // the padding word: file 0's ordinal perFile
            long ordinal = index < perFile || padding ? index : index - perFile;
            long position = SegmentFormat.RECORDS_START + ordinal * RECORD;
            flipAndExpect(file, wordByte(position, 8, bit), bit % 8, p -> p.file().equals(file)
                    && p.offset() == position && p.index() == index);
            flips++;
        }
        assertTrue(flips > 10_000, flips + " flips");
        assertEquals(List.of(), QueueVerifier.verify(dir), "every bit flipped back");
    }

    /** Flips bit {@code bit} of byte {@code at} of {@code file}, verifies, flips it back; the first problem must match. */
    private void flipAndExpect(Path file, long at, int bit, Predicate<QueueVerifier.Problem> where) throws IOException {
        flip(file, at, bit);
        List<QueueVerifier.Problem> problems;
        try {
            problems = new ArrayList<>(QueueVerifier.verify(dir));
        } finally {
            flip(file, at, bit);
        }
        assertTrue(!problems.isEmpty() && where.test(problems.getFirst()),
                "bit " + bit + " of byte " + at + " of " + file.getFileName() + ": " + problems);
    }

    /** The byte of a native-order word of {@code size} bytes at {@code offset} that holds its bit {@code bit}. */
    private static long wordByte(long offset, int size, int bit) {
        return ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? offset + bit / 8 : offset + size - 1 - bit / 8;
    }

    private static int headerLength(Path file) throws IOException {
        return (int) read(file, SegmentFormat.HEADER_LENGTH_OFFSET, 4, ByteOrder.LITTLE_ENDIAN);
    }

    private static long read(Path file, long offset, int size) throws IOException {
        return read(file, offset, size, ByteOrder.nativeOrder());
    }

    private static long read(Path file, long offset, int size, ByteOrder order) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate(size).order(order);
            channel.read(buffer, offset);
            return size == 4 ? Integer.toUnsignedLong(buffer.getInt(0)) : buffer.getLong(0);
        }
    }

    private static void flip(Path file, long at, int bit) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, at);
            one.put(0, (byte) (one.get(0) ^ (1 << bit)));
            channel.write(one.rewind(), at);
        }
    }
}
