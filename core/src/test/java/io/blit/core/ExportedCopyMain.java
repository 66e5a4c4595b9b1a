package io.blit.core;

import io.blit.layout.shapes.Shapes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Child JVM main for {@link UnsafeQuietTest} on a JVM that exports {@code jdk.internal.misc} to Blit: copies through
 * every path (the default engine by address on a confined segment, checked on a shared and a heap one, and the word
 * loop), then prints the Unsafe the accessors use, the default engine and the sum of the values read back.
 */
public final class ExportedCopyMain {
    private ExportedCopyMain() {
    }

    public static void main(String[] args) {
        BlockCopier<Shapes.OddTail> copier = BlockCopier.of(Shapes.OddTail.class);
        BlockCopier<Shapes.OddTail> wordLoop = BlockCopier.of(Shapes.OddTail.class, CopyEngine.WORD_LOOP);
        Shapes.OddTail source = new Shapes.OddTail();
        source.a = 42;
        Shapes.OddTail target = new Shapes.OddTail();
        long sum = 0;
        try (Arena confined = Arena.ofConfined(); Arena shared = Arena.ofShared()) {
            for (MemorySegment segment : new MemorySegment[] {confined.allocate(64), shared.allocate(64), MemorySegment.ofArray(new long[8])}) {
                for (BlockCopier<Shapes.OddTail> each : java.util.List.of(copier, wordLoop)) {
                    each.writeTo(source, segment, 3);
                    target.a = 0;
                    each.readFrom(segment, 3, target);
                    sum += target.a;
                }
            }
        }
        System.out.println("unsafe " + CopyEngine.unsafeAccess());
        System.out.println("engine " + copier.engine());
        System.out.println("copied " + sum);
    }
}
