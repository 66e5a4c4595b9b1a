package io.blit.layout;

import io.blit.layout.internal.UnsafeAccess;
import io.blit.layout.shapes.Shapes;

/**
 * Main class run in forked JVMs: prints whether Unsafe memory access is allowed, then
 * {@link BlockLayout#describe()} (every field's offset, the padding and the fingerprint) of every
 * class of {@link Shapes#ALL}.
 */
public final class PrintLayouts {
    private PrintLayouts() {
    }

    public static void main(String[] args) {
        System.out.println("unsafe-memory-access-allowed=" + UnsafeAccess.memoryAccessAllowed());
        System.out.print(allLayouts());
    }

    /** The descriptions of every shape's layout in this JVM, concatenated. */
    static String allLayouts() {
        StringBuilder out = new StringBuilder();
        for (Class<?> shape : Shapes.ALL) {
            out.append(LayoutVerifier.verify(shape).describe());
        }
        return out.toString();
    }
}
