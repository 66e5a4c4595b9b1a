package io.blit.queue.internal.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.MarketData;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.FileType;
import io.blit.queue.internal.segment.SegmentHeader;
import io.blit.queue.internal.sidecar.ConsumerFile;
import io.blit.queue.internal.writer.WriterRegistry;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every file with a header records its byte order and feature masks, and a reader refuses, naming file, field offset
 * and value, a file of the other byte order or with an incompatible feature it does not know; it reads a file with
 * compatible features it does not know, and the files of earlier formats that record neither (little-endian).
 */
class FileFeaturesTest {
    private static final long SIZE = 64 << 10;
    private static final Path FILE = Path.of("q", "segment-00000000000000000000.blitq");
    private static final int OTHER_ORDER = FileFeatures.NATIVE_ORDER == FileFeatures.ORDER_LITTLE_ENDIAN
            ? FileFeatures.ORDER_BIG_ENDIAN : FileFeatures.ORDER_LITTLE_ENDIAN;

    @TempDir
    Path dir;

    @Test
    void aNewSegmentHeaderRecordsTheNativeByteOrderAndNoFeature() {
        byte[] header = typedHeader();
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(4, h.getInt(SegmentFormat.VERSION_OFFSET));
        assertEquals(FileFeatures.NATIVE_ORDER, h.getInt(SegmentFormat.BYTE_ORDER_OFFSET));
        assertEquals(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? 1 : 2, FileFeatures.NATIVE_ORDER);
        assertEquals(0, h.getInt(SegmentFormat.TERM_OFFSET));
        assertEquals(0, h.getLong(SegmentFormat.COMPATIBLE_OFFSET));
        assertEquals(0, h.getLong(SegmentFormat.INCOMPATIBLE_OFFSET));
        assertEquals(1, h.getInt(SegmentFormat.TYPE_COUNT_OFFSET));
        assertEquals(0, h.getInt(SegmentFormat.TABLE_OFFSET), "the table's first type id, at offset 80");
    }

    @Test
    void aRawSegmentHeaderRecordsTheByteOrderToo() {
        byte[] header = SegmentHeader.encodeTypes(SIZE, 0, 1, 2, List.of());
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(SegmentFormat.TABLE_OFFSET, h.getInt(SegmentFormat.HEADER_LENGTH_OFFSET));
        assertEquals(FileFeatures.NATIVE_ORDER, h.getInt(SegmentFormat.BYTE_ORDER_OFFSET));
        assertTrue(SegmentHeader.decode(FILE, header, SIZE, 0).raw());
    }

