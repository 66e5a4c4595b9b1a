package io.blit.queue.internal.segment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.blit.queue.MarketData;
import io.blit.queue.internal.format.FileFeatures;
import io.blit.queue.internal.format.SegmentFormat;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every segment file records the term it was created in: a u32 at 60 with compatible feature bit 0, which readers
 * that do not know it ignore; a file without the bit (older builds, older formats) is of term 0.
 */
class FileTermTest {
    private static final long SIZE = 64 << 10;
    private static final Path FILE = Path.of("q", "segment-00000000000000000000.blitq");
    private static final List<FileType> TYPES = FileType.single(new MarketData().layout().descriptor());

    @Test
    void aHeaderOfATermRecordsItWithItsFeatureBitAndStillDecodes() {
        byte[] header = SegmentHeader.encodeTypes(SIZE, 0, 1, 2, TYPES, 0xFFFF_FFFEL);
        ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(FileFeatures.FILE_TERM, h.getLong(SegmentFormat.COMPATIBLE_OFFSET));
        assertEquals(0xFFFF_FFFE, h.getInt(SegmentFormat.TERM_OFFSET));
        assertEquals(0xFFFF_FFFEL, SegmentHeader.termOf(header));
        SegmentHeader.Info info = SegmentHeader.decode(FILE, header, SIZE, 0); // the CRC covers the term
        assertEquals(TYPES, info.types());
    }

    @Test
    void aHeaderWithoutTheBitIsOfTermZeroWhateverItsReservedWordHolds() {
        byte[] header = SegmentHeader.encodeTypes(SIZE, 0, 1, 2, TYPES);
        assertEquals(0, SegmentHeader.termOf(header));
        ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).putInt(SegmentFormat.TERM_OFFSET, 9);
        assertEquals(0, SegmentHeader.termOf(header), "without the bit the word is reserved, not a term");
        byte[] formatThree = SegmentHeader.encode(3, SIZE, 0, 1, 2, TYPES);
        assertEquals(0, SegmentHeader.termOf(formatThree));
    }

    @Test
    void aTermAFileHeaderCannotHoldIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> SegmentHeader.encodeTypes(SIZE, 0, 1, 2, TYPES, SegmentFormat.MAX_FILE_TERM + 1));
        assertThrows(IllegalArgumentException.class, () -> SegmentHeader.encodeTypes(SIZE, 0, 1, 2, TYPES, -1));
    }
}
