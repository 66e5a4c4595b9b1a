package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.testkit.Mutation;
import java.nio.ByteOrder;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * Fuzz properties of {@link TypeLayouts#decode}, which a replication source runs on bytes from the network (the
 * layouts a replica expects): any bytes, valid or edited, decode to what they state or are refused with an
 * {@link IllegalArgumentException}, allocating little; valid encodings round-trip (docs/fuzzing.md).
 */
class TypeLayoutsFuzzTest {
    private static final List<TypeLayouts> VALID = List.of(
            TypeLayouts.of(new MarketData().layout().descriptor()),
            TypeLayouts.of(TypedQueueTest.TWO),
            TypeLayouts.of(MessageTypes.builder(Object.class).add(7, Quote.class).build()));

    @Property
    void anyBytesDecodeOrAreRefused(@ForAll @Size(max = 5000) byte[] bytes) {
        decodeOrRefused(bytes);
    }

    @Property
    void editedEncodingsDecodeOrAreRefused(@ForAll("encodings") byte[] valid, @ForAll("edits") List<Mutation> edits) {
        decodeOrRefused(Mutation.applyAll(edits, valid, ByteOrder.LITTLE_ENDIAN));
    }

    @Property
    void validEncodingsRoundTrip(@ForAll("encodings") byte[] encoded) {
        TypeLayouts decoded = TypeLayouts.decode(encoded);
        assertArrayEquals(encoded, decoded.encode());
        assertNull(decoded.differenceFrom(TypeLayouts.decode(encoded)), "identical to itself");
    }

    private static void decodeOrRefused(byte[] bytes) {
        long before = Mutation.allocatedByThisThread();
        try {
            TypeLayouts decoded = TypeLayouts.decode(bytes);
            assertArrayEquals(bytes, decoded.encode(), "what decodes is exactly its encoding");
        } catch (IllegalArgumentException refused) {
            assertTrue(refused.getMessage().startsWith("type layouts"), refused.getMessage());
        }
        long allocated = Mutation.allocatedByThisThread() - before;
        assertTrue(allocated < (1 << 20) + 64L * bytes.length, "allocated " + allocated + " bytes");
    }

    @Provide
    Arbitrary<byte[]> encodings() {
        return Arbitraries.of(VALID).map(TypeLayouts::encode);
    }

    @Provide
    Arbitrary<List<Mutation>> edits() {
        int longest = VALID.stream().mapToInt(layouts -> layouts.encode().length).max().orElseThrow();
        return Mutation.of(longest, 0, 4, 8, 12, 16, 20, 24, 28).list().ofMinSize(1).ofMaxSize(4);
    }
}
