package io.blit.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.shapes.Shapes;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DescriptorEncodingTest {
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    static Stream<Named<LayoutDescriptor>> descriptors() {
        return Stream.concat(Stream.of(LayoutDescriptorTest.handBuilt()), Shapes.ALL.stream().map(c -> LayoutVerifier.verify(c).descriptor()))
                .map(d -> Named.of(d.className().substring(d.className().lastIndexOf('.') + 1), d));
    }

    static byte[] encode(LayoutDescriptor descriptor) {
        byte[] bytes = new byte[descriptor.encodedSize()];
        descriptor.encodeTo(MemorySegment.ofArray(bytes), 0);
        return bytes;
    }

    /** Decodes, failing the test on any exception but the documented one, whose message must name a byte offset. */
    static LayoutDescriptor decodeOrNull(byte[] bytes, String what) {
        try {
            return LayoutDescriptor.decode(MemorySegment.ofArray(bytes), 0);
        } catch (CorruptDescriptorException e) {
            assertTrue(e.getMessage().contains("at byte " + e.offset() + ":"), what + ": " + e.getMessage());
            assertTrue(e.offset() >= 0 && e.offset() <= bytes.length, what + ": " + e.getMessage());
            return null;
        } catch (RuntimeException e) {
            throw new AssertionError(what + ": undocumented exception " + e, e);
        }
    }

    @Test
    void headerIsLittleEndianWithMagicVersionCountAndSize() {
        LayoutDescriptor descriptor = LayoutDescriptorTest.handBuilt();
        byte[] bytes = encode(descriptor);
        assertArrayEquals(new byte[] {'B', 'L', 'Y', 'D', 1, 0, 4, 0}, Arrays.copyOf(bytes, 8));
        assertEquals(bytes.length, MemorySegment.ofArray(bytes).get(LE_INT, 8));
        assertEquals(12, MemorySegment.ofArray(bytes).get(LE_INT, 12));
        assertEquals(22, MemorySegment.ofArray(bytes).get(LE_INT, 16));
    }

    @Test
    void byteOrderIsFlagBitTwoAndRoundTrips() {
        LayoutDescriptor little = LayoutDescriptorTest.handBuilt();
        JvmFacts l = little.jvm();
        JvmFacts bigFacts = new JvmFacts(l.objectHeaderSize(), l.compactObjectHeaders(), l.compressedClassPointers(),
                l.objectAlignment(), l.vmName(), l.vmVersion(), ByteOrder.BIG_ENDIAN);
        LayoutDescriptor big = new LayoutDescriptor(little.className(), little.start(), little.length(), little.fields(),
                bigFacts, little.fingerprint());
        byte[] bigBytes = encode(big);
        byte[] littleBytes = encode(new LayoutDescriptor(little.className(), little.start(), little.length(), little.fields(),
                new JvmFacts(l.objectHeaderSize(), l.compactObjectHeaders(), l.compressedClassPointers(),
                        l.objectAlignment(), l.vmName(), l.vmVersion(), ByteOrder.LITTLE_ENDIAN), little.fingerprint()));
        assertEquals(4, bigBytes[28] & 4, "bit 2 set for big-endian");
        assertEquals(0, littleBytes[28] & 4, "bit 2 clear for little-endian, as in files written before the bit existed");
        assertEquals(ByteOrder.BIG_ENDIAN, decodeOrNull(bigBytes, "big-endian").jvm().byteOrder());
        assertEquals(ByteOrder.LITTLE_ENDIAN, decodeOrNull(littleBytes, "little-endian").jvm().byteOrder());
        assertEquals(big, decodeOrNull(bigBytes, "big-endian"));
        byte[] unknownFlag = littleBytes.clone();
        unknownFlag[28] |= 8;
        reseal(unknownFlag, unknownFlag.length);
        assertRejected(unknownFlag, 28, "unknown flag bits");
    }

    @Test
    void roundTripsThroughAHeapSegmentOfLongsAtAnUnalignedOffset() {
        LayoutDescriptor descriptor = LayoutVerifier.verify(Shapes.HoleyThree.class).descriptor();
        MemorySegment longs = MemorySegment.ofArray(new long[(descriptor.encodedSize() + 16) / 8 + 1]);
        descriptor.encodeTo(longs, 3);
        assertEquals(descriptor, LayoutDescriptor.decode(longs, 3));
    }

    @ParameterizedTest
    @MethodSource("descriptors")
    void everySingleByteCorruptionIsRejectedNamingAnOffset(LayoutDescriptor descriptor) {
        byte[] original = encode(descriptor);
        for (int mask : new int[] {0x01, 0x80, 0xFF}) {
            for (int i = 0; i < original.length; i++) {
                byte[] corrupted = original.clone();
                corrupted[i] ^= (byte) mask;
                // CRC32C detects every error burst up to 32 bits, so no single-byte change can pass.
                assertEquals(null, decodeOrNull(corrupted, "byte " + i + " ^ " + mask), "byte " + i + " ^ " + mask + " accepted");
            }
        }
    }

    /**
     * With the checksum recomputed after the change, as a buggy or hostile writer would, the value
     * checks must still hold: each change is rejected or decodes to a valid descriptor that differs
     * from the original (a changed class, JVM or declaring-class name: bytes the fingerprint does not
     * cover); no change decodes to the original, and nothing throws but the documented exception.
     */
    @ParameterizedTest
    @MethodSource("descriptors")
    void corruptionWithARecomputedChecksumIsRejectedOrDecodesToADifferentDescriptor(LayoutDescriptor descriptor) {
        byte[] original = encode(descriptor);
        int rejected = 0;
        List<String> accepted = new ArrayList<>();
        for (int i = 0; i < original.length - 4; i++) {
            byte[] corrupted = original.clone();
            corrupted[i] ^= (byte) 0x01;
            reseal(corrupted, original.length);
            LayoutDescriptor decoded = decodeOrNull(corrupted, "resealed byte " + i);
            if (decoded == null) {
                rejected++;
            } else {
                assertNotEquals(descriptor, decoded, "byte " + i);
                assertEquals(descriptor.fingerprint(), decoded.fingerprint(),
                        "byte " + i + ": a change the fingerprint covers must be rejected by the fingerprint check");
                accepted.add(i + ":" + decoded.className());
            }
        }
        assertTrue(rejected > 0, "nothing rejected");
    }

    @Test
    void resealedFlipsOfFieldNamesTypesAndOffsetsAreAllRejected() {
        LayoutDescriptor descriptor = LayoutDescriptorTest.handBuilt();
        byte[] original = encode(descriptor);
        int namesEnd = 37 + 3 * 2 + descriptor.className().length() + descriptor.jvm().vmName().length() + descriptor.jvm().vmVersion().length();
        int checked = 0;
        for (int i = 12; i < original.length - 4; i++) {
            boolean declaringClassByte = false;
            int at = namesEnd;
            for (FieldDescriptor f : descriptor.fields()) {
                int classStart = at + 2 + f.name().length() + 2;
                declaringClassByte |= i >= classStart && i < classStart + f.declaringClassName().length();
                at = classStart + f.declaringClassName().length() + 5;
            }
            boolean vmOrClassName = i >= 37 && i < namesEnd;
            if (i >= 20 && i < 29 || declaringClassByte || vmOrClassName) {
                continue; // JVM facts and names: not covered by the fingerprint, see the test above
            }
            byte[] corrupted = original.clone();
            corrupted[i] ^= (byte) 0x04;
            reseal(corrupted, original.length);
            assertEquals(null, decodeOrNull(corrupted, "byte " + i), "byte " + i + " accepted");
            checked++;
        }
        assertTrue(checked > 30, "checked " + checked);
    }

    @ParameterizedTest
    @MethodSource("descriptors")
    void truncationAtEveryLengthIsRejected(LayoutDescriptor descriptor) {
        byte[] original = encode(descriptor);
        for (int length = 0; length < original.length; length++) {
            byte[] truncated = Arrays.copyOf(original, length);
            assertEquals(null, decodeOrNull(truncated, "truncated to " + length));
            int n = length;
            assertThrows(CorruptDescriptorException.class, () -> LayoutDescriptor.encodedSizeAt(MemorySegment.ofArray(truncated), 0), "length " + n);
        }
    }

    @Test
    void foreignBuffersAreRejected() {
        List<byte[]> foreign = new ArrayList<>();
        foreign.add(new byte[4096]);
        foreign.add("hello, this is not a layout descriptor at all".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Random random = new Random(42);
        for (int i = 0; i < 200; i++) {
            byte[] bytes = new byte[1 + random.nextInt(600)];
            random.nextBytes(bytes);
            foreign.add(bytes);
            if (bytes.length >= 12) {
                byte[] withHeader = bytes.clone();
                System.arraycopy(new byte[] {'B', 'L', 'Y', 'D', 1, 0}, 0, withHeader, 0, 6);
                MemorySegment.ofArray(withHeader).set(LE_INT, 8, withHeader.length);
                foreign.add(withHeader.clone());
                reseal(withHeader, withHeader.length);
                foreign.add(withHeader);
            }
        }
        for (byte[] bytes : foreign) {
            assertEquals(null, decodeOrNull(bytes, "foreign " + bytes.length + " bytes"));
        }
    }

    @Test
    void rejectionMessagesSayWhatWasWrong() {
        byte[] bytes = encode(LayoutDescriptorTest.handBuilt());
        byte[] badMagic = bytes.clone();
        badMagic[0] = 'X';
        assertRejected(badMagic, 0, "magic");
        byte[] newVersion = bytes.clone();
        newVersion[4] = 2;
        assertRejected(newVersion, 4, "version 2");
        byte[] flipped = bytes.clone();
        flipped[40] ^= 1;
        assertRejected(flipped, bytes.length - 4, "checksum");
        assertRejected(Arrays.copyOf(bytes, bytes.length - 1), 8, "truncated");
        byte[] badType = bytes.clone();
        badType[bytes.length - 9] = 9;
        reseal(badType, bytes.length);
        assertRejected(badType, bytes.length - 9, "type code 9");
    }

    @Test
    void encodingChecksBoundsReadOnlyAndFormatLimits() {
        LayoutDescriptor descriptor = LayoutDescriptorTest.handBuilt();
        MemorySegment small = MemorySegment.ofArray(new byte[descriptor.encodedSize() - 1]);
        assertThrows(IndexOutOfBoundsException.class, () -> descriptor.encodeTo(small, 0));
        MemorySegment exact = MemorySegment.ofArray(new byte[descriptor.encodedSize()]);
        assertThrows(IndexOutOfBoundsException.class, () -> descriptor.encodeTo(exact, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> descriptor.encodeTo(exact, -1));
        assertThrows(IllegalArgumentException.class, () -> descriptor.encodeTo(exact.asReadOnly(), 0));
        assertThrows(IndexOutOfBoundsException.class, () -> LayoutDescriptor.decode(exact, -1));
        assertThrows(IndexOutOfBoundsException.class, () -> LayoutDescriptor.decode(exact, exact.byteSize() + 1));

        LayoutDescriptor longName = LayoutDescriptor.of(LayoutDescriptorTest.HOST,
                List.of(LayoutDescriptorTest.field("x".repeat(1025), FieldType.INT, 12)), LayoutDescriptorTest.FACTS);
        LayoutDescriptorTest.assertMessage(longName::encodedSize, "1025 bytes", "1024");
        LayoutDescriptor longest = LayoutDescriptor.of(LayoutDescriptorTest.HOST,
                List.of(LayoutDescriptorTest.field("é".repeat(512), FieldType.INT, 12)), LayoutDescriptorTest.FACTS);
        assertEquals(longest, decodeOrNull(encode(longest), "1024-byte name"));

        List<FieldDescriptor> many = new ArrayList<>();
        for (int i = 0; i < 65536; i++) {
            many.add(LayoutDescriptorTest.field("f" + i, FieldType.BYTE, 12 + i));
        }
        LayoutDescriptor tooMany = LayoutDescriptor.of(LayoutDescriptorTest.HOST, many, LayoutDescriptorTest.FACTS);
        LayoutDescriptorTest.assertMessage(tooMany::encodedSize, "65536 fields", "65535");
        LayoutDescriptor most = LayoutDescriptor.of(LayoutDescriptorTest.HOST, many.subList(0, 65535), LayoutDescriptorTest.FACTS);
        assertEquals(most, decodeOrNull(encode(most), "65535 fields"));
    }

    @Test
    void aFieldCountLargerThanTheBytesCanHoldAllocatesNothingForIt() {
        byte[] bytes = encode(LayoutDescriptorTest.handBuilt());
        MemorySegment.ofArray(bytes).set(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 6, (short) -1);
        reseal(bytes, bytes.length); // 65535 fields announced in a few dozen bytes
        byte[] few = bytes.clone(); // the same failure with a count the bytes can hold: loads and links its path once
        MemorySegment.ofArray(few).set(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 6, (short) 5);
        reseal(few, few.length);
        assertRejected(few, few.length - 4, "truncated");
        long before = allocated();
        assertRejected(bytes, bytes.length - 4, "truncated"); // the fields run into the checksum
        long allocated = allocated() - before;
        assertTrue(allocated < 64 << 10, "allocated " + allocated + " bytes for a " + bytes.length + "-byte descriptor");
    }

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                .getCurrentThreadAllocatedBytes();
    }

    private static void assertRejected(byte[] bytes, long offset, String problem) {
        CorruptDescriptorException e = assertThrows(CorruptDescriptorException.class, () -> LayoutDescriptor.decode(MemorySegment.ofArray(bytes), 0));
        assertEquals(offset, e.offset(), e.getMessage());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
    }

    /** Recomputes the CRC32C over {@code [0, size - 4)} and stores it at {@code size - 4}. */
    private static void reseal(byte[] bytes, int size) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, size - 4);
        MemorySegment.ofArray(bytes).set(LE_INT, size - 4, (int) crc.getValue());
    }
}
