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
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flips single bits of the COMMITTED records of a small queue with record checksums (format 5: 600 MarketData records
 * over 64 KiB files) one at a time, runs the verifier of {@code blit check} ({@link QueueVerifier}) and flips the bit
 * back, asserting for each flip that the first problem found names the record's file, position and index: every bit
 * of three whole records (the first and last of file 0, the first of file 1), then a seeded sample of 4000 bits of
 * any record. Unlike format 4 ({@link QueueVerifierBitFlipTest}), no bit of a committed record is excluded: the time,
 * the payload, the claimer field and the bit that turns COMMITTED into ABANDONED are all found now.
 */
class RecordChecksumBitFlipTest {
    private static final int MESSAGES = 600;
    private static final long SEGMENT = 64 << 10;
    private static final long RECORD = RecordHeader.messageRecordLength(144) + 8;

    @TempDir
    Path dir;

    @Test
    void everySingleBitFlipOfACommittedRecordIsFoundWhereItIs() throws IOException {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class,
                QueueOptions.defaults().segmentSize(SEGMENT).recordChecksums(true));
             Appender<MarketData> appender = queue.appender()) {
            MarketData message = new MarketData();
            for (long n = 0; n < MESSAGES; n++) {
                appender.append(message.fillFor(n, n));
            }
        }
        long[] firsts = SegmentFiles.list(dir);
        assertEquals(2, firsts.length, "the queue rolled once");
        assertEquals(List.of(), QueueVerifier.verify(dir), "the intact queue");
        long perFile = (SEGMENT - SegmentFormat.RECORDS_START) / RECORD;
        assertEquals(perFile, firsts[1], "files of 168-byte records");
        int flips = 0;
        for (long index : new long[] {0, perFile - 1, perFile}) {
            for (int bit = 0; bit < RECORD * 8; bit++) {
                flipAndExpect(index, perFile, bit);
                flips++;
            }
        }
        SplittableRandom random = new SplittableRandom(55);
        for (int i = 0; i < 4000; i++) {
            flipAndExpect(random.nextLong(MESSAGES), perFile, random.nextInt((int) RECORD * 8));
            flips++;
        }
        assertTrue(flips > 8000, flips + " flips");
        assertEquals(List.of(), QueueVerifier.verify(dir), "every bit flipped back");
    }

    /** Flips bit {@code bit} (0: the lowest of the record's first byte) of the record of {@code index}, verifies, flips back. */
    private void flipAndExpect(long index, long perFile, int bit) throws IOException {
        long first = index / perFile * perFile;
        Path file = SegmentFiles.path(dir, first);
        long position = SegmentFormat.RECORDS_START + (index - first) * RECORD;
        long at = position + bit / 8;
        flip(file, at, bit % 8);
        List<QueueVerifier.Problem> problems;
        try {
            problems = QueueVerifier.verify(dir);
        } finally {
            flip(file, at, bit % 8);
        }
        assertTrue(!problems.isEmpty() && problems.getFirst().file().equals(file)
                        && problems.getFirst().offset() == position && problems.getFirst().index() == index,
                "bit " + bit % 8 + " of byte " + (at - position) + " of record " + index + ": " + problems);
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
