package io.blit.architecture.violation;

import io.blit.replication.wire.Wire;

/**
 * Fixture violating "only exported packages cross modules": a class outside replication uses its unexported wire
 * package.
 */
public final class UsesReplicationWire {
    private UsesReplicationWire() {
    }

    /** A real reference (a class literal): a use of a constant such as {@code Wire.VERSION} is inlined by javac. */
    public static Class<?> wire() {
        return Wire.class;
    }
}
