package io.blit.stress.violation;

import io.blit.core.internal.CopyErrors;

/**
 * Fixture violating "internal packages stay in their module": the stress tests' exception covers
 * io.blit.queue.internal only, not core's internals.
 */
public final class StressUsesCoreInternal {
    private StressUsesCoreInternal() {
    }

    public static Class<?> errors() {
        return CopyErrors.class;
    }
}
