package io.blit.benchmarks;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.blit.core.BlockCopier;
import io.blit.core.CopyEngine;
import io.blit.tools.messages.MarketData;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Hypothesis (the published MarketData comparison, reproduced on JDK 25): writing or reading one
 * {@link MarketData} as one block copy ({@code blit*}) costs a fraction of hand-written per-field
 * encoding ({@code explicit*}), which in turn is several times cheaper than reflective or stream-framed
 * serialisers ({@code default*} JDK Serializable, {@code externalizable*}, {@code kryo*}); and Blit
 * stays within a few nanoseconds of the floor, one {@code MemorySegment.copy} of the same 144 bytes
 * ({@code floor*}). Chronicle Bytes, the published implementation, is in
 * {@link MarketDataChronicleBenchmark} so that only its forks need its JVM flags.
 *
 * <p>As published: a reused message and a reused buffer, position reset per op. Each variant is
 * written the way its own documentation recommends, untuned: JDK streams are new per op over a reused,
 * rewound byte-array stream ({@link JdkStreams}); Kryo reuses one {@code Kryo}, {@code Output} and
 * {@code Input}, and {@code readObject} allocates the result; {@code explicit} is relative
 * {@code putLong}/{@code putDouble} on a native-order direct {@link ByteBuffer} ({@link ExplicitCodec}).
 * JDK and Kryo reads return a new object; the others fill the reused one. Every result is returned.
 *
 * <p>{@link #setUp} writes a valid image for every read, checks that every format round-trips a
 * filled message ({@link RoundTrip}) and that the floor copies the very bytes Blit writes; it throws
 * otherwise. Defaults match the published configuration; {@code -f -wi -w -i -r} override them. Forks
 * get {@code --sun-misc-unsafe-memory-access=allow}: Blit, Kryo and JMH use
 * {@code sun.misc.Unsafe}, which would otherwise print the JDK's deprecation warning.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--sun-misc-unsafe-memory-access=allow")
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class MarketDataFormatsBenchmark {
    private static final int BUFFER_BYTES = 4096;
    private static final int BLOCK_BYTES = 144;

    // Non-final, so that the JIT cannot fold the inputs into constants.
    private MarketData md;
    private SerializableMarketData serializable;
    private ByteArrayOutputStream serializableOut;
    private ByteArrayInputStream serializableIn;
    private ExternalizableMarketData externalizable;
    private ByteArrayOutputStream externalizableOut;
    private ByteArrayInputStream externalizableIn;
    private ByteBuffer explicitBuffer;
    private Arena arena;
    private MemorySegment segment;
    private long offset;
    private BlockCopier<MarketData> wordLoopCopier;
    private BlockCopier<MarketData> ffmCopier;
    private MemorySegment heapLongSegment;
    private Kryo kryo;
    private Output kryoOut;
    private Input kryoIn;
    private int kryoLength;

    /** Builds every reused buffer, writes each read's image and checks each format round-trips. */
    @Setup
    public void setUp() throws IOException, ClassNotFoundException {
        md = new MarketData().fillFor(42, 42_000);

        serializable = SerializableMarketData.of(md);
        serializableOut = new ByteArrayOutputStream(BUFFER_BYTES);
        JdkStreams.write(serializableOut, serializable);
        serializableIn = new ByteArrayInputStream(serializableOut.toByteArray());
        RoundTrip.check("default", md, ((SerializableMarketData) JdkStreams.read(serializableIn)).toMarketData());

        externalizable = ExternalizableMarketData.of(md);
        externalizableOut = new ByteArrayOutputStream(BUFFER_BYTES);
        JdkStreams.write(externalizableOut, externalizable);
        externalizableIn = new ByteArrayInputStream(externalizableOut.toByteArray());
        RoundTrip.check("externalizable", md, ((ExternalizableMarketData) JdkStreams.read(externalizableIn)).toMarketData());

        explicitBuffer = ByteBuffer.allocateDirect(BUFFER_BYTES).order(ByteOrder.nativeOrder());
        explicitWrite();
        RoundTrip.check("explicit", md, explicitReadInto(new MarketData()));

        arena = Arena.ofConfined();
        segment = arena.allocate(BUFFER_BYTES, Long.BYTES);
        offset = 0;
        wordLoopCopier = BlockCopier.of(MarketData.class, CopyEngine.WORD_LOOP);
        CopyEngine defaultEngine = BlockCopier.of(MarketData.class).engine();
        if (defaultEngine != CopyEngine.GENERATED) {
            throw new IllegalStateException("blit* is labelled as the GENERATED engine, but the default is " + defaultEngine);
        }
        MarketData back = new MarketData();
        wordLoopCopier.writeTo(md, segment, offset);
        wordLoopCopier.readFrom(segment, offset, back);
        RoundTrip.check("blitWordLoop", md, back);
        ffmCopier = BlockCopier.of(MarketData.class, CopyEngine.GENERATED_FFM);
        back = new MarketData();
        ffmCopier.writeTo(md, segment, offset);
        ffmCopier.readFrom(segment, offset, back);
        RoundTrip.check("blitFfm", md, back);
        md.writeTo(segment, offset);
        back = new MarketData();
        back.readFrom(segment, offset);
        RoundTrip.check("blit", md, back);

        if (md.byteSize() != BLOCK_BYTES) {
            throw new IllegalStateException("MarketData block is " + md.byteSize() + " bytes, floor copies " + BLOCK_BYTES
                    + ":\n" + md.layout().describe());
        }
        heapLongSegment = MemorySegment.ofArray(new long[BLOCK_BYTES / Long.BYTES]);
        MarketDataCopyBenchmark.writeFields(md, heapLongSegment, 0);
        long mismatch = MemorySegment.mismatch(segment, offset, offset + BLOCK_BYTES, heapLongSegment, 0, BLOCK_BYTES);
        if (mismatch != -1) {
            throw new IllegalStateException("floor's image differs from Blit's at byte " + mismatch + ":\n" + md.layout().describe());
        }

        kryo = new Kryo();
        kryo.register(MarketData.class);
        byte[] kryoBuffer = new byte[BUFFER_BYTES];
        kryoOut = new Output(kryoBuffer);
        kryoIn = new Input(kryoBuffer);
        kryoWrite();
        kryoLength = kryoOut.position();
        RoundTrip.check("kryo", md, kryoRead());
    }

    /** Frees the native segment; the direct ByteBuffer goes with the fork. */
    @TearDown
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public ByteArrayOutputStream defaultWrite() throws IOException {
        JdkStreams.write(serializableOut, serializable);
        return serializableOut;
    }

    @Benchmark
    public Object defaultRead() throws IOException, ClassNotFoundException {
        return JdkStreams.read(serializableIn);
    }

    @Benchmark
    public ByteArrayOutputStream externalizableWrite() throws IOException {
        JdkStreams.write(externalizableOut, externalizable);
        return externalizableOut;
    }

    @Benchmark
    public Object externalizableRead() throws IOException, ClassNotFoundException {
        return JdkStreams.read(externalizableIn);
    }

    @Benchmark
    public ByteBuffer explicitWrite() {
        explicitBuffer.clear();
        ExplicitCodec.write(md, explicitBuffer);
        explicitBuffer.flip();
        return explicitBuffer;
    }

    @Benchmark
    public MarketData explicitRead() {
        return explicitReadInto(md);
    }

    private MarketData explicitReadInto(MarketData target) {
        explicitBuffer.rewind();
        ExplicitCodec.read(explicitBuffer, target);
        return target;
    }

    @Benchmark
    public MemorySegment blitWrite() {
        md.writeTo(segment, offset);
        return segment;
    }

    @Benchmark
    public MarketData blitRead() {
        md.readFrom(segment, offset);
        return md;
    }

    /** Blit's fallback engine, {@link CopyEngine#WORD_LOOP}. */
    @Benchmark
    public MemorySegment blitWordLoopWrite() {
        wordLoopCopier.writeTo(md, segment, offset);
        return segment;
    }

    @Benchmark
    public MarketData blitWordLoopRead() {
        wordLoopCopier.readFrom(segment, offset, md);
        return md;
    }

    /**
     * Blit's engine without {@code sun.misc.Unsafe}, {@link CopyEngine#GENERATED_FFM}: the default on a
     * JVM with {@code --sun-misc-unsafe-memory-access=deny}. Measured here, in an {@code allow} fork,
     * because JMH 1.37 itself needs Unsafe in its forks (a {@code deny} fork exits before the first
     * iteration); the engine's code is the same in both modes, it never calls Unsafe.
     */
    @Benchmark
    public MemorySegment blitFfmWrite() {
        ffmCopier.writeTo(md, segment, offset);
        return segment;
    }

    @Benchmark
    public MarketData blitFfmRead() {
        ffmCopier.readFrom(segment, offset, md);
        return md;
    }

    @Benchmark
    public Output kryoWrite() {
        kryoOut.setPosition(0);
        kryo.writeObject(kryoOut, md);
        return kryoOut;
    }

    @Benchmark
    public MarketData kryoRead() {
        kryoIn.setPosition(0);
        kryoIn.setLimit(kryoLength);
        return kryo.readObject(kryoIn, MarketData.class);
    }

    /** Floor: one bulk copy of the same 144 bytes from a heap {@code long[]}. */
    @Benchmark
    public MemorySegment floorWrite() {
        MemorySegment.copy(heapLongSegment, 0, segment, offset, BLOCK_BYTES);
        return segment;
    }

    /** Floor: one bulk copy of the same 144 bytes into a heap {@code long[]}. */
    @Benchmark
    public MemorySegment floorRead() {
        MemorySegment.copy(segment, offset, heapLongSegment, 0, BLOCK_BYTES);
        return heapLongSegment;
    }
}
