package io.blit.benchmarks;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Output;
import io.blit.core.BlockCopier;
import io.blit.core.CopyEngine;
import io.blit.tools.messages.MarketData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesUtil;

/**
 * The serialised size of one {@link MarketData} in each variant of {@link MarketDataFormatsBenchmark}
 * and {@link MarketDataChronicleBenchmark}, measured in the calling JVM by serialising a filled message
 * with the same code the benchmarks run (no size is written down here).
 *
 * <ul>
 *   <li>Stream formats ({@code default}, {@code externalizable}, {@code explicit}, {@code kryo},
 *       {@code chronicle}): the buffer's position or size after writing one message from position 0.
 *   <li>Fixed-offset formats ({@code blit}, {@code blit_word_loop}, {@code floor}): the smallest native
 *       segment the write fits in; every smaller one makes it throw {@link IndexOutOfBoundsException}.
 *       The floor's source is a heap {@code long[]} holding Blit's image of the message, as in the
 *       benchmark, so its size is Blit's block by construction.
 * </ul>
 *
 * <p>Calling {@link #perVariant()} initialises Chronicle Bytes (and Blit, Kryo) in the calling JVM.
 * Without {@code --sun-misc-unsafe-memory-access=allow} the JDK prints its {@code sun.misc.Unsafe}
 * deprecation warning once; no other flag is needed for clean output. Stateless and thread-safe.
 */
public final class SerializedSizes {
    private static final int MAX_BYTES = 4096;

    private SerializedSizes() {
    }

    /**
     * Bytes of one serialised MarketData per variant, in this order: {@code default},
     * {@code externalizable}, {@code explicit}, {@code blit}, {@code blit_word_loop}, {@code blit_ffm},
     * {@code chronicle}, {@code kryo}, {@code floor}.
     *
     * @return a new, modifiable, insertion-ordered map
     * @throws UncheckedIOException  if JDK serialisation fails
     * @throws IllegalStateException if a fixed-offset write fits in no segment up to 4096 bytes
     */
    public static Map<String, Integer> perVariant() {
        MarketData md = new MarketData().fillFor(42, 42_000);
        Map<String, Integer> sizes = new LinkedHashMap<>();
        sizes.put("default", jdk(SerializableMarketData.of(md)));
        sizes.put("externalizable", jdk(ExternalizableMarketData.of(md)));
        sizes.put("explicit", explicit(md));
        sizes.put("blit", fittedSize(segment -> md.writeTo(segment, 0)));
        BlockCopier<MarketData> wordLoop = BlockCopier.of(MarketData.class, CopyEngine.WORD_LOOP);
        sizes.put("blit_word_loop", fittedSize(segment -> wordLoop.writeTo(md, segment, 0)));
        BlockCopier<MarketData> ffm = BlockCopier.of(MarketData.class, CopyEngine.GENERATED_FFM);
        sizes.put("blit_ffm", fittedSize(segment -> ffm.writeTo(md, segment, 0)));
        sizes.put("chronicle", chronicle(md));
        sizes.put("kryo", kryo(md));
        MemorySegment image = MemorySegment.ofArray(new long[Math.toIntExact(md.byteSize() / Long.BYTES)]);
        md.writeTo(image, 0);
        sizes.put("floor", fittedSize(segment -> MemorySegment.copy(image, 0, segment, 0, image.byteSize())));
        return sizes;
    }

    private static int jdk(Object dto) {
        try {
            return JdkStreams.write(new ByteArrayOutputStream(MAX_BYTES), dto);
        } catch (IOException e) {
            throw new UncheckedIOException("JDK serialisation of " + dto.getClass().getName() + " failed", e);
        }
    }

    private static int explicit(MarketData md) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(MAX_BYTES).order(ByteOrder.nativeOrder());
        ExplicitCodec.write(md, buffer);
        return buffer.position();
    }

    private static int kryo(MarketData md) {
        Kryo kryo = new Kryo();
        kryo.register(MarketData.class);
        Output out = new Output(new byte[MAX_BYTES]);
        kryo.writeObject(out, md);
        return out.position();
    }

    /**
     * On-heap {@code Bytes}, unlike the benchmark's direct one: {@code unsafeWriteObject} writes the same
     * range either way, and direct memory would start Chronicle's buffer cleaner, which warns in a JVM
     * without {@code --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED}.
     */
    private static int chronicle(MarketData md) {
        Bytes<?> bytes = Bytes.allocateElasticOnHeap(MAX_BYTES);
        try {
            bytes.unsafeWriteObject(md, BytesUtil.triviallyCopyableStart(MarketData.class),
                    BytesUtil.triviallyCopyableLength(MarketData.class));
            return Math.toIntExact(bytes.writePosition());
        } finally {
            bytes.releaseLast();
        }
    }

    /** The smallest native segment, in bytes, that {@code write} completes on. */
    private static int fittedSize(Consumer<MemorySegment> write) {
        try (Arena arena = Arena.ofConfined()) {
            for (int size = 0; size <= MAX_BYTES; size++) {
                try {
                    write.accept(arena.allocate(size, Long.BYTES));
                    return size;
                } catch (IndexOutOfBoundsException tooSmall) {
                    // One byte more.
                }
            }
        }
        throw new IllegalStateException("the write fits in no segment of up to " + MAX_BYTES + " bytes");
    }
}
