package io.blit.architecture.violation;

import io.blit.layout.internal.UnsafeAccess;

/**
 * Fixture violating "internal packages stay in their module": uses io.blit.layout.internal from a module
 * other than core, the only one it is exported to.
 */
public final class UsesLayoutInternal {
    private UsesLayoutInternal() {
    }

    public static long firstWord(Object object) {
        return UnsafeAccess.getLong(object, 16);
    }
}
