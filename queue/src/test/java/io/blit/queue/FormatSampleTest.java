package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.blit.core.LayoutPolicy;
import io.blit.layout.FieldDescriptor;
import io.blit.layout.FieldType;
import io.blit.layout.JvmFacts;
import io.blit.layout.LayoutComparison;
import io.blit.layout.LayoutDescriptor;
import io.blit.layout.LayoutVerifier;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.segment.SegmentHeader;
import io.blit.queue.replica.SourceFiles;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.net.URL;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files of segment-file format version 1 are read unchanged: the sample in {@code src/test/resources/format-v1},
 * written once by {@link FormatSampleWriter} (its Javadoc has the command and what each queue holds), read with
 * today's public API.
 *
 * <p>Every test reads a copy of the sample in a temporary directory (opening a queue may create or delete files), never
 * the committed files in place; the committed bytes are only read, through the class path. The sample is pinned by the
 * SHA-256 of each file ({@link #SHA256}): a build whose format differs must go on reading these bytes, not write a new
 * sample over them. The values it holds are pinned here as the generator wrote them (first indices, creation times,
 * creator pid, the layout descriptor), and the messages as {@link SampleV1Message#fillFor} and
 * {@link FormatSampleWriter#rawPayload} give them.
 */
class FormatSampleTest {
    private static final String ROOT = "format-v1";
    private static final long SEGMENT_SIZE = 12_288;
    private static final String CLASS = "io.blit.queue.SampleV1Message";

    /** Every file of the sample and its SHA-256: the sample is written once, these bytes are format version 1. */
    private static final Map<String, String> SHA256 = new TreeMap<>(Map.of(
            "raw/segment-00000000000000000000.blitq", "3aa56f56cdc5cf30abe452d5b9f1442dede740deb78aa0c8e5e58807723e5e00",
            "raw/segment-00000000000000000024.blitq", "b74c66efd2eaccbd4e36e1816cb7f44d211c49cec202168b80b8ee8b23ba519b",
            "raw/segment-00000000000000000025.blitq", "e13d2518e8d2b82c438061a4df762499d32db424bd14c1c073c2b2c6b2e785ee",
            "raw/segment-00000000000000000026.blitq", "0d73ae19c25e0f67e89e0cd9ac9c0529aec9d6e8b2d971285ee8196bbb16c6e0",
            "typed/segment-00000000000000000000.blitq", "b4fa4046b4c5ae9f51da75ef46cf34ce96121acc855bf09ad75986a8d418c8a3",
            "typed/segment-00000000000000000085.blitq", "4f74494509844d15ffcc795d5e16abc8e81c510ab27e3ae06cdfa42c34901c46",
            "typed/segment-00000000000000000170.blitq", "30456af622d2b351190702a31a524ef1bd1aad353f2dd05e9c54dfa61d3c86e8"));

    private static final long[] TYPED_FIRSTS = {0, 85, 170};
    private static final long[] RAW_FIRSTS = {0, 24, 25, 26};
    /** The creation times the headers record, epoch nanoseconds (millisecond precision). */
    private static final long[] TYPED_CREATED = {1795690259241000000L, 1795690259310000000L, 1795690259324000000L};
    private static final long[] RAW_CREATED = {1795690259339000000L, 1795690259344000000L, 1795690259348000000L,
        1795690259349000000L};
    /** The generator's pid, in every header and record word. */
    private static final long CREATOR_PID = 15109;

    /** The layout the typed files record: JDK 25.0.3, default mode (12-byte headers, compressed class pointers). */
    private static final List<FieldDescriptor> FIELDS = List.of(
            new FieldDescriptor("i", CLASS, FieldType.INT, 12),
            new FieldDescriptor("index", CLASS, FieldType.LONG, 16),
            new FieldDescriptor("l", CLASS, FieldType.LONG, 24),
            new FieldDescriptor("d", CLASS, FieldType.DOUBLE, 32),
            new FieldDescriptor("f", CLASS, FieldType.FLOAT, 40),
            new FieldDescriptor("s", CLASS, FieldType.SHORT, 44),
            new FieldDescriptor("c", CLASS, FieldType.CHAR, 46),
            new FieldDescriptor("b", CLASS, FieldType.BYTE, 48),
            new FieldDescriptor("z", CLASS, FieldType.BOOLEAN, 49));
    private static final JvmFacts WRITER_JVM = new JvmFacts(12, false, true, 8, "OpenJDK 64-Bit Server VM",
            "25.0.3+9-LTS", ByteOrder.LITTLE_ENDIAN);
    private static final String FINGERPRINT = "22b691da11c60ce3";
    private static final int BLOCK_LENGTH = 38;
    /** Header length of a typed file: 56 bytes of fields and the 467-byte descriptor; a raw file's is 56. */
    private static final int TYPED_HEADER_LENGTH = 523;
    /** A typed record: the header word and the 38-byte block, 8-aligned; 85 fill a file's 4096 bytes, 16 left. */
    private static final int TYPED_RECORD = 48;
    private static final int TYPED_PER_FILE = 85;

    private static final int TYPED_COUNT = 200;
    private static final int ABANDONED = 100;
    private static final int RAW_COUNT = 40;
    private static final int FULL_INDEX = 25;
    private static final int FULL_LENGTH = 4088;

    @TempDir
    Path temp;

    private Path typed;
    private Path raw;

    @BeforeEach
    void copySample() throws IOException {
        for (String name : SHA256.keySet()) {
            Path target = temp.resolve(name);
            Files.createDirectories(target.getParent());
            Files.write(target, committed(name));
        }
        typed = temp.resolve("typed");
        raw = temp.resolve("raw");
    }

    @Test
    void theCommittedFilesAreTheFormatVersion1SampleAsWritten() throws Exception {
        URL root = FormatSampleTest.class.getClassLoader().getResource(ROOT);
        assertNotNull(root, "the sample is on the test class path");
        if (root.getProtocol().equals("file")) {
            Path dir = Path.of(root.toURI());
            try (Stream<Path> files = Files.walk(dir)) {
                List<String> names = files.filter(Files::isRegularFile)
                        .map(f -> dir.relativize(f).toString().replace('\\', '/')).sorted().toList();
                assertEquals(List.copyOf(SHA256.keySet()), names, "the sample's files");
            }
        }
        for (Map.Entry<String, String> file : SHA256.entrySet()) {
            byte[] bytes = committed(file.getKey());
            ByteBuffer header = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals("BLITQUE\0", new String(bytes, 0, 8, StandardCharsets.US_ASCII), file.getKey());
            assertEquals(1, header.getInt(8), file.getKey() + ": the sample is of format version 1, whatever today's is");
            assertEquals(SEGMENT_SIZE, bytes.length, file.getKey());
            assertEquals(file.getValue(), sha256(bytes), file.getKey()
                    + ": the committed sample changed; it is written once, by format version 1, and never again");
        }
    }

    @Test
    void everyTypedMessageReadsBackInOrderWithTheAbandonedIndexSkipped() throws Exception {
        try (BlitQueue<SampleV1Message> queue = BlitQueue.open(typed, SampleV1Message.class);
             Tailer<SampleV1Message> tailer = queue.tailer()) {
            assertArrayEquals(TYPED_FIRSTS, queue.fileFirstIndices());
            assertEquals(TYPED_COUNT, queue.endIndex());
            SampleV1Message m = new SampleV1Message();
            List<Long> read = new ArrayList<>();
            while (tailer.readNext(m)) {
                long n = read.isEmpty() ? 0 : read.getLast() + 1;
                if (n == ABANDONED) {
                    n++;
                }
                assertEquals(new SampleV1Message().fillFor(n).values(), m.values(), "message " + n);
                assertEquals(n + 1, tailer.index(), "next index after " + n);
                read.add(n);
            }
            assertEquals(TYPED_COUNT - 1, read.size(), "every index but the abandoned one: " + read);
            assertFalse(read.contains((long) ABANDONED));
            assertEquals(TYPED_COUNT, tailer.index());
            assertFalse(tailer.next(m, WaitStrategy.BUSY_SPIN, TimeUnit.MILLISECONDS.toNanos(10)), "nothing after the end");
        }
        assertCopyUnchanged();
    }

    @Test
    void tailerFromGivesTheMessageOfThatIndex() throws Exception {
        long[] starts = {0, 1, 50, 84, 85, 86, 99, 101, 120, 169, 170, 171, 185, 199};
        try (BlitQueue<SampleV1Message> queue = BlitQueue.open(typed, SampleV1Message.class)) {
            SampleV1Message m = new SampleV1Message();
            for (long n : starts) {
                try (Tailer<SampleV1Message> tailer = queue.tailerFrom(n)) {
                    assertEquals(n, tailer.index());
                    assertTrue(tailer.readNext(m), "tailerFrom(" + n + ")");
                    assertEquals(new SampleV1Message().fillFor(n).values(), m.values(), "tailerFrom(" + n + ")");
                }
            }
            try (Tailer<SampleV1Message> tailer = queue.tailerFrom(ABANDONED)) {
                assertEquals(ABANDONED, tailer.index());
                assertTrue(tailer.readNext(m), "tailerFrom(abandoned index)");
                assertEquals(new SampleV1Message().fillFor(ABANDONED + 1).values(), m.values(),
                        "tailerFrom(abandoned index) reads the next message");
                assertEquals(ABANDONED + 2, tailer.index());
            }
            try (Tailer<SampleV1Message> tailer = queue.tailerFrom(TYPED_COUNT)) {
                assertFalse(tailer.readNext(m), "tailerFrom(end) has nothing to read");
                assertEquals(TYPED_COUNT, tailer.index());
            }
            assertThrows(IllegalArgumentException.class, () -> queue.tailerFrom(TYPED_COUNT + 1));
            assertThrows(IllegalArgumentException.class, () -> queue.tailerFrom(-1));
        }
        assertCopyUnchanged();
    }

    @Test
    void everyRawPayloadReadsBackByteForByte() throws Exception {
        try (BlitQueue<Void> queue = BlitQueue.openRaw(raw);
             Arena arena = Arena.ofConfined()) {
            assertArrayEquals(RAW_FIRSTS, queue.fileFirstIndices());
            assertEquals(RAW_COUNT, queue.endIndex());
            MemorySegment into = arena.allocate(FULL_LENGTH);
            try (Tailer<Void> tailer = queue.tailer()) {
                for (int n = 0; n < RAW_COUNT; n++) {
                    assertEquals(n, tailer.index());
                    assertPayload(n, tailer.readNextBytes(into), into);
                }
                assertEquals(-1, tailer.readNextBytes(into), "nothing after the end");
                assertEquals(RAW_COUNT, tailer.index());
            }
            for (int n : new int[] {0, 1, 23, 24, FULL_INDEX, 26, 30, RAW_COUNT - 1}) {
                try (Tailer<Void> tailer = queue.tailerFrom(n)) {
                    assertPayload(n, tailer.readNextBytes(into), into);
                }
            }
        }
        assertEquals(0, FormatSampleWriter.rawPayload(0).length, "an empty payload");
        assertEquals(FULL_LENGTH, FormatSampleWriter.rawPayload(FULL_INDEX).length, "a payload filling a file");
        assertCopyUnchanged();
    }

    @Test
    void theFileHeadersHoldWhatTheWriterWrote() throws Exception {
        LayoutDescriptor expected = new LayoutDescriptor(CLASS, 12, BLOCK_LENGTH, FIELDS, WRITER_JVM, FINGERPRINT);
        for (int f = 0; f < TYPED_FIRSTS.length; f++) {
            LayoutDescriptor recorded = assertHeader(typed, TYPED_FIRSTS[f], TYPED_CREATED[f], TYPED_HEADER_LENGTH);
            assertEquals(expected, recorded, "file " + TYPED_FIRSTS[f]);
            assertEquals(CLASS, recorded.className());
            assertEquals(FIELDS, recorded.fields());
        }
        for (int f = 0; f < RAW_FIRSTS.length; f++) {
            assertNull(assertHeader(raw, RAW_FIRSTS[f], RAW_CREATED[f], SegmentFormat.DESCRIPTOR_OFFSET),
                    "raw file " + RAW_FIRSTS[f] + " records no layout");
        }
        try (BlitQueue<SampleV1Message> queue = BlitQueue.open(typed, SampleV1Message.class)) {
            assertEquals("file 85 created " + java.time.Instant.ofEpochSecond(0, TYPED_CREATED[1]) + " by pid "
                    + CREATOR_PID + ", segment size " + SEGMENT_SIZE + ", messages " + CLASS,
                    SourceFiles.describe(SourceFiles.fileHeader(queue, 85)));
        }
    }

    @Test
    void theRecordWordsAreTheWritersPaddingAbandonedAndFullFiles() throws Exception {
        long committedEmpty = RecordHeader.committed(RecordHeader.claimed(CREATOR_PID, 0));
        long padding = RecordHeader.padding(CREATOR_PID);
        long block = RecordHeader.committed(RecordHeader.claimed(CREATOR_PID, BLOCK_LENGTH));
        long recordsEnd = SegmentFormat.RECORDS_START + (long) TYPED_PER_FILE * TYPED_RECORD;
        for (long first : new long[] {0, 85}) {
            byte[] file = Files.readAllBytes(SegmentFiles.path(typed, first));
            for (int k = 0; k < TYPED_PER_FILE; k++) {
                long word = word(file, SegmentFormat.RECORDS_START + (long) k * TYPED_RECORD);
                assertEquals(first + k == ABANDONED ? RecordHeader.abandoned(RecordHeader.claimed(CREATOR_PID, BLOCK_LENGTH))
                        : block, word, "record " + (first + k) + ": " + RecordHeader.describe(word));
            }
            assertEquals(padding, word(file, recordsEnd), "file " + first + " ends with a padding word");
            assertTrue(RecordHeader.isPadding(padding) && RecordHeader.length(padding) == 0);
            assertEquals(0, word(file, recordsEnd + 8), "nothing after the padding word");
        }
        byte[] second = Files.readAllBytes(SegmentFiles.path(typed, 85));
        long abandonedAt = SegmentFormat.RECORDS_START + (long) (ABANDONED - 85) * TYPED_RECORD;
        assertEquals(RecordHeader.STATE_ABANDONED, RecordHeader.state(word(second, abandonedAt)));
        assertTrue(Arrays.equals(new byte[BLOCK_LENGTH], Arrays.copyOfRange(second, (int) abandonedAt + 8,
                (int) abandonedAt + 8 + BLOCK_LENGTH)), "the abandoned claim's payload was never written");
        byte[] last = Files.readAllBytes(SegmentFiles.path(typed, 170));
        assertEquals(block, word(last, SegmentFormat.RECORDS_START + 29L * TYPED_RECORD), "message 199");
        assertEquals(0, word(last, SegmentFormat.RECORDS_START + 30L * TYPED_RECORD), "the end of the queue");

        byte[] rawFirst = Files.readAllBytes(SegmentFiles.path(raw, 0));
        assertEquals(committedEmpty, word(rawFirst, SegmentFormat.RECORDS_START), "message 0: an empty payload");
        assertFalse(RecordHeader.isPadding(committedEmpty));
        byte[] full = Files.readAllBytes(SegmentFiles.path(raw, FULL_INDEX));
        assertEquals(RecordHeader.committed(RecordHeader.claimed(CREATOR_PID, FULL_LENGTH)),
                word(full, SegmentFormat.RECORDS_START), "one record filling the file, no padding word");
        assertEquals(SEGMENT_SIZE, SegmentFormat.RECORDS_START + RecordHeader.recordLength(FULL_LENGTH));
        byte[] single = Files.readAllBytes(SegmentFiles.path(raw, 24));
        long after24 = SegmentFormat.RECORDS_START + RecordHeader.recordLength(FormatSampleWriter.rawPayload(24).length);
        assertEquals(padding, word(single, after24), "file 24: message 24, then padding (message 25 did not fit)");
    }

    @Test
    void theRecordedLayoutIsTodaysInTheDefaultModeAndTranslatedInOthers() throws Exception {
        LayoutDescriptor recorded = SegmentFiles.readHeader(typed, 0).descriptor();
        LayoutDescriptor today = LayoutDescriptor.of(LayoutVerifier.verify(SampleV1Message.class));
        LayoutComparison comparison = recorded.compatibility(today);
        if (JvmFacts.current().headerMode().equals(WRITER_JVM.headerMode())) {
            assertTrue(comparison.identical(), comparison.report());
            assertEquals(recorded.fields(), today.fields(), "same fields at the same offsets");
            assertEquals(recorded.start(), today.start());
            assertEquals(recorded.length(), today.length());
            QueueOptions strict = QueueOptions.defaults().layoutPolicy(LayoutPolicy.STRICT);
            try (BlitQueue<SampleV1Message> queue = BlitQueue.open(typed, SampleV1Message.class, strict);
                 Tailer<SampleV1Message> tailer = queue.tailer()) {
                assertEquals(today, queue.descriptor());
                SampleV1Message m = new SampleV1Message();
                int n = 0;
                while (tailer.readNext(m)) {
                    n++;
                }
                assertEquals(TYPED_COUNT - 1, n, "STRICT reads the sample in the mode it was written in");
            }
        } else {
            // A JVM in another header mode: the layout differs, STRICT refuses, TRANSLATE (the other tests) reads.
            assertFalse(comparison.identical(), comparison.report());
            QueueOptions strict = QueueOptions.defaults().layoutPolicy(LayoutPolicy.STRICT);
            assertThrows(LayoutMismatchException.class, () -> BlitQueue.open(typed, SampleV1Message.class, strict));
        }
        assertCopyUnchanged();
    }

    /** The sample read by a JVM with compact object headers, where the class's fields sit elsewhere. */
    @Test
    void aJvmWithCompactHeadersTranslatesTheSampleAndRefusesItWhenStrict() throws Exception {
        List<String> out = runReader("-XX:+UseCompactObjectHeaders", "STRICT", "TRANSLATE");
        assertEquals(List.of("compact-headers"), lines(out, "MODE "), String.join("\n", out));
        int strict = out.indexOf("POLICY STRICT");
        int translate = out.indexOf("POLICY TRANSLATE");
        assertTrue(strict >= 0 && translate > strict, String.join("\n", out));
        List<String> strictPart = out.subList(strict, translate);
        assertEquals(List.of(LayoutMismatchException.class.getName()), lines(strictPart, "EXCEPTION "),
                String.join("\n", out));
        assertTrue(lines(strictPart, "VALUE ").isEmpty(), "no value read under STRICT");
        List<String> translatePart = out.subList(translate, out.size());
        assertTrue(lines(translatePart, "EXCEPTION ").isEmpty(), String.join("\n", out));
        List<String> expected = new ArrayList<>();
        for (int n = 0; n < TYPED_COUNT; n++) {
            if (n != ABANDONED) {
                expected.add(new SampleV1Message().fillFor(n).values());
            }
        }
        List<String> values = lines(translatePart, "VALUE ");
        assertEquals(expected.size(), values.size(), String.join("\n", out));
        for (int k = 0; k < expected.size(); k++) {
            assertEquals(expected.get(k), values.get(k), "message " + k + " of the queue, translated");
        }
        assertTrue(translatePart.contains("read " + (TYPED_COUNT - 1)), String.join("\n", out));
        assertCopyUnchanged();
    }

    // ---------------------------------------------------------------------------------------------------------------

    /** Checks the header of the copy's file {@code first} from its bytes and with today's decoder; its descriptor. */
    private static LayoutDescriptor assertHeader(Path dir, long first, long created, int headerLength) throws IOException {
        byte[] bytes = Files.readAllBytes(SegmentFiles.path(dir, first));
        String name = dir.getFileName() + " file " + first;
        ByteBuffer h = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals("BLITQUE\0", new String(bytes, 0, 8, StandardCharsets.US_ASCII), name);
        assertEquals(1, h.getInt(8), name + ": format version");
        assertEquals(headerLength, h.getInt(12), name + ": header length");
        assertEquals(SEGMENT_SIZE, h.getLong(16), name + ": segment size");
        assertEquals(first, h.getLong(24), name + ": first index");
        assertEquals(created, h.getLong(32), name + ": created");
        assertEquals(CREATOR_PID, h.getLong(40), name + ": creator pid");
        assertEquals(headerLength - 56, h.getInt(48), name + ": descriptor length");
        assertEquals(0, h.getInt(52), name + ": reserved");
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, headerLength);
        assertEquals((int) crc.getValue(), h.getInt(headerLength), name + ": CRC32C");
        for (int k = headerLength + 4; k < SegmentFormat.RECORDS_START; k++) {
            assertEquals(0, bytes[k], name + ": zeros after the header and no checkpoint (fewer than 4096 records)");
        }
        LayoutDescriptor fromBytes = headerLength == 56 ? null
                : LayoutDescriptor.decode(MemorySegment.ofArray(bytes).asSlice(0, headerLength), 56);

        SegmentHeader.Info info = SegmentFiles.readHeader(dir, first);
        assertEquals(SEGMENT_SIZE, info.segmentSize(), name);
        assertEquals(first, info.firstIndex(), name);
        assertEquals(created, info.createdNanos(), name);
        assertEquals(CREATOR_PID, info.creatorPid(), name);
        assertEquals(fromBytes, info.descriptor(), name);
        return fromBytes;
    }

    private static void assertPayload(int n, long length, MemorySegment into) {
        byte[] expected = FormatSampleWriter.rawPayload(n);
        assertEquals(expected.length, length, "payload length of message " + n);
        assertArrayEquals(expected, into.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE), "payload of message " + n);
    }

    /** Reading wrote nothing: the copy holds the committed bytes and no other file. */
    private void assertCopyUnchanged() throws IOException {
        Map<String, String> digests = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(temp)) {
            for (Path file : files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().startsWith("child-"))
                    .sorted().toList()) {
                digests.put(temp.relativize(file).toString().replace('\\', '/'), sha256(Files.readAllBytes(file)));
            }
        }
        assertEquals(SHA256, new TreeMap<>(digests), "reading the sample changed no byte and created no file");
    }

    /** Record words are native-order; the sample was written on a little-endian machine (its descriptor says so). */
    private static long word(byte[] file, long position) {
        return ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).getLong((int) position);
    }

    private static byte[] committed(String name) throws IOException {
        try (InputStream in = FormatSampleTest.class.getClassLoader().getResourceAsStream(ROOT + "/" + name)) {
            assertNotNull(in, "sample file " + name + " on the test class path");
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

    private List<String> runReader(String headerFlag, String... policies) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                headerFlag));
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--sun-misc-unsafe-memory-access=")).forEach(cmd::add);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), FormatSampleReader.class.getName(),
                typed.toString()));
        cmd.addAll(List.of(policies));
        Path out = temp.resolve("child-" + headerFlag.replaceAll("[^A-Za-z]", "") + ".out");
        Process child = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!child.waitFor(60, TimeUnit.SECONDS)) {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            fail("child " + cmd + " timed out:\n" + Files.readString(out, StandardCharsets.UTF_8));
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(0, child.exitValue(), "child " + cmd + ":\n" + output);
        return output.lines().toList();
    }

    private static List<String> lines(List<String> output, String prefix) {
        return output.stream().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length())).toList();
    }
}
