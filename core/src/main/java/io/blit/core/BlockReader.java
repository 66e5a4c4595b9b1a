package io.blit.core;

import io.blit.core.internal.BlockTranslator;
import io.blit.core.internal.ConfinedAccess;
import io.blit.core.internal.CopyErrors;
import io.blit.core.internal.GeneratedCodecs;
import io.blit.core.internal.GeneratedTranslators;
import io.blit.core.internal.Translation;
import io.blit.layout.FieldDescriptor;
import io.blit.layout.LayoutComparison;
import io.blit.layout.LayoutDescriptor;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads blocks that were written under a known layout — the writer's {@link LayoutDescriptor}, e.g.
 * from a file header — into objects of a class whose layout in this JVM may differ (another JVM
 * mode such as compact object headers, fields added, removed or reordered).
 *
 * <pre>{@code
 * LayoutDescriptor written = LayoutDescriptor.decode(header, 56);          // stored by the writer
 * BlockReader<Quote> reader = BlockReader.of(written, Quote.class, LayoutPolicy.TRANSLATE);
 * reader.readFrom(segment, offset, quote);                                  // reader.byteSize() bytes
 * }</pre>
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li><b>Identical layouts</b> (same fingerprint — field names, types, offsets relative to the block
 *       start, length — and same byte order): one bulk copy, exactly {@link BlockCopier#readFrom}.
 *       Class names, block starts and other JVM facts may differ.</li>
 *   <li><b>Different layouts, {@link LayoutPolicy#TRANSLATE}:</b> fields matched by name; a field both
 *       have is moved to the reader's offset (byte-swapped if the writer's byte order differs); a field
 *       only the reader has reads as zero ({@link #zeroedFields()}); a field only the writer has is
 *       ignored ({@link #ignoredFields()}). How: code generated for this pair of layouts (once, cached
 *       per reader class and writer layout) reads each field from its writer offset straight into the
 *       field, with the copier's engine: direct field access and, for a native segment confined to the
 *       reading thread, by address ({@link CopyEngine#GENERATED}), or the segment accessors only
 *       ({@link CopyEngine#GENERATED_FFM}, e.g. under {@code --sun-misc-unsafe-memory-access=deny}); no
 *       scratch memory, no allocation per read. A {@link CopyEngine#WORD_LOOP} copier, which generated
 *       code cannot serve, translates through a per-thread scratch image instead: one bulk copy of the
 *       writer's block, one array copy per run of adjacent fields, then its bulk copy into the object.
 *       docs/cross-layout.md has the measurements.</li>
 *   <li><b>Different layouts, {@link LayoutPolicy#STRICT}:</b> refused at construction.</li>
 *   <li><b>Refused in both policies</b>, at construction, never per read: a field whose type changed,
 *       a writer layout with two fields of one name. {@link IncompatibleLayoutException} names the
 *       class, the fields and both sides' types or offsets.</li>
 *   <li><b>Bounds.</b> A read consumes the <em>writer's</em> block, {@link #byteSize()} bytes, which may
 *       differ from the reader class's block length; a slot outside the segment throws
 *       {@link IndexOutOfBoundsException} before anything is read.</li>
 *   <li><b>Segment checks and atomicity</b> as {@link BlockCopier#readFrom}: bounds (of the writer's
 *       block), liveness and confinement are checked before any field is written, so a read that fails
 *       them leaves the target untouched; a shared arena closed by another thread during a read makes
 *       it fail with {@code IllegalStateException}, possibly with some fields already read.</li>
 *   <li><b>Thread-safety.</b> Immutable and thread-safe (a {@code WORD_LOOP} reader's scratch image is
 *       per reading thread: writer length plus reader length bytes, released with the reader or the
 *       thread). Build one reader per writer layout and reuse it; building another for the same pair
 *       reuses the generated code. Memory ordering: as {@link BlockCopier}, none of its own.</li>
 * </ul>
 *
 * @param <T> the reading class
 */
public final class BlockReader<T> {
    private final BlockCopier<T> copier;
    private final LayoutDescriptor writer;
    private final LayoutPolicy policy;
    private final LayoutComparison comparison;
    /** The runs of a translation: the plan, described by toString; also the WORD_LOOP reader's way to read. */
    private final Translation translation;
    /** Generated code for this pair, or null for an identical layout or a WORD_LOOP copier. */
    private final BlockTranslator translator;
    /** Whether the translator may read a confined native segment by address (GENERATED, not too wide). */
    private final boolean byAddress;
    private final List<String> zeroed;
    private final List<String> ignored;
    private final int writerLength;

    private BlockReader(BlockCopier<T> copier, LayoutDescriptor writer, LayoutPolicy policy, LayoutComparison comparison,
                        Translation translation, BlockTranslator translator, List<String> zeroed, List<String> ignored) {
        this.copier = copier;
        this.writer = writer;
        this.policy = policy;
        this.comparison = comparison;
        this.translation = translation;
        this.translator = translator;
        // Wide classes read through the accessors: C1 gives up on by-address code of hundreds of fields.
        this.byAddress = translator != null && copier.engine() == CopyEngine.GENERATED
                && GeneratedCodecs.generatesByAddress(copier.layout());
        this.zeroed = List.copyOf(zeroed);
        this.ignored = List.copyOf(ignored);
        this.writerLength = writer.length();
    }

    /**
     * A reader of blocks written under {@code writer} into objects of {@code type}, with
     * {@code type}'s default copier ({@link BlockCopier#of(Class)}).
     *
     * @param <T>    the reading class
     * @param writer the layout the blocks were written with
     * @param type   the reading class
     * @param policy whether a layout other than {@code type}'s is refused or translated
     * @return the reader
     * @throws NullPointerException                         if an argument is null
     * @throws io.blit.layout.NotTriviallyCopyableException if {@code type} is not trivially copyable
     * @throws IncompatibleLayoutException                  as {@link #of(LayoutDescriptor, BlockCopier, LayoutPolicy)}
     */
    public static <T> BlockReader<T> of(LayoutDescriptor writer, Class<T> type, LayoutPolicy policy) {
        return of(writer, BlockCopier.of(Objects.requireNonNull(type, "type")), policy);
    }

    /**
     * A reader of blocks written under {@code writer} into objects of {@code copier}'s class, whose
     * final copy into the object uses that copier.
     *
     * @param <T>    the reading class
     * @param writer the layout the blocks were written with
     * @param copier the copier of the reading class
     * @param policy whether a layout other than the copier's is refused or translated
     * @return the reader
     * @throws NullPointerException        if an argument is null
     * @throws IncompatibleLayoutException if a field's type changed, the writer names two fields alike, or
     *                                     {@code policy} is STRICT and the layouts or byte orders differ;
     *                                     the message names the class, every field involved and both sides' values
     */
    public static <T> BlockReader<T> of(LayoutDescriptor writer, BlockCopier<T> copier, LayoutPolicy policy) {
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(copier, "copier");
        Objects.requireNonNull(policy, "policy");
        LayoutDescriptor reader = copier.layout().descriptor();
        LayoutComparison comparison = writer.compatibility(reader);
        ByteOrder writerOrder = writer.jvm().byteOrder();
        ByteOrder readerOrder = reader.jvm().byteOrder();
        boolean sameOrder = writerOrder.equals(readerOrder);
        if (comparison.identical() && sameOrder) {
            return new BlockReader<>(copier, writer, policy, comparison, null, null, List.of(), List.of());
        }
        if (policy == LayoutPolicy.STRICT) {
            throw CopyErrors.strictRefusal(comparison, writerOrder, readerOrder);
        }
        Map<String, FieldDescriptor> written = new HashMap<>();
        for (FieldDescriptor field : writer.fields()) {
            FieldDescriptor previous = written.putIfAbsent(field.name(), field);
            if (previous != null) {
                throw CopyErrors.duplicateWriterField(comparison, previous, field);
            }
        }
        List<Translation.Run> moves = new ArrayList<>();
        List<String> zeroed = new ArrayList<>();
        List<String> typeChanges = new ArrayList<>();
        int[] writerOffsets = new int[reader.fields().size()];
        for (int i = 0; i < writerOffsets.length; i++) {
            FieldDescriptor field = reader.fields().get(i);
            FieldDescriptor source = written.remove(field.name());
            writerOffsets[i] = source == null ? -1 : source.offset() - writer.start();
            if (source == null) {
                zeroed.add(field.name());
            } else if (source.type() != field.type()) {
                typeChanges.add(CopyErrors.typeChanged(reader.className(), source, field));
            } else {
                moves.add(new Translation.Run(source.offset() - writer.start(), field.offset() - reader.start(),
                        field.size(), !sameOrder && field.size() > 1));
            }
        }
        if (!typeChanges.isEmpty()) {
            throw CopyErrors.typesChanged(comparison, typeChanges);
        }
        List<String> ignored = writer.fields().stream().map(FieldDescriptor::name).filter(written::containsKey).toList();
        Translation translation = Translation.of(moves, writer.length(), reader.length()); // checks every move lies inside both blocks
        return new BlockReader<>(copier, writer, policy, comparison, translation,
                generatedTranslator(copier, writerOffsets, !sameOrder), zeroed, ignored);
    }

    /** The generated code for a GENERATED or GENERATED_FFM copier's class; null for WORD_LOOP (translated through scratch). */
    private static BlockTranslator generatedTranslator(BlockCopier<?> copier, int[] writerOffsets, boolean swap) {
        if (copier.engine() == CopyEngine.WORD_LOOP) {
            return null;
        }
        try {
            return GeneratedTranslators.cached(copier.layout(), writerOffsets, swap);
        } catch (IllegalAccessException e) {
            // A copier with generated code of its own was defined with this very access: a failure here is a bug.
            throw new IllegalStateException("cannot define a translator for " + copier.layout().type().getName()
                    + " with the access its copier was generated with", e);
        }
    }

    /**
     * Reads the writer's block at {@code offset} of {@code source} into the fields of {@code target}.
     *
     * @param source the segment to read from
     * @param offset the byte offset in {@code source} where the writer's block starts
     * @param target the object whose fields are overwritten
     * @throws NullPointerException      if an argument is null
     * @throws IllegalArgumentException  if {@code target} is not exactly of the reader's class
     * @throws IndexOutOfBoundsException if {@code [offset, offset + byteSize())} is not inside {@code source}
     * @throws IllegalStateException     if {@code source}'s arena is closed
     * @throws WrongThreadException      if {@code source} is confined to another thread
     */
    public void readFrom(MemorySegment source, long offset, T target) {
        if (translation == null) {
            copier.readFrom(source, offset, target);
            return;
        }
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        long capacity = source.byteSize();
        if (offset < 0 || offset > capacity - writerLength) {
            throw CopyErrors.outOfBounds(offset, writerLength, capacity);
        }
        if (target.getClass() != copier.type()) {
            throw CopyErrors.wrongClass(copier.type(), target);
        }
        if (translator == null) {
            copier.readFrom(translation.translate(source, offset), 0, target);
        } else if (byAddress && ConfinedAccess.addressable(source, false)) {
            translator.readRaw(source.address() + offset, target);
        } else {
            translator.read(source, offset, target);
        }
    }

    /** {@return the bytes one block occupies in the source: the writer's block length} */
    public long byteSize() {
        return writerLength;
    }

    /** {@return true if reads translate field by field; false if they are one bulk copy (identical layouts)} */
    public boolean translates() {
        return translation != null;
    }

    /** The generated code of a translating reader, shared by every reader of the same pair; null otherwise (tests). */
    BlockTranslator translator() {
        return translator;
    }

    /** {@return the layout the blocks were written with} */
    public LayoutDescriptor writerLayout() {
        return writer;
    }

    /** {@return the copier of the reading class, whose layout is the reader's} */
    public BlockCopier<T> copier() {
        return copier;
    }

    /** {@return the policy this reader was built with} */
    public LayoutPolicy policy() {
        return policy;
    }

    /** {@return the field-by-field comparison of the writer's layout with the reader's} */
    public LayoutComparison comparison() {
        return comparison;
    }

    /** {@return the names of the reader's fields that the writer lacks, which every read sets to zero, in reader offset order} */
    public List<String> zeroedFields() {
        return zeroed;
    }

    /** {@return the names of the writer's fields that the reader lacks, whose bytes every read ignores, in writer offset order} */
    public List<String> ignoredFields() {
        return ignored;
    }

    @Override
    public String toString() {
        String how = translation == null ? "bulk copy" : "translated" + (translator == null ? " through scratch, " : " by generated code, ")
                + translation
                + (zeroed.isEmpty() ? "" : ", zeroed " + zeroed) + (ignored.isEmpty() ? "" : ", ignored " + ignored);
        return "BlockReader[" + writer.className() + " " + writer.fingerprint() + " (" + writer.jvm().headerMode() + ") -> "
                + copier.type().getName() + " " + comparison.reader().fingerprint() + ": " + how + "]";
    }
}
