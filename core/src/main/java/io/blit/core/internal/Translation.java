package io.blit.core.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A precomputed byte permutation from a block in the writer's layout to a block image in the reader's
 * layout: the moves of the fields both layouts have, adjacent moves coalesced into runs.
 *
 * <p>How a block is translated, and why this way: the whole writer block is copied out of the source
 * segment with one {@code MemorySegment.copy} (one bounds, liveness and thread check, the JDK's bulk
 * copy), each run is then an {@code System.arraycopy} (or a byte reversal, for a field whose writer
 * byte order differs) between two heap arrays, and the caller reads the reader image into the object
 * with its normal copier. Every source access therefore stays inside the {@code MemorySegment} API, and
 * a read that fails (closed arena, wrong thread) fails before the target object is touched.
 *
 * <p>The scratch arrays are per thread ({@link ThreadLocal}, allocated on a thread's first read). The
 * bytes of the reader image that no run writes — fields the writer lacks, padding — are zero when the
 * array is allocated and no run ever writes them, so they stay zero without clearing per read.
 *
 * <p>Immutable apart from that per-thread scratch; thread-safe.
 */
public final class Translation {
    /**
     * {@code length} bytes from writer-block offset {@code from} to reader-block offset {@code to},
     * reversed when {@code reverse} (one field whose byte order must be swapped).
     */
    public record Run(int from, int to, int length, boolean reverse) {
        public Run {
            if (from < 0 || to < 0 || length < 1 || (reverse && length > 8)) {
                throw new IllegalArgumentException("invalid run from=" + from + " to=" + to + " length=" + length
                        + " reverse=" + reverse);
            }
        }

        @Override
        public String toString() {
            return "+" + from + "->+" + to + " (" + length + (reverse ? ", swapped)" : ")");
        }
    }

    /** The per-thread images: the writer's block as read, the reader's as built, and a segment over the latter. */
    private static final class Scratch {
        final byte[] writerImage;
        final byte[] readerImage;
        final MemorySegment readerSegment;

        Scratch(int writerLength, int readerLength) {
            writerImage = new byte[writerLength];
            readerImage = new byte[readerLength];
            readerSegment = MemorySegment.ofArray(readerImage);
        }
    }

    private final Run[] runs;
    private final int writerLength;
    private final ThreadLocal<Scratch> scratch;

    private Translation(List<Run> runs, int writerLength, int readerLength) {
        this.runs = runs.toArray(Run[]::new);
        this.writerLength = writerLength;
        this.scratch = ThreadLocal.withInitial(() -> new Scratch(writerLength, readerLength));
    }

    /**
     * The translation that performs the given moves, one per field both layouts have (in any order,
     * {@code reverse} set for multi-byte fields whose byte order differs); adjacent moves that are
     * contiguous on both sides and not reversed are coalesced into one run.
     *
     * @throws IllegalArgumentException if a move lies outside its block, or two moves overlap in the reader
     */
    public static Translation of(List<Run> fieldMoves, int writerLength, int readerLength) {
        List<Run> sorted = new ArrayList<>(fieldMoves);
        sorted.sort((a, b) -> Integer.compare(a.to(), b.to()));
        List<Run> runs = new ArrayList<>();
        int readerEnd = 0;
        for (Run move : sorted) {
            if (move.from() + move.length() > writerLength || move.to() + move.length() > readerLength
                    || move.to() < readerEnd) {
                throw new IllegalArgumentException("field move " + move + " outside the blocks (writer " + writerLength
                        + ", reader " + readerLength + " bytes) or overlapping the previous one");
            }
            readerEnd = move.to() + move.length();
            Run last = runs.isEmpty() ? null : runs.getLast();
            if (last != null && !move.reverse() && !last.reverse()
                    && last.from() + last.length() == move.from() && last.to() + last.length() == move.to()) {
                runs.set(runs.size() - 1, new Run(last.from(), last.to(), last.length() + move.length(), false));
            } else {
                runs.add(move);
            }
        }
        return new Translation(runs, writerLength, readerLength);
    }

    /** The runs, in reader-offset order. */
    public List<Run> runs() {
        return List.of(runs);
    }

    /**
     * Reads the writer block at {@code offset} of {@code source} and returns this thread's reader
     * image of it, valid until this thread's next call. The caller has checked that the writer's
     * block lies inside the segment.
     *
     * @throws IllegalStateException if the segment's arena is closed
     * @throws WrongThreadException  if the segment is confined to another thread
     */
    public MemorySegment translate(MemorySegment source, long offset) {
        Objects.requireNonNull(source, "source");
        Scratch images = scratch.get();
        byte[] in = images.writerImage;
        byte[] out = images.readerImage;
        MemorySegment.copy(source, JAVA_BYTE, offset, in, 0, writerLength);
        for (Run run : runs) {
            if (run.reverse) {
                int last = run.from + run.length - 1;
                for (int i = 0; i < run.length; i++) {
                    out[run.to + i] = in[last - i];
                }
            } else {
                System.arraycopy(in, run.from, out, run.to, run.length);
            }
        }
        return images.readerSegment;
    }

    @Override
    public String toString() {
        return runs.length + (runs.length == 1 ? " run " : " runs ") + List.of(runs);
    }
}
