package io.blit.core;

import io.blit.layout.shapes.Shapes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Child JVM main for {@link UnsafeQuietTest} under {@code --sun-misc-unsafe-memory-access=deny}: copies
 * with the default copier through a confined, a shared and a heap segment, then asks for the
 * {@code WORD_LOOP} engine; prints the engine, the value read back and the refusal's type.
 */
public final class DenyCopyMain {
    private DenyCopyMain() {
    }

    public static void main(String[] args) {
        BlockCopier<Shapes.OddTail> copier = BlockCopier.of(Shapes.OddTail.class);
        Shapes.OddTail source = new Shapes.OddTail();
        source.a = 42;
        Shapes.OddTail target = new Shapes.OddTail();
        long sum = 0;
        try (Arena confined = Arena.ofConfined(); Arena shared = Arena.ofShared()) {
            for (MemorySegment segment : new MemorySegment[] {confined.allocate(64), shared.allocate(64), MemorySegment.ofArray(new long[8])}) {
                copier.writeTo(source, segment, 3);
                target.a = 0;
                copier.readFrom(segment, 3, target);
                sum += target.a;
            }
        }
        System.out.println("engine " + copier.engine());
        System.out.println("copied " + sum);
        try {
            BlockCopier.of(Shapes.OddTail.class, CopyEngine.WORD_LOOP);
            System.out.println("WORD_LOOP accepted");
        } catch (UnsupportedOperationException e) {
            System.out.println("WORD_LOOP refused");
        }
    }
}
