package io.blit.architecture.violation;

import io.blit.replication.wire.Wire;

/**
 * Fixture violating "only exported packages cross modules": a class outside replication uses its unexported wire
 * package.
 */
public final class UsesReplicationWire {
    private UsesReplicationWire() {
    }

    public static int protocolVersion() {
        return Wire.VERSION;
    }
}
