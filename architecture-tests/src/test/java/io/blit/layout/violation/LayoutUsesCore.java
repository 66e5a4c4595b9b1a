package io.blit.layout.violation;

import io.blit.core.BlockCopier;

/** Fixture violating "layout-verifier depends on no other Blit module": a class in io.blit.layout.. uses core. */
public final class LayoutUsesCore {
    private LayoutUsesCore() {
    }

    public static long sizeOf(Class<?> type) {
        return BlockCopier.of(type).byteSize();
    }
}
