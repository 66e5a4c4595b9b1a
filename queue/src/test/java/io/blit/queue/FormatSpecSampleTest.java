package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The golden files of docs/format.md: the committed samples {@code format-v3} and {@code format-v4}
 * ({@link FormatSampleDirWriter}) hold, byte for byte, what the specification says, checked here from the bytes alone
 * (offsets, sizes, codes and the record walk as the specification writes it, no Blit class), and read back with the
 * public API. Each file is pinned by its SHA-256: a sample is written once and never again.
 */
class FormatSpecSampleTest {
    private static final Map<String, List<String>> SHA256 = Map.of(
            "format-v3", List.of(
                    "raw/segment-00000000000000000000.blitq", "b0f644e3bbb003c2996d85fe51aa3b91338fc2e0074240a43ffb2ad967578be8",
                    "raw/segment-00000000000000000024.blitq", "ebed45d0177fea600dd248016ad7026fda43f71c3ef339cac2b4817542f385d5",
                    "raw/segment-00000000000000000025.blitq", "1771e74b43eac67ca8c8297628f764dfda7a69d822080e2ffcf47e70a38e00f3",
                    "raw/segment-00000000000000000026.blitq", "b2c9cce67fb08240a43545896e95c97057f2a8b6ce3897f5b573a2e9861be461",
                    "raw/writers.blitw", "4d1f25d803f2e2804b5c824e75b407abb5013e241308ac86897e32154bd34200",
                    "typed/consumers.blitc", "afd96720922367293a219a51df884a7778e63bf6573cf9f6b6b92b058642e650",
                    "typed/segment-00000000000000000000.blitq", "d3df9a16edfb14fe4461a544a2ea6c0225f4cef6a4236e8ed5bc121ae0df5084",
                    "typed/segment-00000000000000000033.blitq", "8455430e77c948e96dafe2054c7b46f3c63c3ed3b81c9ab1c8f4ddebf54882fe",
                    "typed/segment-00000000000000000066.blitq", "593ac345a8264fa8fa811a2dbf0231ff197b0bb6a1eca8bfd42f649b6904b74f",
                    "typed/segment-00000000000000000099.blitq", "6874aec2510322fbc306bb577ac78c2ab8793c088587aca0d24b31a0e5ef2842",
                    "typed/writers.blitw", "c63907c7669c95ff12374861a877838792ccf727935cfa26e1c6497726f86f0f"),
            "format-v4", List.of(
                    "raw/segment-00000000000000000000.blitq", "4ccc672e91a55835e9b90cc7d614fa88ff60c53026fb931968a9dbc93411bcc2",
                    "raw/segment-00000000000000000024.blitq", "89eb5b926fbf1b6cebdef27bd150f0deab57092242d0fd190c9f0c1cd99970ce",
                    "raw/segment-00000000000000000025.blitq", "220ddc06667208b06a3d4aa3c43968cbff54518500ea0167fdee9599aa3ccd9f",
                    "raw/segment-00000000000000000026.blitq", "86f7337c05a9c209fc70f0af0beed2e445677d8ce97cc0fccb1618b5683fd42f",
                    "raw/writers.blitw", "7f589f1cdf383c67a252bdd9425d8b61332ac6e2952709ce9f7bbe4ee3a233fe",
                    "typed/consumers.blitc", "7995cf4441dc65a97f665c43be20d220386bd700679139f94d4c40db98bd8fd6",
                    "typed/segment-00000000000000000000.blitq", "1441ebdd4106a255c5cc9c06e86a4c0b2956b9443fecca8c8a668a4921c89e53",
                    "typed/segment-00000000000000000033.blitq", "e5420d59518ea45282baf939990a628de99684656ec292c8f5a5edec8984e31e",
                    "typed/segment-00000000000000000066.blitq", "3af42e6ee0388cae7c2c53ebca63675d41864e3116cdfb486bc791f36aeaabe7",
                    "typed/segment-00000000000000000099.blitq", "7495bb5b6385deec1b84564f05eecbb569bc195cbdd99fa630c12d25f482d45a",
                    "typed/writers.blitw", "d1723f53629d497690a387d00a336d32e77b132862da4cb6869cbedbbd4a79c3"));
    private static final long SEGMENT_SIZE = 12_288;
    private static final long RECORDS_START = 8192;
    private static final long[] TYPED_FIRSTS = {0, 33, 66, 99};
    private static final long[] RAW_FIRSTS = {0, 24, 25, 26};
    private static final long STATE_COMMITTED = 2;
    private static final long PADDING_BIT = 1L << 61;
    /** The one writer of each sample directory: writer id 1, in every record word. */
    private static final long WRITER_ID = 1;

