package io.blit.benchmarks;

import io.blit.core.BlockCopier;
import io.blit.core.BlockReader;
import io.blit.core.CopyEngine;
import io.blit.core.LayoutPolicy;
import io.blit.core.TriviallyCopyable;
import io.blit.layout.FieldDescriptor;
import io.blit.layout.FieldType;
import io.blit.layout.LayoutDescriptor;
import io.blit.tools.messages.MarketData;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Hypothesis: reading a block written under another layout ({@link BlockReader} with
 * {@link LayoutPolicy#TRANSLATE}) costs what the bulk read of the same class costs, because both are
 * generated per-field code (the translation's reads each field from its writer offset); a reader of an
 * identical layout costs what {@link BlockCopier#readFrom} costs. Baselines: the bulk read of the same
 * class from the same confined native segment, in the same fork.
 *
 * <p>Writer layouts are built in this JVM: {@code reversed} packs the fields in the reverse of their offset
 * order (every field moves: like a compact-headers file read with default headers); {@code movedField}
 * moves MarketData's first field ({@code securityId}) behind the others (a field reordered in a newer
 * version of the class); {@code oneRun} puts an extra 8-byte field before MarketData's 144 bytes (an
 * ignored field, the others shifted).
 *
 * <p>Copiers of each class's default engine ({@code GENERATED}: by-address reads of the confined segment);
 * {@link CrossLayoutReadFfmBenchmark} runs the same methods with {@code GENERATED_FFM} copiers, the path
 * under {@code --sun-misc-unsafe-memory-access=deny} (segment accessors only).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "--sun-misc-unsafe-memory-access=allow")
@Warmup(iterations = 5, time = 200, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class CrossLayoutReadBenchmark {
    /** The documented class whose field order changes with compact object headers: 4 fields, 3 sizes. */
    public static final class Mixed extends TriviallyCopyable {
        long a;
        double b;
        int c;
        byte d;
    }

    private Arena arena;
    private MemorySegment mixedBulk;
    private MemorySegment mixedReversed;
    private MemorySegment marketBulk;
    private MemorySegment marketReversed;
    private MemorySegment marketOneRun;
    private MemorySegment marketMovedField;

    private BlockCopier<Mixed> mixedCopier;
    private BlockReader<Mixed> mixedIdentical;
    private BlockReader<Mixed> mixedReversedReader;
    private BlockCopier<MarketData> marketCopier;
    private BlockReader<MarketData> marketReversedReader;
    private BlockReader<MarketData> marketOneRunReader;
    private BlockReader<MarketData> marketMovedFieldReader;

    private Mixed mixed = new Mixed();
    private MarketData market = new MarketData();

    @Setup(Level.Trial)
    public void setUp() {
        arena = Arena.ofConfined();
        Mixed m = new Mixed();
        m.a = 0x0102_0304_0506_0708L;
        m.b = 2.5;
        m.c = -7;
        m.d = 9;
        mixedCopier = copier(Mixed.class);
        LayoutDescriptor mixedLayout = mixedCopier.layout().descriptor();
        mixedBulk = arena.allocate(mixedCopier.byteSize());
        mixedCopier.writeTo(m, mixedBulk, 0);
        mixedIdentical = BlockReader.of(mixedLayout, mixedCopier, LayoutPolicy.TRANSLATE);
        LayoutDescriptor mixedReversedLayout = reversed(mixedLayout);
        mixedReversed = relaid(mixedBulk, mixedLayout, mixedReversedLayout);
        mixedReversedReader = BlockReader.of(mixedReversedLayout, mixedCopier, LayoutPolicy.TRANSLATE);

        MarketData md = new MarketData();
        md.securityId = 42;
        md.time = 7;
        md.askPrice3 = 3.25;
        marketCopier = copier(MarketData.class);
        LayoutDescriptor marketLayout = marketCopier.layout().descriptor();
        marketBulk = arena.allocate(marketCopier.byteSize());
        marketCopier.writeTo(md, marketBulk, 0);
        LayoutDescriptor marketReversedLayout = reversed(marketLayout);
        marketReversed = relaid(marketBulk, marketLayout, marketReversedLayout);
        marketReversedReader = BlockReader.of(marketReversedLayout, marketCopier, LayoutPolicy.TRANSLATE);
        LayoutDescriptor marketOneRunLayout = prefixed(marketLayout);
        marketOneRun = relaid(marketBulk, marketLayout, marketOneRunLayout);
        marketOneRunReader = BlockReader.of(marketOneRunLayout, marketCopier, LayoutPolicy.TRANSLATE);

        LayoutDescriptor marketMovedLayout = firstFieldLast(marketLayout);
        marketMovedField = relaid(marketBulk, marketLayout, marketMovedLayout);
        marketMovedFieldReader = BlockReader.of(marketMovedLayout, marketCopier, LayoutPolicy.TRANSLATE);

        check(mixedCopier.engine() == engineOr(mixedCopier) && marketCopier.engine() == engineOr(marketCopier), "engine");
        check(marketMovedFieldReader.translates() && !mixedIdentical.translates() && mixedReversedReader.translates() && marketOneRunReader.translates(), "reader kinds");
        Mixed back = new Mixed();
        mixedReversedReader.readFrom(mixedReversed, 0, back);
        check(back.a == m.a && back.b == m.b && back.c == m.c && back.d == m.d, "mixed translated round trip");
        MarketData mdBack = new MarketData();
        marketReversedReader.readFrom(marketReversed, 0, mdBack);
        check(mdBack.securityId == 42 && mdBack.time == 7 && mdBack.askPrice3 == 3.25, "market reversed round trip");
        mdBack = new MarketData();
        marketOneRunReader.readFrom(marketOneRun, 0, mdBack);
        check(mdBack.securityId == 42 && mdBack.time == 7 && mdBack.askPrice3 == 3.25, "market one-run round trip");
        mdBack = new MarketData();
        marketMovedFieldReader.readFrom(marketMovedField, 0, mdBack);
        check(mdBack.securityId == 42 && mdBack.time == 7 && mdBack.askPrice3 == 3.25, "market moved-field round trip");
    }

    /** The engine of this benchmark's copiers; null for each class's default. */
    protected CopyEngine engine() {
        return null;
    }

    private <T> BlockCopier<T> copier(Class<T> type) {
        return engine() == null ? BlockCopier.of(type) : BlockCopier.of(type, engine());
    }

    private CopyEngine engineOr(BlockCopier<?> copier) {
        return engine() == null ? copier.engine() : engine();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    @Benchmark
    public Mixed mixedBulkRead() {
        mixedCopier.readFrom(mixedBulk, 0, mixed);
        return mixed;
    }

    @Benchmark
    public Mixed mixedIdenticalReaderRead() {
        mixedIdentical.readFrom(mixedBulk, 0, mixed);
        return mixed;
    }

    @Benchmark
    public Mixed mixedTranslatedRead() {
        mixedReversedReader.readFrom(mixedReversed, 0, mixed);
        return mixed;
    }

    @Benchmark
    public MarketData marketDataBulkRead() {
        marketCopier.readFrom(marketBulk, 0, market);
        return market;
    }

    @Benchmark
    public MarketData marketDataTranslatedOneRunRead() {
        marketOneRunReader.readFrom(marketOneRun, 0, market);
        return market;
    }

    @Benchmark
    public MarketData marketDataTranslatedMovedFieldRead() {
        marketMovedFieldReader.readFrom(marketMovedField, 0, market);
        return market;
    }

    @Benchmark
    public MarketData marketDataTranslatedReversedRead() {
        marketReversedReader.readFrom(marketReversed, 0, market);
        return market;
    }

    /** The same fields packed in the reverse of their offset order, from the same start. */
    private static LayoutDescriptor reversed(LayoutDescriptor layout) {
        List<FieldDescriptor> fields = new ArrayList<>();
        int offset = layout.start();
        for (FieldDescriptor field : layout.fields().reversed()) {
            fields.add(new FieldDescriptor(field.name(), field.declaringClassName(), field.type(), offset));
            offset += field.size();
        }
        return LayoutDescriptor.of(layout.className(), fields, layout.jvm());
    }

    /** The first field moved behind the last, the others shifted down by its size. */
    private static LayoutDescriptor firstFieldLast(LayoutDescriptor layout) {
        List<FieldDescriptor> fields = new ArrayList<>();
        FieldDescriptor first = layout.fields().getFirst();
        int offset = layout.start();
        for (FieldDescriptor field : layout.fields().subList(1, layout.fields().size())) {
            fields.add(new FieldDescriptor(field.name(), field.declaringClassName(), field.type(), offset));
            offset += field.size();
        }
        fields.add(new FieldDescriptor(first.name(), first.declaringClassName(), first.type(), offset));
        return LayoutDescriptor.of(layout.className(), fields, layout.jvm());
    }

    /** An extra leading 8-byte field, the others shifted by 8. */
    private static LayoutDescriptor prefixed(LayoutDescriptor layout) {
        List<FieldDescriptor> fields = new ArrayList<>();
        fields.add(new FieldDescriptor("sequence", layout.className(), FieldType.LONG, layout.start()));
        for (FieldDescriptor field : layout.fields()) {
            fields.add(new FieldDescriptor(field.name(), field.declaringClassName(), field.type(), field.offset() + 8));
        }
        return LayoutDescriptor.of(layout.className(), fields, layout.jvm());
    }

    /** The block {@code image} (laid out as {@code from}) laid out as {@code to}, in a new segment of the arena. */
    private MemorySegment relaid(MemorySegment image, LayoutDescriptor from, LayoutDescriptor to) {
        MemorySegment out = arena.allocate(to.length());
        for (FieldDescriptor field : from.fields()) {
            FieldDescriptor target = to.field(field.name());
            MemorySegment.copy(image, field.offset() - from.start(), out, target.offset() - to.start(), field.size());
        }
        return out;
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("CrossLayoutReadBenchmark setup check failed: " + what);
        }
    }
}
