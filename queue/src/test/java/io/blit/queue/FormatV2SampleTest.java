package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.segment.SegmentHeader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committed sample of format version 2 ({@link FormatV2SampleWriter}: a queue of two types, several files) reads
 * back as written, by type and as bytes with each record's type, in every JVM mode the tests run in (other modes
 * translate the stored layouts).
 */
class FormatV2SampleTest {
    private static final Path SAMPLE = Path.of("src/test/resources/format-v2");

    @TempDir
    Path dir;

    @BeforeEach
    void copySample() throws IOException {
        try (Stream<Path> files = Files.list(SAMPLE)) {
            for (Path file : files.toList()) {
                Files.copy(file, dir.resolve(file.getFileName()));
            }
        }
    }

    @Test
    void everyFileIsFormat2WithTheTypeTable() {
        long[] firsts = SegmentFiles.list(dir);
        assertTrue(firsts.length >= 3, "several files: " + firsts.length);
        for (long first : firsts) {
            SegmentHeader.Info info = SegmentFiles.readHeader(dir, first);
            assertEquals(2, info.version());
            assertEquals(List.of(1, 2), info.types().stream().map(t -> t.typeId()).toList());
            assertTrue(info.types().get(0).descriptor().className().endsWith(".MarketData"));
            assertTrue(info.types().get(1).descriptor().className().endsWith(".Quote"));
        }
    }

    @Test
    void everyMessageReadsBackByTypeInOrder() {
        List<Long> indices = new ArrayList<>();
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO); Tailer<Object> tailer = queue.tailer()) {
            while (tailer.read((index, message) -> {
                assertTrue(TypedQueueTest.isMessage(message, index), "message " + index);
                assertEquals(FormatV2SampleWriter.timeOf(index), tailer.lastTimeNanos(), "time of message " + index);
                indices.add(index);
            })) {
                // checked in the handler
            }
            assertEquals(0, tailer.unknownRecords());
        }
        assertEquals(FormatV2SampleWriter.COUNT, indices.size());
        for (int n = 0; n < indices.size(); n++) {
            assertEquals(n, indices.get(n));
        }
    }

    @Test
    void everyStoredTimeFindsItsMessageAndTheTimesBetweenFindTheNext() {
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO, QueueOptions.defaults().readOnly(true))) {
            for (long n = 0; n < FormatV2SampleWriter.COUNT; n++) {
                long time = FormatV2SampleWriter.timeOf(n);
                assertEquals(n, queue.firstIndexAtOrAfter(instant(time)), "at the time of " + n);
                assertEquals(n, queue.firstIndexAtOrAfter(instant(time - 1)), "just before the time of " + n);
                assertEquals(n + 1, queue.firstIndexAtOrAfter(instant(time + 1)), "just after the time of " + n);
            }
            assertEquals(0, queue.firstIndexAtOrAfter(java.time.Instant.EPOCH));
            assertEquals(FormatV2SampleWriter.COUNT, queue.firstIndexAtOrAfter(java.time.Instant.MAX), "the end");
        }
    }

    static java.time.Instant instant(long epochNanos) {
        return java.time.Instant.ofEpochSecond(0, epochNanos);
    }

    static long nanos(java.time.Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }

    @Test
    void aReaderKnowingOneTypeSkipsTheOtherAndARawReaderNamesEveryType() {
        MessageTypes<Object> quotesOnly = MessageTypes.builder(Object.class).add(2, Quote.class).build();
        try (BlitQueue<Object> queue = BlitQueue.open(dir, quotesOnly); Tailer<Object> tailer = queue.tailer()) {
            Quote quote = new Quote();
            for (long n = 2; n < FormatV2SampleWriter.COUNT; n += 3) {
                assertTrue(tailer.readNext(quote));
                assertEquals(n, quote.securityId);
            }
            assertFalse(tailer.readNext(quote));
            assertEquals(FormatV2SampleWriter.COUNT - FormatV2SampleWriter.COUNT / 3, tailer.unknownRecords());
        }
        try (BlitQueue<Void> raw = BlitQueue.openRaw(dir); Tailer<Void> tailer = raw.tailer()) {
            MemorySegment into = MemorySegment.ofArray(new byte[256]);
            for (int n = 0; n < FormatV2SampleWriter.COUNT; n++) {
                assertTrue(tailer.readNextBytes(into) > 0);
                assertEquals(n % 3 == 2 ? 2 : 1, tailer.lastTypeId());
            }
        }
    }
}
