package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.replica.QueueVerifier;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The golden file of format 5 (record checksums): the committed sample {@code format-v5}
 * ({@link FormatSampleDirWriter} with {@code checksums}) holds what docs/format.md says, checked from the bytes alone
 * (the header's version and features, the record walk, every record's body layout and CRC32C as the specification
 * defines its input), read back with the public API, and verified clean by {@code blit check}'s verifier. Each file is
 * pinned by its SHA-256: the sample is written once and never again.
 */
class FormatV5SampleTest {
    private static final List<String> SHA256 = List.of(
            "raw/fence.blitf", "99128916852d1eb44128b87fb0c8b83ff7c5f67ea1e1f44b768bcc0a187ec4af",
            "raw/segment-00000000000000000000.blitq", "81390350c5571fd2f4010c3e93a4588817709645b4a852208b9343a616297a6e",
            "raw/segment-00000000000000000022.blitq", "8249ce0ffef1114d400d7b0f78d6d4c8813bcc8074ff9b316eadb187478303ea",
            "raw/segment-00000000000000000025.blitq", "07306f7449d074ee5c35b4dd149444001edca55e8ed8be80da8deb9303a47375",
            "raw/segment-00000000000000000026.blitq", "a550910c792e642ae2b5bcf157fff38ed1bbd7501bd59fccfebfe00b721ea60a",
            "raw/terms.blitt", "f468aa142273f29ed533942a81288b673218b003873096c52ff3225e1a6a77fa",
            "raw/writers.blitw", "a945a8ba565baa875e3303e2187d56b77febd2b80112e59dd4b53d7bb2f0f06b",
            "typed/consumers.blitc", "aaedd7d8143db8ae4b338a07ef4d03e071ba316d1edb7c18f3e7c9091936d5e9",
            "typed/fence.blitf", "99128916852d1eb44128b87fb0c8b83ff7c5f67ea1e1f44b768bcc0a187ec4af",
            "typed/segment-00000000000000000000.blitq", "61e45a4681dbb6f04fab4604932694450e2cc32f72203d2dd7b779fa0b8d0914",
            "typed/segment-00000000000000000031.blitq", "b771983d35ebad8f5da9aae3872eca0df93778c434ba23e7f76641e1accf95f5",
            "typed/segment-00000000000000000062.blitq", "38d38893e924d1e3c5e8edc913461d1863b23b5e5f55beeaa74943fbcd43b313",
            "typed/segment-00000000000000000093.blitq", "907df7effdcdbf7fca568834ae790fae299e3ec1ba17827179fb738cf37b78dd",
            "typed/terms.blitt", "db97bf0b40c75bb8a79e86994cc9277d541105aaebfa751fb227b8d0a077a970",
            "typed/writers.blitw", "192b12a354c549c9aed922eb7184b376b61ce3ff2c96c217643a0c7b564c80be");
    private static final long[] TYPED_FIRSTS = {0, 31, 62, 93};
    private static final long[] RAW_FIRSTS = {0, 22, 25, 26};
    private static final int RECORDS_START = 8192;

    @TempDir
    Path temp;

    @Test
    void theCommittedFilesAreTheSampleAsWritten() throws IOException {
        for (int k = 0; k < SHA256.size(); k += 2) {
            assertEquals(SHA256.get(k + 1), sha256(committed(SHA256.get(k))), "format-v5/" + SHA256.get(k)
                    + " changed: a sample is written once, by the build of its format, and never again");
        }
    }

    @Test
    void theRecordWalkOfTheSpecificationFindsEveryRecordWithItsChecksum() throws IOException {
        List<long[]> typed = walk("typed", TYPED_FIRSTS);
        assertEquals(FormatSampleDirWriter.COUNT, typed.size());
        for (int n = 0; n < typed.size(); n++) {
            assertEquals(n % 3 == 2 ? 1 : 0, typed.get(n)[1], "type slot of message " + n);
            assertEquals(FormatV2SampleWriter.timeOf(n), typed.get(n)[2], "time of message " + n);
            if (n % 3 != 2) {
                assertEquals(16 + 144, typed.get(n)[3], "a MarketData record's length: time, CRC, reserved, 144 bytes");
            }
        }
        List<long[]> raw = walk("raw", RAW_FIRSTS);
        assertEquals(FormatSampleWriter.RAW_COUNT, raw.size());
        for (int n = 0; n < raw.size(); n++) {
            byte[] expected = FormatSampleDirWriter.rawPayload(n, true);
            assertEquals(expected.length + 16, raw.get(n)[3], "length field of " + n);
            byte[] file = committed("raw/segment-%020d.blitq".formatted(raw.get(n)[4]));
            int at = (int) raw.get(n)[5] + 24;
            assertArrayEquals(expected, Arrays.copyOfRange(file, at, at + expected.length), "payload of " + n);
        }
        assertEquals(4096, 8 + raw.get(FormatSampleWriter.FULL_INDEX)[3], "message 25 fills file 25 exactly");
    }

