package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.replica.SourceFiles;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A queue of several message types: one order, a handler per type with one reused instance each, records of types
 * the reader does not know skipped and counted (never read as another type), every file's type table, and the
 * refusals of misuse.
 */
class TypedQueueTest {
    static final MessageTypes<Object> TWO = MessageTypes.builder(Object.class)
            .add(2, Quote.class)
            .add(1, MarketData.class)
            .build();
    private static final MessageTypes<Object> THREE = MessageTypes.builder(Object.class)
            .add(1, MarketData.class)
            .add(2, Quote.class)
            .add(7, MixedSizes.class)
            .build();

    @TempDir
    Path dir;

    /** Message n: a Quote when n % 3 == 2, else a MarketData, each filled from n. */
    static Object message(long n) {
        if (n % 3 == 2) {
            Quote quote = new Quote();
            quote.securityId = n;
            quote.time = (int) n * 10;
            quote.bidPrice0 = n + 0.5;
            return quote;
        }
        return new MarketData().fillFor(n, n * 100);
    }

    /** Whether {@code message} is message n of the stream {@link #message} gives: its type and content. */
    static boolean isMessage(Object message, long n) {
        if (n % 3 == 2) {
            return message instanceof Quote quote && quote.securityId == n && quote.bidPrice0 == n + 0.5;
        }
        return message instanceof MarketData md && md.isConsistentFor(n);
    }

    private void appendMessages(BlitQueue<Object> queue, long from, long to) {
        try (Appender<Object> appender = queue.appender()) {
            for (long n = from; n < to; n++) {
                assertEquals(n, appender.append(message(n)));
            }
        }
    }