    @Test
    void aSegmentFileOfTheOtherByteOrderIsRefusedNamingFieldAndValue() {
        byte[] header = typedHeader();
        setInt(header, SegmentFormat.BYTE_ORDER_OFFSET, OTHER_ORDER);
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class,
                () -> SegmentHeader.decode(FILE, header, SIZE, 0));
        assertEquals(FILE, e.file());
        assertEquals(SegmentFormat.BYTE_ORDER_OFFSET, e.offset());
        assertTrue(e.getMessage().contains("at byte 56: byte order " + OTHER_ORDER + " ("), e.getMessage());
    }

    @Test
    void anUnknownByteOrderCodeIsRefused() {
        byte[] header = typedHeader();
        setInt(header, SegmentFormat.BYTE_ORDER_OFFSET, 7);
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class,
                () -> SegmentHeader.decode(FILE, header, SIZE, 0));
        assertTrue(e.getMessage().contains("at byte 56: byte order 7 is not a known code"), e.getMessage());
    }

    @Test
    void aFormat4HeaderWithoutAByteOrderIsRefused() {
        byte[] header = typedHeader();
        setInt(header, SegmentFormat.BYTE_ORDER_OFFSET, FileFeatures.ORDER_NOT_RECORDED);
        if (FileFeatures.NATIVE_ORDER == FileFeatures.ORDER_LITTLE_ENDIAN) {
            // format 4 always records it; 0 reads as little-endian like the formats before the field
            assertEquals(0, SegmentHeader.decode(FILE, header, SIZE, 0).firstIndex());
        } else {
            assertThrows(QueueCorruptedException.class, () -> SegmentHeader.decode(FILE, header, SIZE, 0));
        }
    }

    @Test
    void anUnknownIncompatibleFeatureIsRefusedNamingTheBit() {
        byte[] header = typedHeader();
        setLong(header, SegmentFormat.INCOMPATIBLE_OFFSET, 1L << 5 | 1L << 40);
        QueueCorruptedException e = assertThrows(QueueCorruptedException.class,
                () -> SegmentHeader.decode(FILE, header, SIZE, 0));
        assertEquals(SegmentFormat.INCOMPATIBLE_OFFSET, e.offset());
        assertTrue(e.getMessage().contains("at byte 72: incompatible features 0x0000010000000020: bits 5, 40 not known"),
                e.getMessage());
    }

    @Test
    void unknownCompatibleFeaturesAndAnyTermWordStillDecode() {
        byte[] header = typedHeader();
        setLong(header, SegmentFormat.COMPATIBLE_OFFSET, -1L);
        setInt(header, SegmentFormat.TERM_OFFSET, 0x5A5A);
        SegmentHeader.Info info = SegmentHeader.decode(FILE, header, SIZE, 0);
        assertEquals(SegmentFormat.FORMAT_VERSION, info.version());
        assertEquals(MarketData.class.getName(), info.descriptor().className());
    }

    @Test
    void aFormat3HeaderRecordsNoByteOrderAndReadsAsLittleEndian() {
        byte[] header = SegmentHeader.encode(3, SIZE, 0, 1, 2, FileType.single(new MarketData().layout().descriptor()));
        assertEquals(SegmentFormat.DESCRIPTOR_OFFSET + 8 + new MarketData().layout().descriptor().encodedSize(),
                ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt(SegmentFormat.HEADER_LENGTH_OFFSET));
        if (FileFeatures.NATIVE_ORDER == FileFeatures.ORDER_LITTLE_ENDIAN) {
            assertEquals(3, SegmentHeader.decode(FILE, header, SIZE, 0).version());
        } else {
            QueueCorruptedException e = assertThrows(QueueCorruptedException.class,
                    () -> SegmentHeader.decode(FILE, header, SIZE, 0));
            assertTrue(e.getMessage().contains("little-endian by definition"), e.getMessage());
        }
    }

    @Test
    void aPositionsFileOfTheOtherByteOrderOrAnUnknownFeatureIsRefused() throws IOException {
        byte[] header = ConsumerFile.header(1, 2);
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(FileFeatures.NATIVE_ORDER, h.getInt(ConsumerFile.BYTE_ORDER_OFFSET));
        assertEquals(0, h.getLong(ConsumerFile.COMPATIBLE_OFFSET));
        assertEquals(0, h.getLong(ConsumerFile.INCOMPATIBLE_OFFSET));

        byte[] other = header.clone();
        setInt(other, ConsumerFile.BYTE_ORDER_OFFSET, OTHER_ORDER);
        QueueCorruptedException e = refusesPositionsFile(other);
        assertEquals(ConsumerFile.BYTE_ORDER_OFFSET, e.offset());
        assertTrue(e.getMessage().contains("at byte 20: consumer positions file: byte order " + OTHER_ORDER),
                e.getMessage());

        byte[] incompatible = header.clone();
        setLong(incompatible, ConsumerFile.INCOMPATIBLE_OFFSET, 1L << 63);
        e = refusesPositionsFile(incompatible);
        assertEquals(ConsumerFile.INCOMPATIBLE_OFFSET, e.offset());
        assertTrue(e.getMessage().contains("bit 63 not known"), e.getMessage());

        byte[] compatible = header.clone();
        setLong(compatible, ConsumerFile.COMPATIBLE_OFFSET, 1L << 63);
        writePositionsFile(compatible);
        try (Arena arena = Arena.ofConfined()) {
            assertNotNull(ConsumerFile.mapExisting(dir, arena, true, null), "unknown compatible features are ignored");
        }
    }

    @Test
    void aWriterFileOfTheOtherByteOrderOrAnUnknownFeatureIsRefusedWhenAWriterLeases() throws IOException {
        Path file = dir.resolve(WriterRegistry.NAME);
        WriterRegistry registry = WriterRegistry.acquire(dir);
        try {
            assertEquals(1, registry.lease(false));
        } finally {
            registry.release();
        }
        byte[] header = Arrays.copyOf(Files.readAllBytes(file), WriterRegistry.HEADER_LENGTH);
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(FileFeatures.NATIVE_ORDER, h.getInt(WriterRegistry.BYTE_ORDER_OFFSET));
        assertEquals(0, h.getLong(WriterRegistry.COMPATIBLE_OFFSET));
        assertEquals(0, h.getLong(WriterRegistry.INCOMPATIBLE_OFFSET));

        byte[] other = header.clone();
        setInt(other, WriterRegistry.BYTE_ORDER_OFFSET, OTHER_ORDER);
        Files.write(file, other);
        assertTrue(refusesLease().getMessage().contains("at byte 12: writer registry: byte order " + OTHER_ORDER));

        byte[] incompatible = header.clone();
        setLong(incompatible, WriterRegistry.INCOMPATIBLE_OFFSET, 1L);
        Files.write(file, incompatible);
        QueueCorruptedException e = refusesLease();
        assertEquals(WriterRegistry.INCOMPATIBLE_OFFSET, e.offset());
        assertTrue(e.getMessage().contains("bit 0 not known"), e.getMessage());

        byte[] compatible = header.clone();
        setLong(compatible, WriterRegistry.COMPATIBLE_OFFSET, 1L);
        setInt(compatible, WriterRegistry.BYTE_ORDER_OFFSET, FileFeatures.ORDER_NOT_RECORDED);
        Files.write(file, compatible);
        registry = WriterRegistry.acquire(dir);
        try {
            assertEquals(2, registry.lease(false), "compatible features and an unrecorded order (little-endian) read");
        } finally {
            registry.release();
        }
    }

    @Test
    void theProblemsNameTheValues() {
        assertNull(FileFeatures.byteOrderProblem(FileFeatures.NATIVE_ORDER));
        assertNull(FileFeatures.incompatibleProblem(0));
        assertEquals("incompatible features 0x0000000000000004: bit 2 not known to this reader, which cannot read a"
                + " file that needs it", FileFeatures.incompatibleProblem(4));
    }

    private QueueCorruptedException refusesLease() {
        WriterRegistry registry = WriterRegistry.acquire(dir);
        try {
            return assertThrows(QueueCorruptedException.class, () -> registry.lease(false));
        } finally {
            registry.release();
        }
    }

    private QueueCorruptedException refusesPositionsFile(byte[] header) throws IOException {
        writePositionsFile(header);
        try (Arena arena = Arena.ofConfined()) {
            QueueCorruptedException e = assertThrows(QueueCorruptedException.class,
                    () -> ConsumerFile.mapExisting(dir, arena, true, null));
            assertEquals(ConsumerFile.path(dir), e.file());
            return e;
        }
    }

    private void writePositionsFile(byte[] header) throws IOException {
        byte[] file = new byte[ConsumerFile.HEADER_LENGTH + ConsumerFile.SLOTS * ConsumerFile.SLOT_SIZE];
        System.arraycopy(header, 0, file, 0, header.length);
        CRC32C crc = new CRC32C();
        crc.update(file, 0, ConsumerFile.CRC_OFFSET);
        ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putInt(ConsumerFile.CRC_OFFSET, (int) crc.getValue());
        Files.write(ConsumerFile.path(dir), file);
    }

    private static byte[] typedHeader() {
        return SegmentHeader.encodeTypes(SIZE, 0, 1, 2, FileType.single(new MarketData().layout().descriptor()));
    }

    /** Sets a little-endian int of a segment header and rewrites its CRC, so that only the field is wrong. */
    private static void setInt(byte[] header, int offset, int value) {
        ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).putInt(offset, value);
        fixSegmentCrc(header);
    }

    private static void setLong(byte[] header, int offset, long value) {
        ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).putLong(offset, value);
        fixSegmentCrc(header);
    }

    /** A segment header's CRC after its header length; a no-op for the 64-byte headers (whose CRC is rewritten apart). */
    private static void fixSegmentCrc(byte[] header) {
        if (header.length != SegmentFormat.HEADER_AREA) {
            return;
        }
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        int length = h.getInt(SegmentFormat.HEADER_LENGTH_OFFSET);
        CRC32C crc = new CRC32C();
        crc.update(header, 0, length);
        h.putInt(length, (int) crc.getValue());
    }
}
