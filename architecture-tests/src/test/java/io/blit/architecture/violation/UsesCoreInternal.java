package io.blit.architecture.violation;

import io.blit.core.internal.CopyErrors;

/** Fixture violating "internal packages stay in their module": uses core's internal package from outside core. */
public final class UsesCoreInternal {
    private UsesCoreInternal() {
    }

    public static RuntimeException error() {
        return CopyErrors.outOfBounds(0, 8, 4);
    }
}