    @TempDir
    Path temp;

    @ParameterizedTest
    @ValueSource(strings = {"format-v3", "format-v4"})
    void theCommittedFilesAreTheSampleAsWritten(String sample) throws IOException {
        List<String> pinned = SHA256.get(sample);
        for (int k = 0; k < pinned.size(); k += 2) {
            assertEquals(pinned.get(k + 1), sha256(committed(sample, pinned.get(k))), sample + "/" + pinned.get(k)
                    + " changed: a sample is written once, by the build of its format, and never again");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"format-v3", "format-v4"})
    void segmentHeadersHoldTheSpecifiedFields(String sample) throws IOException {
        int version = sample.equals("format-v3") ? 3 : 4;
        int tableOffset = version >= 4 ? 80 : 56;
        for (long first : TYPED_FIRSTS) {
            ByteBuffer h = header(sample, "typed", first, version);
            int headerLength = h.getInt(12);
            assertEquals(2, h.getInt(48), "type count");
            assertEquals(headerLength - tableOffset, h.getInt(52), "the table fills the header");
            assertEquals(1, h.getInt(tableOffset), "first type id");
            int firstDescriptor = h.getInt(tableOffset + 4);
            assertEquals(2, h.getInt(tableOffset + 8 + firstDescriptor), "second type id");
            int secondDescriptor = h.getInt(tableOffset + 12 + firstDescriptor);
            assertEquals(headerLength, tableOffset + 16 + firstDescriptor + secondDescriptor);
            String className = new String(h.array(), tableOffset + 8, firstDescriptor, StandardCharsets.ISO_8859_1);
            assertTrue(className.contains("io.blit.queue.MarketData"), "the first descriptor names its class");
        }
        for (long first : RAW_FIRSTS) {
            ByteBuffer h = header(sample, "raw", first, version);
            assertEquals(tableOffset, h.getInt(12), "a raw header ends where the table would start");
            assertEquals(0, h.getInt(48), "type count 0: raw payloads");
            assertEquals(0, h.getInt(52));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"format-v3", "format-v4"})
    void theRecordWalkOfTheSpecificationFindsEveryMessageWithItsTypeAndTime(String sample) throws IOException {
        List<long[]> typed = walk(sample, "typed", TYPED_FIRSTS);
        assertEquals(FormatSampleDirWriter.COUNT, typed.size());
        for (int n = 0; n < typed.size(); n++) {
            long[] record = typed.get(n);
            assertEquals(n % 3 == 2 ? 1 : 0, record[1], "type slot of message " + n + " (Quote: slot 1, type id 2)");
            assertEquals(FormatV2SampleWriter.timeOf(n), record[2], "time of message " + n);
        }
        List<long[]> raw = walk(sample, "raw", RAW_FIRSTS);
        assertEquals(FormatSampleWriter.RAW_COUNT, raw.size());
        for (int n = 0; n < raw.size(); n++) {
            assertEquals(0, raw.get(n)[1]);
            assertEquals(FormatV2SampleWriter.timeOf(n), raw.get(n)[2]);
            assertEquals(FormatSampleDirWriter.rawPayload(n).length, raw.get(n)[3] - 8, "payload length of " + n);
            byte[] file = committed(sample, "raw/segment-%020d.blitq".formatted(raw.get(n)[4]));
            int at = (int) raw.get(n)[5] + 16;
            assertArrayEquals(FormatSampleDirWriter.rawPayload(n), Arrays.copyOfRange(file, at, at + (int) raw.get(n)[3]
                    - 8), "payload of message " + n);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"format-v3", "format-v4"})
    void thePositionsAndWriterFilesHoldTheSpecifiedFields(String sample) throws IOException {
        int order = sample.equals("format-v3") ? 0 : 1;
        byte[] consumers = committed(sample, "typed/consumers.blitc");
        ByteBuffer c = ByteBuffer.wrap(consumers).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(65_536, consumers.length);
        assertEquals("BLITCON\0", new String(consumers, 0, 8, StandardCharsets.US_ASCII));
        assertEquals(2, c.getInt(8), "format version");
        assertEquals(64, c.getInt(12), "slot size");
        assertEquals(1023, c.getInt(16), "slot count");
        assertEquals(order, c.getInt(20), "byte order (0 before the field: little-endian)");
        assertEquals(0, c.getLong(40), "compatible features");
        assertEquals(0, c.getLong(48), "incompatible features");
        assertEquals(crc(consumers, 60), c.getInt(60), "CRC32C of [0, 60)");
        assertEquals(FormatSampleDirWriter.COMMITTED, c.getLong(64), "slot 0: committed index");
        assertEquals(0, c.getLong(64 + 8), "slot 0: no holder");
        assertTrue(c.getLong(64 + 16) > 0, "slot 0: the last commit's time");
        byte[] name = FormatSampleDirWriter.CONSUMER.getBytes(StandardCharsets.US_ASCII);
        long ready = 2L << 62 | (long) name.length << 32 | Integer.toUnsignedLong(crc(name, name.length));
        assertEquals(ready, c.getLong(64 + 24), "slot 0: READY, name length, CRC32C of the name");
        assertEquals(FormatSampleDirWriter.CONSUMER, new String(consumers, 64 + 32, name.length, StandardCharsets.US_ASCII));
        assertEquals(0, c.getLong(128 + 24), "slot 1 is FREE: slots are used as a prefix");

        for (String queue : new String[] {"typed", "raw"}) {
            byte[] writers = committed(sample, queue + "/writers.blitw");
            ByteBuffer w = ByteBuffer.wrap(writers).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals("BLITWRT\0", new String(writers, 0, 8, StandardCharsets.US_ASCII));
            assertEquals(1, w.getInt(8), "format version");
            assertEquals(order, w.getInt(12), "byte order");
            assertEquals(2, w.getLong(16), "next writer id");
            assertEquals(0, w.getLong(24));
            assertEquals(0, w.getLong(32));
            assertEquals(4096 + 2 * 32, writers.length, "the info entry of writer 1 is the file's last bytes");
            assertEquals(WRITER_ID, w.getLong(4096 + 32), "info entry of writer 1: its id");
            assertTrue(w.getLong(4096 + 40) > 0, "info entry of writer 1: its pid");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"format-v3", "format-v4"})
    void thePublicApiReadsTheSample(String sample) throws IOException {
        Path typed = copy(sample, "typed");
        List<Long> indices = new ArrayList<>();
        try (BlitQueue<Object> queue = BlitQueue.open(typed, TypedQueueTest.TWO); Tailer<Object> tailer = queue.tailer()) {
            assertArrayEquals(TYPED_FIRSTS, queue.fileFirstIndices());
            while (tailer.read((index, message) -> {
                assertTrue(TypedQueueTest.isMessage(message, index), "message " + index);
                indices.add(index);
            })) {
                assertEquals(FormatV2SampleWriter.timeOf(indices.getLast()), tailer.lastTimeNanos());
            }
            try (NamedTailer<Object> audit = queue.tailer(FormatSampleDirWriter.CONSUMER)) {
                assertEquals(FormatSampleDirWriter.COMMITTED, audit.committedIndex());
            }
        }
        assertEquals(FormatSampleDirWriter.COUNT, indices.size());
        try (BlitQueue<Void> raw = BlitQueue.openRaw(copy(sample, "raw")); Tailer<Void> tailer = raw.tailer()) {
            java.lang.foreign.MemorySegment into = java.lang.foreign.MemorySegment.ofArray(new byte[4096]);
            for (int n = 0; n < FormatSampleWriter.RAW_COUNT; n++) {
                byte[] expected = FormatSampleDirWriter.rawPayload(n);
                assertEquals(expected.length, tailer.readNextBytes(into), "message " + n);
                assertArrayEquals(expected, into.asSlice(0, expected.length).toArray(
                        java.lang.foreign.ValueLayout.JAVA_BYTE));
            }
            assertEquals(-1, tailer.readNextBytes(into));
        }
    }

