package io.blit.architecture.violation;

import io.blit.replication.wire.BatchProtection;

/**
 * Fixture violating "only exported packages cross modules": a class outside replication uses its unexported wire
 * package, as the benchmarks' replication throughput harness once read a property name from it.
 */
public final class UsesReplicationWire {
    private UsesReplicationWire() {
    }

    public static String property() {
        return BatchProtection.BENCHMARK_PROPERTY;
    }
}
