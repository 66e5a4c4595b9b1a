package io.blit.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.testkit.Descriptors;
import io.blit.layout.testkit.Mutation;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.zip.CRC32C;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Fuzz properties of {@link LayoutDescriptor#decode} and {@link LayoutDescriptor#encodedSizeAt} (docs/fuzzing.md): for
 * any bytes, random or a valid encoding edited (with its CRC made right again, so that the edit reaches the checks
 * behind it), they return a descriptor that encodes back to exactly those bytes, or throw
 * {@link CorruptDescriptorException} naming an offset inside the bytes; never another exception, and never an
 * allocation beyond a small multiple of the input plus 512 KiB (a count or length field of 2^31 - 1 allocates nothing;
 * DescriptorEncodingTest bounds the field count's allocation tighter). Valid descriptors round-trip.
 */
class DescriptorDecodeFuzzTest {
    /** Offsets of the encoding's integers: count, size, start, length, header, alignment, flags, first strings. */
    private static final int[] FIELDS = {4, 6, 8, 12, 16, 20, 24, 28, 37, 39, 41, 45};

    /**
     * Runs the decoder's paths once before the allocation is measured: the first failure of each kind loads classes
     * and links its message's string concatenation, which allocates hundreds of KiB once per JVM.
     */
    @BeforeContainer
    static void warmUp() {
        java.util.Random random = new java.util.Random(1);
        LayoutDescriptor descriptor = Descriptors.any().sample();
        byte[] valid = new byte[descriptor.encodedSize()];
        descriptor.encodeTo(MemorySegment.ofArray(valid), 0);
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes = valid.clone();
            bytes[random.nextInt(Math.min(64, bytes.length))] ^= (byte) (1 + random.nextInt(255));
            if (i % 2 == 0) {
                fixCrc(bytes, 0);
            }
            try {
                LayoutDescriptor.decode(MemorySegment.ofArray(bytes), 0);
            } catch (CorruptDescriptorException expected) {
                // the point is to have run it
            }
        }
    }

    @Property
    void anyBytesDecodeExactlyOrAreCorrupt(@ForAll @Size(max = 3000) byte[] bytes, @ForAll @IntRange(max = 16) int at) {
        checkDecode(bytes, Math.min(at, bytes.length));
    }

    @Property
    void editedEncodingsDecodeExactlyOrAreCorrupt(@ForAll("descriptors") LayoutDescriptor descriptor,
                                                  @ForAll("edits") List<Mutation> edits, @ForAll boolean fixCrc,
                                                  @ForAll @IntRange(max = 16) int at) {
        byte[] valid = new byte[at + descriptor.encodedSize()];
        descriptor.encodeTo(MemorySegment.ofArray(valid), at);
        byte[] shifted = Mutation.applyAll(edits.stream().map(m -> new Mutation(m.kind(), m.at() + at, m.value()))
                .toList(), valid, ByteOrder.LITTLE_ENDIAN);
        if (fixCrc) {
            fixCrc(shifted, at);
        }
        checkDecode(shifted, Math.min(at, shifted.length));
    }

    @Property
    void validDescriptorsRoundTrip(@ForAll("descriptors") LayoutDescriptor descriptor, @ForAll @IntRange(max = 16) int at) {
        byte[] bytes = new byte[at + descriptor.encodedSize() + 3];
        descriptor.encodeTo(MemorySegment.ofArray(bytes), at);
        assertEquals(descriptor.encodedSize(), LayoutDescriptor.encodedSizeAt(MemorySegment.ofArray(bytes), at));
        assertEquals(descriptor, LayoutDescriptor.decode(MemorySegment.ofArray(bytes), at));
    }

    /** Decodes at {@code at}: a descriptor whose encoding is exactly the bytes there, or the documented exception. */
    private static void checkDecode(byte[] bytes, int at) {
        MemorySegment segment = MemorySegment.ofArray(bytes);
        long before = Mutation.allocatedByThisThread();
        LayoutDescriptor decoded = null;
        try {
            int size = LayoutDescriptor.encodedSizeAt(segment, at);
            assertTrue(size > 0 && size <= bytes.length - at, "size " + size);
            decoded = LayoutDescriptor.decode(segment, at);
        } catch (CorruptDescriptorException e) {
            assertTrue(e.offset() >= at && e.offset() <= bytes.length, e.getMessage());
            assertTrue(e.getMessage().contains("at byte " + e.offset() + ":"), e.getMessage());
        }
        long allocated = Mutation.allocatedByThisThread() - before;
        // generous: a first failure of a kind loads classes and links its message's concatenation (tens of KiB)
        assertTrue(allocated < (512 << 10) + 64L * bytes.length, "allocated " + allocated + " bytes for " + bytes.length);
        if (decoded != null) {
            byte[] again = new byte[decoded.encodedSize()];
            decoded.encodeTo(MemorySegment.ofArray(again), 0);
            assertArrayEquals(java.util.Arrays.copyOfRange(bytes, at, at + again.length), again, "decodes exactly");
        }
    }

    /** Writes the CRC the stated size needs at its place, where the bytes have room for it. */
    private static void fixCrc(byte[] bytes, int at) {
        if (bytes.length < at + 12) {
            return;
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int size = buffer.getInt(at + 8);
        if (size >= 4 && size <= bytes.length - at) {
            CRC32C crc = new CRC32C();
            crc.update(bytes, at, size - 4);
            buffer.putInt(at + size - 4, (int) crc.getValue());
        }
    }

    @Provide
    Arbitrary<List<Mutation>> edits() {
        return Mutation.of(400, FIELDS).list().ofMinSize(1).ofMaxSize(4);
    }

    @Provide
    Arbitrary<LayoutDescriptor> descriptors() {
        return Descriptors.any();
    }
}