    /**
     * The record walk of docs/format.md over the files of one queue: per message {index, type slot, time, length,
     * file's first index, position}. Checks every word on the way.
     */
    private static List<long[]> walk(String sample, String queue, long[] firsts) throws IOException {
        List<long[]> messages = new ArrayList<>();
        for (int f = 0; f < firsts.length; f++) {
            byte[] file = committed(sample, queue + "/segment-%020d.blitq".formatted(firsts[f]));
            ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(firsts[f], messages.size(), "a file's first index is the index of its first record");
            long position = RECORDS_START;
            while (true) {
                if (position == file.length) {
                    break; // the file's records end exactly at its end: no padding word
                }
                long word = b.getLong((int) position);
                if (word == 0) {
                    assertEquals(firsts.length - 1, f, "only the last file ends with an empty word");
                    break;
                }
                assertEquals(STATE_COMMITTED, word >>> 62, "every record of the sample is committed");
                assertEquals(WRITER_ID, (word >>> 32) & ((1 << 22) - 1), "claimer: writer id 1");
                if ((word & PADDING_BIT) != 0) {
                    assertEquals(0, word & 0xFFFF_FFFFL, "a padding word has no body");
                    assertTrue(f < firsts.length - 1, "padding: continue in the next file");
                    break;
                }
                long length = word & 0xFFFF_FFFFL;
                long time = b.getLong((int) position + 8);
                messages.add(new long[] {messages.size(), (word >>> 54) & 0x7F, time, length, firsts[f], position});
                position += (8 + length + 7) & ~7L;
                assertTrue(position <= file.length, "a record ends inside its file");
            }
            for (int k = 4096; k < 8192; k++) {
                assertEquals(0, file[k], "no checkpoint: fewer than 4096 records a file");
            }
        }
        return messages;
    }

