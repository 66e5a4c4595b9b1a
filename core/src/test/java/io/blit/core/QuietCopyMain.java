package io.blit.core;

import io.blit.layout.shapes.Shapes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** Child JVM main for {@link UnsafeQuietTest}: copies through every path (by address and checked) and prints one line. */
public final class QuietCopyMain {
    private QuietCopyMain() {
    }

    public static void main(String[] args) {
        BlockCopier<Shapes.OddTail> copier = BlockCopier.of(Shapes.OddTail.class);
        Shapes.OddTail source = new Shapes.OddTail();
        source.a = 42;
        Shapes.OddTail target = new Shapes.OddTail();
        try (Arena confined = Arena.ofConfined(); Arena shared = Arena.ofShared()) {
            for (MemorySegment segment : new MemorySegment[] {confined.allocate(64), shared.allocate(64), MemorySegment.ofArray(new long[8])}) {
                copier.writeTo(source, segment, 3);
                copier.readFrom(segment, 3, target);
            }
        }
        BlockCopier<Shapes.OddTail> wordLoop = BlockCopier.of(Shapes.OddTail.class, CopyEngine.WORD_LOOP);
        try (Arena confined = Arena.ofConfined()) {
            MemorySegment segment = confined.allocate(64);
            wordLoop.writeTo(source, segment, 0);
            wordLoop.readFrom(segment, 0, target);
        }
        System.out.println("copied " + target.a);
    }
}
