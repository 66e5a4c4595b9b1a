package io.blit.benchmarks;

import io.blit.cli.CliSupport;
import io.blit.cli.ToolVersion;
import io.blit.core.TriviallyCopyable;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * Does the time of a block copy depend on where the native segment lies relative to the object (4K
 * aliasing: a load whose address matches an in-flight store in the low 12 bits waits for it)? Copies one
 * {@link SweepBlocks} block (default 4096 bytes) to and from a confined segment placed at every
 * {@code step}-byte offset of a 4 KiB page, with Blit and with the floor ({@code MemorySegment.copy} from
 * a {@code long[]}), and prints the minimum ns per copy at each offset. An in-process harness (minimum
 * over 30 rounds of 2,000 copies), so that short interruptions drop out — not the host's phases of
 * minutes, which move all four columns (docs/copy-engine.md); the object and the array
 * stay where they are, since nothing is allocated while it runs.
 *
 * <p>Evidence behind the documented gap of large blocks to the floor ({@code docs/copy-engine.md}); not part of
 * {@code run.sh}:
 * {@code java --sun-misc-unsafe-memory-access=allow -cp benchmarks/target/benchmarks.jar
 * io.blit.benchmarks.SegmentOffsetSweep [blockBytes] [step]}.
 */
@Command(name = "SegmentOffsetSweep", mixinStandardHelpOptions = true, versionProvider = ToolVersion.class,
        description = "Minimum ns per copy of one block to and from a segment at every step-byte offset of a page, "
                + "Blit and the floor side by side.",
        footer = {"", "Exit codes: 0 ok, 2 usage error or bad input."})
public final class SegmentOffsetSweep implements Callable<Integer> {
    private static final int PAGE = 4096;
    private static final int WARM_UP_ROUNDS = 10;
    private static final int MEASURED_ROUNDS = 30;
    private static final int COPIES_PER_BATCH = 2_000;

    @Parameters(index = "0", arity = "0..1", paramLabel = "BLOCK_BYTES", defaultValue = "4096",
            description = "block size, one of the sweep's sizes (default 4096)")
    private int blockBytes;

    @Parameters(index = "1", arity = "0..1", paramLabel = "STEP", defaultValue = "64",
            description = "offset step in bytes, dividing 4096 (default 64)")
    private int step;

    @Spec
    private CommandSpec spec;

    public static void main(String[] args) {
        System.exit(CliSupport.execute(CliSupport.configure(new CommandLine(new SegmentOffsetSweep()), System.out,
                System.err), args, System.out, System.err));
    }

    @Override
    public Integer call() {
        if (!SweepBlocks.SIZES.contains(blockBytes)) {
            throw new ParameterException(spec.commandLine(), "BLOCK_BYTES must be one of " + SweepBlocks.SIZES
                    + ", got " + blockBytes);
        }
        if (step <= 0 || PAGE % step != 0) {
            throw new ParameterException(spec.commandLine(), "STEP must divide " + PAGE + ", got " + step);
        }
        TriviallyCopyable block = SweepBlocks.newBlock(blockBytes);
        MemorySegment heap = MemorySegment.ofArray(new long[blockBytes / Long.BYTES]);
        MemorySegment.copy(SweepImages.pattern(blockBytes), 0, heap, 0, blockBytes);
        int offsets = PAGE / step;
        double[][] best = new double[4][offsets]; // Blit write, Blit read, floor write, floor read
        for (double[] row : best) {
            Arrays.fill(row, Double.MAX_VALUE);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pages = arena.allocate(2L * PAGE + blockBytes, PAGE);
            for (int round = 0; round < WARM_UP_ROUNDS + MEASURED_ROUNDS; round++) {
                for (int i = 0; i < offsets; i++) {
                    MemorySegment segment = pages.asSlice(PAGE + (long) i * step, blockBytes);
                    long t0 = System.nanoTime();
                    for (int k = 0; k < COPIES_PER_BATCH; k++) {
                        block.writeTo(segment, 0);
                    }
                    long t1 = System.nanoTime();
                    for (int k = 0; k < COPIES_PER_BATCH; k++) {
                        block.readFrom(segment, 0);
                    }
                    long t2 = System.nanoTime();
                    for (int k = 0; k < COPIES_PER_BATCH; k++) {
                        MemorySegment.copy(heap, 0, segment, 0, blockBytes);
                    }
                    long t3 = System.nanoTime();
                    for (int k = 0; k < COPIES_PER_BATCH; k++) {
                        MemorySegment.copy(segment, 0, heap, 0, blockBytes);
                    }
                    long t4 = System.nanoTime();
                    if (round >= WARM_UP_ROUNDS) {
                        long[] times = {t1 - t0, t2 - t1, t3 - t2, t4 - t3};
                        for (int v = 0; v < times.length; v++) {
                            best[v][i] = Math.min(best[v][i], times[v] / (double) COPIES_PER_BATCH);
                        }
                    }
                }
            }
            SweepImages.requireSameImage(heap, pages.asSlice(PAGE + (long) (offsets - 1) * step, blockBytes), blockBytes,
                    "last floor write");
        }
        System.out.printf("%d-byte block, minimum ns per copy; segment offset in a 4 KiB page%n", blockBytes);
        System.out.println("offset  blit write  blit read  floor write  floor read");
        for (int i = 0; i < offsets; i++) {
            System.out.printf("%6d  %10.1f  %9.1f  %11.1f  %10.1f%n", i * step, best[0][i], best[1][i], best[2][i], best[3][i]);
        }
        return CliSupport.OK;
    }
}