    /** The header of a segment file, checked as format.md says a reader checks it. */
    private static ByteBuffer header(String sample, String queue, long first, int version) throws IOException {
        byte[] file = committed(sample, queue + "/segment-%020d.blitq".formatted(first));
        ByteBuffer h = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        String name = sample + " " + queue + " file " + first;
        assertEquals(SEGMENT_SIZE, file.length, name);
        assertEquals("BLITQUE\0", new String(file, 0, 8, StandardCharsets.US_ASCII), name);
        assertEquals(version, h.getInt(8), name + ": format version");
        int headerLength = h.getInt(12);
        assertEquals(SEGMENT_SIZE, h.getLong(16), name + ": segment size");
        assertEquals(first, h.getLong(24), name + ": first index");
        assertTrue(h.getLong(32) > 0, name + ": created");
        if (version >= 4) {
            assertEquals(1, h.getInt(56), name + ": byte order (1: little-endian)");
            assertEquals(0, h.getInt(60), name + ": reserved");
            assertEquals(0, h.getLong(64), name + ": compatible features");
            assertEquals(0, h.getLong(72), name + ": incompatible features");
        }
        assertEquals(crc(file, headerLength), h.getInt(headerLength), name + ": CRC32C of [0, header length)");
        for (int k = headerLength + 4; k < 4096; k++) {
            assertEquals(0, file[k], name + ": zeros after the CRC");
        }
        return h;
    }

    private Path copy(String sample, String queue) throws IOException {
        Path dir = temp.resolve(sample).resolve(queue);
        Files.createDirectories(dir);
        List<String> pinned = SHA256.get(sample);
        for (int k = 0; k < pinned.size(); k += 2) {
            if (pinned.get(k).startsWith(queue + "/")) {
                Files.write(dir.resolve(pinned.get(k).substring(queue.length() + 1)), committed(sample, pinned.get(k)));
            }
        }
        return dir;
    }

    private static int crc(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }

    private static byte[] committed(String sample, String name) throws IOException {
        try (InputStream in = FormatSpecSampleTest.class.getClassLoader().getResourceAsStream(sample + "/" + name)) {
            assertNotNull(in, "sample file " + sample + "/" + name + " on the test class path");
            return in.readAllBytes();
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
