package io.blit.core;

import io.blit.core.internal.BlockCodec;
import io.blit.core.internal.ConfinedAccess;
import io.blit.core.internal.CopyErrors;
import io.blit.layout.BlockLayout;
import io.blit.layout.LayoutVerifier;
import io.blit.layout.NotTriviallyCopyableException;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Copies the field block of objects of one trivially copyable class to and from memory segments:
 * the way to use Blit for classes that cannot extend {@link TriviallyCopyable}.
 *
 * <pre>{@code
 * BlockCopier<Quote> copier = BlockCopier.of(Quote.class);   // verified once, cached per class
 * copier.writeTo(quote, segment, offset);                    // copier.byteSize() bytes
 * copier.readFrom(segment, offset, otherQuote);
 * }</pre>
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li><b>Image.</b> The bytes written are the object's field block exactly as this JVM lays it out
 *       ({@link #layout()}), in native byte order, padding included. Reading such an image back is
 *       only meaningful in a JVM with the same {@link BlockLayout#fingerprint()}.</li>
 *   <li><b>Exact class.</b> Only instances of exactly the copier's class are accepted: a subclass has
 *       another block (its fields may even fill holes inside the superclass's block).</li>
 *   <li><b>Bounds.</b> Any offset, aligned or not. A slot that does not fit in the segment throws
 *       {@link IndexOutOfBoundsException} before anything is copied.</li>
 *   <li><b>Segment checks.</b> All segment accesses go through the {@link MemorySegment} API:
 *       a closed arena gives {@link IllegalStateException}, a confined segment used from another
 *       thread {@link WrongThreadException}, a read-only target {@link IllegalArgumentException}
 *       (as {@link MemorySegment#set(java.lang.foreign.ValueLayout.OfLong, long, long)} specifies),
 *       each before anything is copied. An arena closed by another thread while a copy runs makes the
 *       copy fail with {@code IllegalStateException}, leaving a partial image (never a crash).</li>
 *   <li><b>Thread-safety.</b> A copier is immutable and may be shared. Copies use plain memory accesses
 *       with no ordering: publishing a block to another thread needs a happens-before edge of the
 *       caller's (e.g. a release store of a header word that the reader loads with acquire). Copying an
 *       object that another thread writes concurrently can mix old and new field values.</li>
 * </ul>
 *
 * @param <T> the trivially copyable class
 */
public final class BlockCopier<T> {
    private final Class<T> type;
    private final BlockLayout layout;
    private final CopyEngine engine;
    private final BlockCodec codec;
    private final int length;
    /** Whether segments confined to the calling thread are addressed directly (needs Unsafe; not GENERATED_FFM). */
    private final boolean byAddress;
    /** The same length, byAddress and codec as a record, for TriviallyCopyable's constant call site. */
    private final CopyPath path;

    /** A copier of {@code type} with {@code engine}'s codec; {@link EngineCopiers} makes and caches them. */
    BlockCopier(Class<T> type, BlockLayout layout, CopyEngine engine, BlockCodec codec) {
        this.type = type;
        this.layout = layout;
        this.engine = engine;
        this.codec = codec;
        this.length = layout.length();
        this.byAddress = engine != CopyEngine.GENERATED_FFM;
        this.path = new CopyPath(this, length, byAddress, codec);
    }

    /**
     * The copier of {@code type}, verified on first use and cached for the life of the class. It uses
     * {@link CopyEngine#GENERATED} when Blit has private access to the class's fields, else
     * {@link CopyEngine#WORD_LOOP}; on a JVM that denies {@code sun.misc.Unsafe} memory access
     * ({@code --sun-misc-unsafe-memory-access=deny}) {@link CopyEngine#GENERATED_FFM}. {@link #engine()}
     * says which.
     *
     * @param <T>  the class
     * @param type the class to copy
     * @return its copier
     * @throws NullPointerException          if {@code type} is null
     * @throws NotTriviallyCopyableException if the class is not trivially copyable (see {@link LayoutVerifier})
     * @throws IllegalArgumentException      if Unsafe memory access is denied and the class's package is
     *                                       not open to {@code io.blit.core} (no engine can copy it then)
     */
    @SuppressWarnings("unchecked")
    public static <T> BlockCopier<T> of(Class<T> type) {
        return (BlockCopier<T>) EngineCopiers.DEFAULT.get(Objects.requireNonNull(type, "type"));
    }

    /**
     * The copier of {@code type} that uses the given engine, cached like {@link #of(Class)}.
     *
     * @param <T>    the class
     * @param type   the class to copy
     * @param engine the engine to copy with
     * @return its copier with that engine
     * @throws NullPointerException          if an argument is null
     * @throws NotTriviallyCopyableException if the class is not trivially copyable
     * @throws IllegalArgumentException      if {@code GENERATED} or {@code GENERATED_FFM} is asked for a
     *                                       class whose package is not open to {@code io.blit.core}
     * @throws UnsupportedOperationException if {@code GENERATED} or {@code WORD_LOOP} is asked for in a JVM
     *                                       that denies {@code sun.misc.Unsafe} memory access
     */
    @SuppressWarnings("unchecked")
    public static <T> BlockCopier<T> of(Class<T> type, CopyEngine engine) {
        Objects.requireNonNull(type, "type");
        return (BlockCopier<T>) EngineCopiers.of(type, Objects.requireNonNull(engine, "engine"));
    }

    /** The codec this copier copies with (shared by the copiers {@link EngineCopiers} derives from one another). */
    BlockCodec codec() {
        return codec;
    }

    /** {@return the engine this copier uses} */
    public CopyEngine engine() {
        return engine;
    }

    /** {@return the class this copier copies} */
    public Class<T> type() {
        return type;
    }

    /** {@return the block this copier moves, as measured in this JVM} */
    public BlockLayout layout() {
        return layout;
    }

    /** {@return the bytes one object occupies in a segment: the length of its field block} */
    public long byteSize() {
        return length;
    }

    /**
     * Writes {@code source}'s field block to {@code target} at {@code offset}.
     *
     * @param source the object to copy from
     * @param target the segment to copy to
     * @param offset the byte offset in {@code target} where the block starts
     * @throws NullPointerException          if an argument is null
     * @throws IllegalArgumentException      if {@code source} is not exactly of this copier's class, or if
     *                                       {@code target} is read-only (the FFM API's exception for that)
     * @throws IndexOutOfBoundsException     if {@code [offset, offset + byteSize())} is not inside {@code target}
     * @throws IllegalStateException         if {@code target}'s arena is closed
     * @throws WrongThreadException          if {@code target} is confined to another thread
     */
    public void writeTo(T source, MemorySegment target, long offset) {
        checkInstance(Objects.requireNonNull(source, "source"));
        checkBounds(Objects.requireNonNull(target, "target"), offset, length);
        write(source, target, offset);
    }

    /**
     * Reads the block at {@code offset} of {@code source} into the fields of {@code target}.
     *
     * @param source the segment to copy from
     * @param offset the byte offset in {@code source} where the block starts
     * @param target the object whose fields are overwritten
     * @throws NullPointerException      if an argument is null
     * @throws IllegalArgumentException  if {@code target} is not exactly of this copier's class
     * @throws IndexOutOfBoundsException if {@code [offset, offset + byteSize())} is not inside {@code source}
     * @throws IllegalStateException     if {@code source}'s arena is closed
     * @throws WrongThreadException      if {@code source} is confined to another thread
     */
    public void readFrom(MemorySegment source, long offset, T target) {
        checkBounds(Objects.requireNonNull(source, "source"), offset, length);
        checkInstance(Objects.requireNonNull(target, "target"));
        read(source, offset, target);
    }

    /**
     * Writes every element of {@code sources} to consecutive slots of {@link #byteSize()} bytes,
     * element {@code i} at {@code offset + i * byteSize()}. Every element is checked before the first
     * is written.
     *
     * @param sources the objects to copy from
     * @param target  the segment to copy to
     * @param offset  the byte offset in {@code target} of the first slot
     * @throws NullPointerException      if an argument or an element is null
     * @throws IllegalArgumentException  if an element is not exactly of this copier's class, or {@code target} is read-only
     * @throws IndexOutOfBoundsException if the slots do not fit inside {@code target}
     * @throws IllegalStateException     as {@link #writeTo}, also WrongThreadException
     */
    public void writeAll(T[] sources, MemorySegment target, long offset) {
        writeAll(Objects.requireNonNull(sources, "sources"), 0, sources.length, target, offset);
    }

    /**
     * Writes {@code count} elements of {@code sources} from index {@code from} to consecutive slots,
     * as {@link #writeAll(Object[], MemorySegment, long)}.
     *
     * @param sources the objects to copy from
     * @param from    the index of the first element to write
     * @param count   how many elements to write
     * @param target  the segment to copy to
     * @param offset  the byte offset in {@code target} of the first slot
     * @throws IndexOutOfBoundsException also if {@code [from, from + count)} is not inside the array
     */
    public void writeAll(T[] sources, int from, int count, MemorySegment target, long offset) {
        checkElements(Objects.requireNonNull(sources, "sources"), from, count, "sources");
        checkBounds(Objects.requireNonNull(target, "target"), offset, slotsSize(count));
        if (count > 0 && byAddress && ConfinedAccess.addressable(target, true)) {
            long address = target.address() + offset;
            for (int i = from; i < from + count; i++, address += length) {
                codec.writeRaw(sources[i], address);
            }
            return;
        }
        long slot = offset;
        for (int i = from; i < from + count; i++, slot += length) {
            codec.write(sources[i], target, slot);
        }
    }

    /**
     * Reads consecutive slots into every element of {@code targets}, slot {@code i} from
     * {@code offset + i * byteSize()}. Every element is checked before the first is read.
     *
     * @param source  the segment to copy from
     * @param offset  the byte offset in {@code source} of the first slot
     * @param targets the objects whose fields are overwritten
     * @throws NullPointerException      if an argument or an element is null
     * @throws IllegalArgumentException  if an element is not exactly of this copier's class
     * @throws IndexOutOfBoundsException if the slots do not fit inside {@code source}
     * @throws IllegalStateException     as {@link #readFrom}, also WrongThreadException
     */
    public void readAll(MemorySegment source, long offset, T[] targets) {
        readAll(source, offset, Objects.requireNonNull(targets, "targets"), 0, targets.length);
    }

    /**
     * Reads {@code count} consecutive slots into {@code targets} from index {@code from}, as
     * {@link #readAll(MemorySegment, long, Object[])}.
     *
     * @param source  the segment to copy from
     * @param offset  the byte offset in {@code source} of the first slot
     * @param targets the objects whose fields are overwritten
     * @param from    the index of the first element to read into
     * @param count   how many slots to read
     * @throws IndexOutOfBoundsException also if {@code [from, from + count)} is not inside the array
     */
    public void readAll(MemorySegment source, long offset, T[] targets, int from, int count) {
        checkElements(Objects.requireNonNull(targets, "targets"), from, count, "targets");
        checkBounds(Objects.requireNonNull(source, "source"), offset, slotsSize(count));
        if (count > 0 && byAddress && ConfinedAccess.addressable(source, false)) {
            long address = source.address() + offset;
            for (int i = from; i < from + count; i++, address += length) {
                codec.readRaw(address, targets[i]);
            }
            return;
        }
        long slot = offset;
        for (int i = from; i < from + count; i++, slot += length) {
            codec.read(source, slot, targets[i]);
        }
    }

    /** This copier's per-call values as a record, for {@link TriviallyCopyable} (see {@link CopyPath}). */
    CopyPath path() {
        return path;
    }

    private void write(Object source, MemorySegment target, long offset) {
        write(codec, byAddress, source, target, offset);
    }

    private void read(MemorySegment source, long offset, Object target) {
        read(codec, byAddress, source, offset, target);
    }

    /**
     * After the bounds check: one direct copy when the engine may and the segment is confined to this
     * thread (checked once, docs/copy-engine.md), else the checked accessors. Static, so that
     * {@link CopyPath} shares it with constant arguments.
     */
    static void write(BlockCodec codec, boolean byAddress, Object source, MemorySegment target, long offset) {
        if (byAddress && ConfinedAccess.addressable(target, true)) {
            codec.writeRaw(source, target.address() + offset);
        } else {
            codec.write(source, target, offset);
        }
    }

    /** The mirror image of {@link #write(BlockCodec, boolean, Object, MemorySegment, long)}. */
    static void read(BlockCodec codec, boolean byAddress, MemorySegment source, long offset, Object target) {
        if (byAddress && ConfinedAccess.addressable(source, false)) {
            codec.readRaw(source.address() + offset, target);
        } else {
            codec.read(source, offset, target);
        }
    }

    private void checkInstance(Object object) {
        if (object.getClass() != type) {
            throw CopyErrors.wrongClass(type, object);
        }
    }

    private void checkElements(Object[] array, int from, int count, String name) {
        if (from < 0 || count < 0 || from > array.length - count) {
            throw CopyErrors.arrayRange(from, count, array.length);
        }
        for (int i = from; i < from + count; i++) {
            if (array[i] == null) {
                throw CopyErrors.nullElement(name, i);
            }
            checkInstance(array[i]);
        }
    }

    private long slotsSize(int count) {
        return (long) count * length; // cannot overflow: count < 2^31, length < 2^31
    }

    static void checkBounds(MemorySegment segment, long offset, long size) {
        long capacity = segment.byteSize();
        if (offset < 0 || offset > capacity - size) {
            throw CopyErrors.outOfBounds(offset, size, capacity);
        }
    }

    @Override
    public String toString() {
        return "BlockCopier[" + type.getName() + " block=[" + layout.start() + ", " + layout.end() + ") engine=" + engine + "]";
    }
}
