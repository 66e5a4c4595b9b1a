package io.blit.queue.internal.segment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.LayoutDescriptor;
import io.blit.layout.testkit.Mutation;
import io.blit.queue.MarketData;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.format.SegmentFormat;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * Fuzz properties of the segment file header's decoders (docs/fuzzing.md): {@link SegmentHeader#decode},
 * {@link SegmentHeader#decodeCopy}, {@link SegmentHeader#copyOf}, {@link SegmentHeader#firstIndexOf} and
 * {@link SegmentHeader#segmentSizeOf} take any bytes, valid or edited (headers of both formats, type tables included),
 * and either decode what the bytes state or throw {@link QueueCorruptedException}; valid headers round-trip.
 */
class SegmentHeaderFuzzTest {
    private static final Path FILE = Path.of("segment-00000000000000000000.blitq");
    private static final Path DIR = Path.of("queue");
    private static final LayoutDescriptor MARKET_DATA = new MarketData().layout().descriptor();
    private static final LayoutDescriptor QUOTE = new io.blit.queue.Quote().layout().descriptor();
    /** Type tables of both formats: raw and one type of id 0 (format 1), one type of another id and two (format 2). */
    private static final List<List<FileType>> TABLES = List.of(List.of(), FileType.single(MARKET_DATA),
            List.of(new FileType(5, QUOTE)), List.of(new FileType(1, MARKET_DATA), new FileType(2, QUOTE)));
    /** Offsets of the header's integers and of the descriptor's first fields (its count, size, start, length). */
    private static final int[] FIELDS = {SegmentFormat.VERSION_OFFSET, SegmentFormat.HEADER_LENGTH_OFFSET,
            SegmentFormat.SEGMENT_SIZE_OFFSET, SegmentFormat.FIRST_INDEX_OFFSET, SegmentFormat.DESCRIPTOR_LENGTH_OFFSET,
            SegmentFormat.DESCRIPTOR_OFFSET + 6, SegmentFormat.DESCRIPTOR_OFFSET + 8, SegmentFormat.DESCRIPTOR_OFFSET + 12,
            SegmentFormat.DESCRIPTOR_OFFSET + 16, SegmentFormat.DESCRIPTOR_OFFSET + 37, 60, 64, 100,
            SegmentFormat.TYPE_TABLE_LENGTH_OFFSET, SegmentFormat.DESCRIPTOR_OFFSET + 8 + MARKET_DATA.encodedSize(),
            SegmentFormat.DESCRIPTOR_OFFSET + 12 + MARKET_DATA.encodedSize(), SegmentFormat.BYTE_ORDER_OFFSET,
            SegmentFormat.COMPATIBLE_OFFSET, SegmentFormat.INCOMPATIBLE_OFFSET, SegmentFormat.INCOMPATIBLE_OFFSET + 7,
            SegmentFormat.TABLE_OFFSET, SegmentFormat.TABLE_OFFSET + 4, SegmentFormat.TABLE_OFFSET + 8 + 6,
            SegmentFormat.TABLE_OFFSET + 8 + MARKET_DATA.encodedSize()};

    @Property
    void anyBytesDecodeOrAreCorrupt(@ForAll @Size(max = 5000) byte[] bytes, @ForAll long fileSize,
                                    @ForAll long expectedFirst) {
        checkEveryDecoder(bytes, fileSize, expectedFirst);
    }

    @Property
    void editedHeadersDecodeWhatTheyStateOrAreCorrupt(@ForAll("headers") byte[] valid,
                                                      @ForAll("edits") List<Mutation> edits,
                                                      @ForAll boolean fixCrc, @ForAll boolean asCopy) {
        byte[] bytes = Mutation.applyAll(edits, asCopy ? copy(valid) : valid, ByteOrder.LITTLE_ENDIAN);
        if (fixCrc) {
            fixCrc(bytes);
        }
        checkEveryDecoder(bytes, SegmentHeader.segmentSizeOf(bytes), SegmentHeader.firstIndexOf(bytes));
    }

    @Property
    void validHeadersRoundTrip(@ForAll("headers") byte[] header) {
        long size = SegmentHeader.segmentSizeOf(header);
        long first = SegmentHeader.firstIndexOf(header);
        SegmentHeader.Info info = SegmentHeader.decode(FILE, header, size, first);
        byte[] copy = SegmentHeader.copyOf(MemorySegment.ofArray(header), FILE);
        assertArrayEquals(Arrays.copyOf(header, copy.length), copy);
        SegmentHeader.Info fromCopy = SegmentHeader.decodeCopy(DIR, copy);
        assertEquals(SegmentFiles.path(DIR, first), fromCopy.file());
        assertEquals(info, new SegmentHeader.Info(FILE, fromCopy.segmentSize(), fromCopy.firstIndex(),
                fromCopy.createdNanos(), fromCopy.creatorPid(), fromCopy.version(), fromCopy.types()));
        assertArrayEquals(header, SegmentHeader.encodeTypes(info.segmentSize(), info.firstIndex(), info.createdNanos(),
                info.creatorPid(), info.types()));
    }

    /** Every decoder on {@code bytes}: decodes what they state, or throws {@link QueueCorruptedException}, and nothing else. */
    private static void checkEveryDecoder(byte[] bytes, long fileSize, long expectedFirst) {
        long before = Mutation.allocatedByThisThread();
        assertEquals(bytes.length < 32 ? -1 : le64(bytes, 24), SegmentHeader.firstIndexOf(bytes));
        assertEquals(bytes.length < 24 ? -1 : le64(bytes, 16), SegmentHeader.segmentSizeOf(bytes));
        SegmentHeader.Info decoded = decodeOrNull(() -> SegmentHeader.decode(FILE, bytes, fileSize, expectedFirst));
        if (decoded != null) {
            assertStates(bytes, decoded);
            assertEquals(fileSize, decoded.segmentSize());
            assertEquals(expectedFirst, decoded.firstIndex());
        }
        SegmentHeader.Info copyDecoded = decodeOrNull(() -> SegmentHeader.decodeCopy(DIR, bytes));
        if (copyDecoded != null) {
            assertStates(bytes, copyDecoded);
            assertEquals(bytes.length, le32(bytes, SegmentFormat.HEADER_LENGTH_OFFSET) + 4, "a copy is its header exactly");
        }
        byte[] copy = decodeOrNull(() -> SegmentHeader.copyOf(MemorySegment.ofArray(bytes), FILE));
        if (copy != null) {
            assertArrayEquals(Arrays.copyOf(bytes, le32(bytes, SegmentFormat.HEADER_LENGTH_OFFSET) + 4), copy);
        }
        long allocated = Mutation.allocatedByThisThread() - before;
        assertTrue(allocated < (4 << 20) + 64L * bytes.length, "allocated " + allocated + " bytes");
    }

    /** What {@code decode} returns, or null if it threw {@link QueueCorruptedException} (anything else fails). */
    private static <T> T decodeOrNull(java.util.function.Supplier<T> decode) {
        try {
            return decode.get();
        } catch (QueueCorruptedException e) {
            assertTrue(e.getMessage().contains(" at byte " + e.offset() + ": "), e.getMessage());
            return null;
        }
    }

    /** A decoded header holds what its bytes state, within the format's bounds. */
    private static void assertStates(byte[] bytes, SegmentHeader.Info info) {
        assertTrue(SegmentFormat.isValidSegmentSize(info.segmentSize()), "segment size " + info.segmentSize());
        assertTrue(info.firstIndex() >= 0 && info.firstIndex() <= SegmentFormat.MAX_FIRST_INDEX);
        assertEquals(le64(bytes, SegmentFormat.SEGMENT_SIZE_OFFSET), info.segmentSize());
        assertEquals(le64(bytes, SegmentFormat.FIRST_INDEX_OFFSET), info.firstIndex());
        assertEquals(le64(bytes, SegmentFormat.CREATED_OFFSET), info.createdNanos());
        assertEquals(le64(bytes, SegmentFormat.PID_OFFSET), info.creatorPid());
        int headerLength = le32(bytes, SegmentFormat.HEADER_LENGTH_OFFSET);
        int tableOffset = SegmentHeader.tableOffset(info.version());
        assertEquals(headerLength == tableOffset, info.raw());
        assertEquals(le32(bytes, SegmentFormat.VERSION_OFFSET), info.version());
        int table = 0;
        for (FileType type : info.types()) {
            table += type.descriptor().encodedSize() + (info.version() == 1 ? 0 : 8);
        }
        assertEquals(headerLength - tableOffset, table, "the table fills the header exactly");
        assertTrue(info.version() >= 2 || info.types().size() <= 1, "format 1 holds one type at most");
    }

    @Provide
    Arbitrary<byte[]> headers() {
        Arbitrary<Long> sizes = Arbitraries.oneOf(
                Arbitraries.of(SegmentFormat.MIN_SEGMENT_SIZE, SegmentFormat.MAX_SEGMENT_SIZE, 64L << 10),
                Arbitraries.longs().between(3, SegmentFormat.MAX_SEGMENT_SIZE / 4096).map(pages -> pages * 4096));
        Arbitrary<Long> firsts = Arbitraries.oneOf(Arbitraries.of(0L, SegmentFormat.MAX_FIRST_INDEX),
                Arbitraries.longs().between(0, SegmentFormat.MAX_FIRST_INDEX));
        return Combinators.combine(sizes, firsts, Arbitraries.longs(), Arbitraries.longs(), Arbitraries.of(TABLES))
                .as(SegmentHeader::encodeTypes);
    }

    @Provide
    Arbitrary<List<Mutation>> edits() {
        return Mutation.of(SegmentFormat.TABLE_OFFSET + 16 + MARKET_DATA.encodedSize() + QUOTE.encodedSize() + 4,
                        FIELDS).list().ofMinSize(1)
                .ofMaxSize(4);
    }

    private static byte[] copy(byte[] header) {
        return Arrays.copyOf(header, le32(header, SegmentFormat.HEADER_LENGTH_OFFSET) + 4);
    }

    /** Writes the CRC a header of the stated length needs, where the bytes have room for it. */
    private static void fixCrc(byte[] bytes) {
        if (bytes.length < SegmentFormat.DESCRIPTOR_OFFSET) {
            return;
        }
        int headerLength = le32(bytes, SegmentFormat.HEADER_LENGTH_OFFSET);
        if (headerLength >= 0 && headerLength <= bytes.length - 4) {
            CRC32C crc = new CRC32C();
            crc.update(bytes, 0, headerLength);
            ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(headerLength, (int) crc.getValue());
        }
    }

    private static long le64(byte[] bytes, int at) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(at);
    }

    private static int le32(byte[] bytes, int at) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(at);
    }
}
