package io.blit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.blit.layout.shapes.Shapes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class BlockCopierSmokeTest {
    @Test
    void roundTripsOddTail() {
        BlockCopier<Shapes.OddTail> copier = BlockCopier.of(Shapes.OddTail.class);
        Shapes.OddTail in = new Shapes.OddTail();
        in.a = -1; in.b = 7; in.c = 3; in.d = 9;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(64);
            copier.writeTo(in, seg, 3);
            Shapes.OddTail out = new Shapes.OddTail();
            copier.readFrom(seg, 3, out);
            assertEquals(in.a, out.a);
            assertEquals(in.b, out.b);
            assertEquals(in.c, out.c);
            assertEquals(in.d, out.d);
        }
    }
}
