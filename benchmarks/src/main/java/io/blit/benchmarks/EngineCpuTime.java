package io.blit.benchmarks;

import io.blit.core.BlockCopier;
import io.blit.core.TriviallyCopyable;
import io.blit.tools.messages.BookUpdate;
import io.blit.tools.messages.MarketData;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The copy engines' cost in thread CPU time rather than wall time: on a 2-vCPU host shared with other
 * builds, a JMH score also counts the time the thread spends descheduled, which made wall-time
 * comparisons of 10 ns operations swing by ±50 %; the CPU time a thread is charged does not include
 * that. One JVM per engine, block and segment kind (as a JMH fork: one JIT profile); the default engine
 * comes from {@code -Dio.blit.core.engine}.
 *
 * <p>Usage: {@code EngineCpuTime BLOCK KIND OP [seconds]} with BLOCK {@code MarketData|BookUpdate|Longs512},
 * KIND {@code confined|shared|global|mapped}, OP {@code write|read}. Warms up for 4 s (the 512-field
 * class's generated code needs seconds to reach C2), then measures 40 batches of about 25 ms and prints one
 * line: engine, block, kind, op, median and minimum CPU ns per copy. Each copy goes to one of 8 slots in
 * turn, so that the JIT cannot hoist a copy out of the loop.
 */
public final class EngineCpuTime {
    private static final int SLOTS = 8;
    private static final int SLOT_BYTES = 4352;

    private EngineCpuTime() {
    }

    public static void main(String[] args) throws IOException {
        String block = args[0];
        String kind = args[1];
        boolean write = args[2].equals("write");
        Arena arena = switch (kind) {
            case "confined", "mapped" -> Arena.ofConfined();
            case "shared" -> Arena.ofShared();
            case "global" -> Arena.global();
            default -> throw new IllegalArgumentException("kind " + kind);
        };
        MemorySegment segment;
        Path file = null;
        if (kind.equals("mapped")) {
            file = Files.createTempFile("blit-cpu", ".bin");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                segment = channel.map(FileChannel.MapMode.READ_WRITE, 0, (long) SLOTS * SLOT_BYTES, arena);
            }
        } else {
            segment = arena.allocate((long) SLOTS * SLOT_BYTES, Long.BYTES);
        }
        TriviallyCopyable message = switch (block) {
            case "MarketData" -> new MarketData().fillFor(42, 42_000);
            case "BookUpdate" -> new BookUpdate().fillFor(42, 42_000);
            case "Longs512" -> SweepBlocks.newBlock(4096);
            default -> throw new IllegalArgumentException("block " + block);
        };
        long[] offsets = new long[SLOTS];
        for (int i = 0; i < SLOTS; i++) {
            offsets[i] = 64 + (long) i * SLOT_BYTES;
            message.writeTo(segment, offsets[i]);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int batch = block.equals("Longs512") ? 100_000 : 1_000_000;
        long warmEnd = System.nanoTime() + 4_000_000_000L;
        while (System.nanoTime() < warmEnd) {
            run(message, segment, offsets, batch, write);
        }
        double[] perOp = new double[40];
        for (int b = 0; b < perOp.length; b++) {
            long start = threads.getCurrentThreadCpuTime();
            run(message, segment, offsets, batch, write);
            perOp[b] = (double) (threads.getCurrentThreadCpuTime() - start) / batch;
        }
        Arrays.sort(perOp);
        System.out.printf("%s %s %s %s median %.2f min %.2f%n", BlockCopier.of(message.getClass()).engine(), block, kind,
                write ? "write" : "read", perOp[perOp.length / 2], perOp[0]);
        if (!kind.equals("global")) {
            arena.close();
        }
        if (file != null) {
            Files.deleteIfExists(file);
        }
    }

    private static void run(TriviallyCopyable message, MemorySegment segment, long[] offsets, int count, boolean write) {
        if (write) {
            for (int i = 0; i < count; i++) {
                message.writeTo(segment, offsets[i & (SLOTS - 1)]);
            }
        } else {
            for (int i = 0; i < count; i++) {
                message.readFrom(segment, offsets[i & (SLOTS - 1)]);
            }
        }
    }
}