    @Test
    void thePublicApiReadsTheSampleAndTheVerifierFindsNothing() throws IOException {
        Path typed = copy("typed");
        List<Long> indices = new ArrayList<>();
        try (BlitQueue<Object> queue = BlitQueue.open(typed, TypedQueueTest.TWO); Tailer<Object> tailer = queue.tailer()) {
            assertArrayEquals(TYPED_FIRSTS, queue.fileFirstIndices());
            while (tailer.read((index, message) -> {
                assertTrue(TypedQueueTest.isMessage(message, index), "message " + index);
                indices.add(index);
            })) {
                assertEquals(FormatV2SampleWriter.timeOf(indices.getLast()), tailer.lastTimeNanos());
            }
        }
        assertEquals(FormatSampleDirWriter.COUNT, indices.size());
        assertEquals(List.of(), QueueVerifier.verify(typed));
        Path rawDir = copy("raw");
        try (BlitQueue<Void> raw = BlitQueue.openRaw(rawDir); Tailer<Void> tailer = raw.tailer()) {
            MemorySegment into = MemorySegment.ofArray(new byte[4096]);
            for (int n = 0; n < FormatSampleWriter.RAW_COUNT; n++) {
                byte[] expected = FormatSampleDirWriter.rawPayload(n, true);
                assertEquals(expected.length, tailer.readNextBytes(into), "message " + n);
                assertArrayEquals(expected, into.asSlice(0, expected.length).toArray(ValueLayout.JAVA_BYTE));
            }
            assertEquals(-1, tailer.readNextBytes(into));
        }
        assertEquals(List.of(), QueueVerifier.verify(rawDir));
    }

    /**
     * The record walk of docs/format.md over one queue's files, every header checked as format 5 and every record's
     * CRC32C recomputed from its bytes: per message {index, type slot, time, length, file's first index, position}.
     */
    private static List<long[]> walk(String queue, long[] firsts) throws IOException {
        List<long[]> messages = new ArrayList<>();
        for (int f = 0; f < firsts.length; f++) {
            byte[] file = committed(queue + "/segment-%020d.blitq".formatted(firsts[f]));
            ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(5, b.getInt(8), "format version");
            assertEquals(1, b.getInt(56), "byte order: little-endian");
            assertEquals(1, b.getLong(64), "compatible features: bit 0, the file's term");
            assertEquals(0, b.getLong(72), "incompatible features: none (format 5 is the record checksums)");
            int headerLength = b.getInt(12);
            assertEquals(crc(file, 0, headerLength), b.getInt(headerLength), "header CRC");
            assertEquals(firsts[f], messages.size(), "a file's first index is the index of its first record");
            int position = RECORDS_START;
            while (position < file.length) {
                long word = b.getLong(position);
                if (word == 0) {
                    assertEquals(firsts.length - 1, f, "only the last file ends with an empty word");
                    break;
                }
                assertEquals(2, word >>> 62, "every record of the sample is committed");
                if ((word & (1L << 61)) != 0) {
                    assertTrue(f < firsts.length - 1, "padding: continue in the next file");
                    break;
                }
                int length = (int) (word & 0xFFFF_FFFFL);
                assertTrue(length >= 16, "a committed record holds time, CRC and reserved word");
                assertEquals(0, b.getInt(position + 20), "reserved word");
                CRC32C crc = new CRC32C();
                crc.update(file, position, 16); // the word as committed and the time
                crc.update(file, position + 20, length - 12); // the reserved word and the payload
                assertEquals((int) crc.getValue(), b.getInt(position + 16), "CRC32C of message " + messages.size());
                messages.add(new long[] {messages.size(), (word >>> 54) & 0x7F, b.getLong(position + 8), length,
                    firsts[f], position});
                position += (8 + length + 7) & ~7;
            }
        }
        return messages;
    }

    private Path copy(String queue) throws IOException {
        Path dir = temp.resolve(queue);
        Files.createDirectories(dir);
        for (int k = 0; k < SHA256.size(); k += 2) {
            if (SHA256.get(k).startsWith(queue + "/")) {
                Files.write(dir.resolve(SHA256.get(k).substring(queue.length() + 1)), committed(SHA256.get(k)));
            }
        }
        return dir;
    }

    private static int crc(byte[] bytes, int from, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, from, length);
        return (int) crc.getValue();
    }

    private static byte[] committed(String name) throws IOException {
        try (InputStream in = FormatV5SampleTest.class.getClassLoader().getResourceAsStream("format-v5/" + name)) {
            assertNotNull(in, "sample file format-v5/" + name + " on the test class path");
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
