package io.blit.core;

import io.blit.core.internal.BlockCodec;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * What {@link TriviallyCopyable}'s per-call path needs of one class's {@link BlockCopier}: its block
 * length, whether it may address confined segments directly, and its codec.
 *
 * <p>Why a record: HotSpot's C2 trusts the final fields of records (and of hidden classes) as
 * constants when the record itself is a constant, but not those of an ordinary final class such as
 * {@code BlockCopier}. {@link CopierCache#invoker()} returns this record as a constant for the classes
 * it guards, so in compiled code the length becomes an immediate of the bounds compare, the
 * {@code byAddress} branch folds, and the codec becomes a constant of its exact hidden class, whose
 * methods are then called directly, without the interface call's class check (docs/copy-engine.md,
 * "Decision: the class lookup as a constant call site"). Every check on the segment is still made on every call.
 *
 * <p>Immutable and thread-safe, like the copier it belongs to. Callers pass an object of exactly the
 * copier's class (for {@link TriviallyCopyable} that holds by construction).
 *
 * @param copier    the copier these values come from
 * @param length    the copier's block length in bytes
 * @param byAddress whether segments confined to the calling thread are addressed directly
 * @param codec     the copier's codec
 */
record CopyPath(BlockCopier<?> copier, int length, boolean byAddress, BlockCodec codec) {
    CopyPath {
        Objects.requireNonNull(copier, "copier");
        Objects.requireNonNull(codec, "codec");
    }

    /**
     * Writes {@code source}'s block to {@code target} at {@code offset}, as {@link BlockCopier#writeTo}
     * for an object already known to be of the copier's exact class.
     */
    void write(Object source, MemorySegment target, long offset) {
        BlockCopier.checkBounds(Objects.requireNonNull(target, "segment"), offset, length);
        BlockCopier.write(codec, byAddress, source, target, offset);
    }

    /**
     * Reads the block at {@code offset} of {@code source} into {@code target}, as
     * {@link BlockCopier#readFrom} for an object already known to be of the copier's exact class.
     */
    void read(MemorySegment source, long offset, Object target) {
        BlockCopier.checkBounds(Objects.requireNonNull(source, "segment"), offset, length);
        BlockCopier.read(codec, byAddress, source, offset, target);
    }
}
