package io.blit.benchmarks;

import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * PLACEHOLDER, to be replaced at merge by the full version from the MarketData formats work: bytes one
 * {@link MarketData} occupies when serialised by each variant of the formats benchmark. This version
 * measures only the two variants the benchmark runner can size without the formats code: {@code blit}
 * (the object's block, {@link MarketData#byteSize()}) and {@code floor} (the bytes of the heap
 * {@code long[]} the floor copies, the same 144). The other keys of the full version
 * ({@code default, externalizable, explicit, blit_word_loop, chronicle, kryo}) are absent here, and the
 * runner reports their sizes as unknown rather than guessing.
 *
 * <p>Stateless and thread-safe; every call measures afresh.
 */
public final class SerializedSizes {
    private SerializedSizes() {
    }

    /** Serialised size in bytes per variant name (the runner's snake_case names); only measured variants. */
    public static Map<String, Integer> perVariant() {
        MarketData md = new MarketData().fillFor(42);
        MemorySegment floor = MemorySegment.ofArray(new long[(int) (md.byteSize() / Long.BYTES)]);
        return Map.of("blit", Math.toIntExact(md.byteSize()), "floor", Math.toIntExact(floor.byteSize()));
    }
}