    @Test
    void recordsOfSeveralTypesAreReadInOneOrderEachTypeIntoItsOneInstance() {
        List<String> read = new ArrayList<>();
        Map<Object, Boolean> instances = new IdentityHashMap<>();
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TWO, QueueRoundTripTest.SMALL)) {
            appendMessages(queue, 0, 2000); // several files of 64 KiB
            assertTrue(queue.fileFirstIndices().length >= 3, java.util.Arrays.toString(queue.fileFirstIndices()));
            TypeHandlers handler = TypeHandlers.builder()
                    .on(MarketData.class, (index, md) -> {
                        assertTrue(md.isConsistentFor(index), "MarketData " + index);
                        read.add(index + " md");
                        instances.put(md, true);
                    })
                    .on(Quote.class, (index, quote) -> {
                        assertEquals(index, quote.securityId);
                        assertEquals(index + 0.5, quote.bidPrice0);
                        read.add(index + " quote");
                        instances.put(quote, true);
                    })
                    .build();
            try (Tailer<Object> tailer = queue.tailer()) {
                while (tailer.read(handler)) {
                    assertEquals(tailer.index() - 1 > 0 && (tailer.index() - 1) % 3 == 2 ? 2 : 1, tailer.lastTypeId());
                }
                assertEquals(0, tailer.unknownRecords());
            }
        }
        assertEquals(2000, read.size());
        for (int n = 0; n < 2000; n++) {
            assertEquals(n + (n % 3 == 2 ? " quote" : " md"), read.get(n));
        }
        assertEquals(2, instances.size(), "one reused instance per type");
    }

    @Test
    void aSealedInterfaceSwitchesWithPatterns() {
        MessageTypes<Event> events = MessageTypes.builder(Event.class)
                .add(10, Trade.class, Trade::new)
                .add(11, Book.class)
                .build();
        StringBuilder seen = new StringBuilder();
        try (BlitQueue<Event> queue = BlitQueue.open(dir, events, QueueRoundTripTest.SMALL);
             Appender<Event> appender = queue.appender(); Tailer<Event> tailer = queue.tailer()) {
            Trade trade = new Trade();
            trade.price = 42;
            Book book = new Book();
            book.levels = 5;
            appender.append(trade);
            appender.append(book);
            appender.append(trade);
            MessageHandler<Event> handler = (index, event) -> {
                switch (event) {
                    case Trade t -> seen.append(index).append(":trade ").append(t.price).append(' ');
                    case Book b -> seen.append(index).append(":book ").append(b.levels).append(' ');
                }
            };
            while (tailer.read(handler)) {
                // delivered to the switch
            }
        }
        assertEquals("0:trade 42 1:book 5 2:trade 42 ", seen.toString());
    }

    @Test
    void aReaderThatDoesNotKnowATypeSkipsAndCountsItsRecordsAndNeverReadsThemAsAnother() {
        try (BlitQueue<Object> queue = BlitQueue.open(dir, THREE, QueueRoundTripTest.SMALL);
             Appender<Object> appender = queue.appender()) {
            appender.append(new MarketData().fillFor(0, 0));
            appender.append(new MixedSizes().fillFor(1)); // type 7: unknown to the reader below
            appender.append(message(2));
        }
        List<String> unknown = new ArrayList<>();
        List<Long> known = new ArrayList<>();
        MessageHandler<Object> handler = new MessageHandler<>() {
            @Override
            public void onMessage(long index, Object message) {
                known.add(index);
            }

            @Override
            public void onUnknown(long index, int typeId, MemorySegment payload) {
                unknown.add(index + ":" + typeId + ":" + payload.byteSize());
                assertTrue(payload.isReadOnly());
            }
        };
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TWO, QueueRoundTripTest.SMALL);
             Tailer<Object> tailer = queue.tailer(); Tailer<Object> skipping = queue.tailer()) {
            while (tailer.read(handler)) {
                // collected
            }
            assertEquals(List.of(0L, 2L), known);
            assertEquals(List.of("1:7:" + new MixedSizes().layout().descriptor().length()), unknown);
            assertEquals(1, tailer.unknownRecords());
            MarketData md = new MarketData();
            assertTrue(skipping.readNext(md));
            IllegalArgumentException other = assertThrows(IllegalArgumentException.class, () -> skipping.readNext(md),
                    "the unknown record is skipped; the next is a Quote, not a MarketData");
            assertTrue(other.getMessage().contains("message 2 is a " + Quote.class.getName() + " (type 2)"),
                    other.getMessage());
            assertEquals(1, skipping.unknownRecords());
            assertEquals(2, skipping.index(), "the Quote is not consumed");
        }
    }

    @Test
    void aNamedTailerReadsThroughTheSameReaderApiCountingUnknownRecordsAcrossSeeks() {
        try (BlitQueue<Object> queue = BlitQueue.open(dir, THREE, QueueRoundTripTest.SMALL);
             Appender<Object> appender = queue.appender()) {
            appender.append(new MarketData().fillFor(0, 0));
            appender.append(new MixedSizes().fillFor(1)); // type 7: unknown to the reader below
            appender.append(message(2));
        }
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TWO, QueueRoundTripTest.SMALL);
             NamedTailer<Object> named = queue.tailer("audit")) {
            QueueReader<Object> reader = named;
            List<String> read = new ArrayList<>();
            while (reader.read((index, message) -> read.add(index + ":" + reader.lastTypeName()))) {
                // collected
            }
            assertEquals(List.of("0:MarketData", "2:Quote"), read);
            assertEquals(1, reader.unknownRecords());
            named.seek(0);
            while (reader.read((index, message) -> { })) {
                // read again
            }
            assertEquals(2, reader.unknownRecords(), "counted since the consumer was opened, across the seek");
            assertEquals(Quote.class.getSimpleName(), reader.lastTypeName());
            assertEquals(3, reader.index());
        }
    }

    @Test
    void everyFileRecordsEveryTypeAndARawReaderNamesEachRecordsTypeWithoutTheClasses() {
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TWO, QueueRoundTripTest.SMALL)) {
            appendMessages(queue, 0, 600);
            for (long first : queue.fileFirstIndices()) {
                String header = SourceFiles.describe(SourceFiles.fileHeader(queue, first));
                assertTrue(header.contains("1=MarketData(144 bytes), 2=Quote("), header);
            }
        }
        try (BlitQueue<Void> raw = BlitQueue.openRaw(dir, QueueRoundTripTest.SMALL); Tailer<Void> tailer = raw.tailer()) {
            MemorySegment bytes = MemorySegment.ofArray(new byte[256]);
            for (int n = 0; n < 600; n++) {
                long length = tailer.readNextBytes(bytes);
                assertEquals(n % 3 == 2 ? new Quote().layout().descriptor().length() : 144, length);
                assertEquals(n % 3 == 2 ? 2 : 1, tailer.lastTypeId());
                assertEquals(n % 3 == 2 ? "Quote" : "MarketData", tailer.lastTypeName());
            }
            assertEquals(-1, tailer.readNextBytes(bytes));
        }
    }

    @Test
    void rawBytesAreAppendedUnderATypeIdAndAPlainRawAppendIsRefusedForSeveralTypes() {
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TWO, QueueRoundTripTest.SMALL);
             Appender<Object> appender = queue.appender(); Tailer<Object> tailer = queue.tailer()) {
            MarketData md = new MarketData().fillFor(0, 0);
            MemorySegment block = MemorySegment.ofArray(new byte[144]);
            md.writeTo(block, 0);
            assertEquals(0, appender.append(1, block));
            assertThrows(IllegalArgumentException.class, () -> appender.append(2, block), "a Quote is not 144 bytes");
            assertThrows(IllegalArgumentException.class, () -> appender.append(3, block), "no type 3");
            assertThrows(IllegalStateException.class, () -> appender.append(block));
            MarketData read = new MarketData();
            assertTrue(tailer.readNext(read));
            assertTrue(read.isConsistentFor(0));
            assertFalse(tailer.readNext(read), "nothing else was appended");
        }
    }

    @Test
    void aRecordOfATypeSlotItsFileDoesNotDeclareIsReportedCorruptByEveryReadAndNeverRead() throws Exception {
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TWO, QueueRoundTripTest.SMALL);
             Appender<Object> appender = queue.appender()) {
            appender.append(message(0));
        }
        long position; // a committed record of type slot 5 after message 0, as a damaged or hostile file holds it
        io.blit.queue.internal.segment.SegmentHeader.Info info = SegmentFiles.readHeader(dir, 0);
        try (io.blit.queue.internal.segment.MappedSegment file = new io.blit.queue.internal.segment.MappedSegment(info)) {
            position = io.blit.queue.internal.format.SegmentFormat.RECORDS_START + 160;
            long word = io.blit.queue.internal.format.RecordHeader.committed(
                    io.blit.queue.internal.format.RecordHeader.claimed(1, 5, 152));
            io.blit.queue.internal.format.RecordHeader.storeRelease(file.segment(), position, word);
        }
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TWO, QueueRoundTripTest.SMALL);
             Tailer<Object> byHandler = queue.tailerFrom(1); Tailer<Object> byClass = queue.tailerFrom(1);
             Tailer<Object> bytes = queue.tailerFrom(1)) {
            List<Exception> failures = List.of(
                    assertThrows(QueueCorruptedException.class, () -> byHandler.read((index, message) -> { })),
                    assertThrows(QueueCorruptedException.class, () -> byClass.readNext(new MarketData())),
                    assertThrows(QueueCorruptedException.class,
                            () -> bytes.readNextBytes(MemorySegment.ofArray(new byte[256]))));
            for (Exception failure : failures) {
                assertTrue(failure.getMessage().contains("record of type slot 5 in a file of 2 type(s)")
                        && failure.getMessage().contains("at byte " + position), failure.getMessage());
            }
            assertEquals(1, byHandler.index(), "the record is not stepped over");
            assertEquals(0, byHandler.unknownRecords(), "nor counted as a type the reader does not know");
        }
    }

    @Test
    void aTypeTableEncodedForTheWireLeavesTheFormatOfFilesOfOneClassAlone() {
        io.blit.layout.LayoutDescriptor layout = new MarketData().layout().descriptor();
        byte[] wire = TypeLayouts.of(layout).encode(); // format 2's table: the id and length before the descriptor
        assertEquals(java.util.Map.of(0, MarketData.class.getName()), TypeLayouts.decode(wire).classNames());
        assertEquals(4 + 8 + layout.encodedSize(), wire.length);
        io.blit.queue.internal.segment.SegmentHeader.Info header = io.blit.queue.internal.segment.SegmentHeader.decode(
                java.nio.file.Path.of("segment-00000000000000000000.blitq"),
                io.blit.queue.internal.segment.SegmentHeader.encode(1 << 16, 0, 1, 2, layout), 1 << 16, 0);
        assertEquals(1, header.version(), "a file of one class of id 0 is still format 1");
        assertEquals(layout, header.descriptor());
    }

    @Test
    void misuseIsRefusedClearly() {
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> MessageTypes.builder(Object.class).add(1, MarketData.class).add(1, Quote.class));
        assertTrue(twice.getMessage().contains("type id 1"), twice.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MessageTypes.builder(Object.class).add(65536, Quote.class));
        assertThrows(IllegalArgumentException.class, () -> MessageTypes.builder(Object.class).add(-1, Quote.class));
        assertThrows(IllegalArgumentException.class, () -> MessageTypes.builder(Object.class).build());
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TWO, QueueRoundTripTest.SMALL);
             Appender<Object> appender = queue.appender()) {
            IllegalArgumentException notAType = assertThrows(IllegalArgumentException.class,
                    () -> appender.append(new MixedSizes()));
            assertTrue(notAType.getMessage().contains(MixedSizes.class.getName()), notAType.getMessage());
            assertEquals(1, queue.types().typeId(MarketData.class));
            assertSame(Quote.class, queue.types().type(2));
            assertNull(queue.types().type(3));
            assertNull(queue.descriptor(), "several types: no single descriptor");
        }
        assertTrue(SegmentFiles.list(dir).length == 1);
    }

    @Test
    void aTypeTableLargerThanAFileHeaderIsRefusedSayingHowLarge() {
        io.blit.layout.LayoutDescriptor layout = new MarketData().layout().descriptor();
        List<io.blit.queue.internal.segment.FileType> table = new ArrayList<>();
        for (int id = 0; id < 40; id++) {
            table.add(new io.blit.queue.internal.segment.FileType(id, layout));
        }
        assertFalse(io.blit.queue.internal.segment.SegmentHeader.fits(table));
        IllegalArgumentException tooLarge = assertThrows(IllegalArgumentException.class,
                () -> io.blit.queue.internal.segment.SegmentHeader.encodeTypes(1 << 16, 0, 0, 0, table));
        assertTrue(tooLarge.getMessage().contains("the layouts of 40 message type(s) take "), tooLarge.getMessage());
        int fitting = (4096 - 4 - 56) / (8 + layout.encodedSize());
        assertTrue(io.blit.queue.internal.segment.SegmentHeader.fits(table.subList(0, fitting)), fitting + " types");
        assertFalse(io.blit.queue.internal.segment.SegmentHeader.fits(table.subList(0, fitting + 1)), fitting + 1 + " types");
        System.out.println("a file header holds " + fitting + " layouts of " + layout.encodedSize() + " bytes");
    }

    /** A sealed interface over two message classes. */
    sealed interface Event permits Trade, Book {
    }

    public static final class Trade extends io.blit.core.TriviallyCopyable implements Event {
        public long price;
    }

    public static final class Book extends io.blit.core.TriviallyCopyable implements Event {
        public int levels;
    }
}
