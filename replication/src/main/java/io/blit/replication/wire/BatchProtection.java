package io.blit.replication.wire;

/**
 * How a session protects its BATCHes, stated in its ACCEPT. Every other message is authenticated whatever this is.
 */
public enum BatchProtection {
    /** A tag under the session's key ({@link Sealer#sign}): the default. */
    AUTHENTICATED(0),
    /** AES-256-GCM: the entries encrypted, the tag over them and the envelope's head. */
    ENCRYPTED(1),
    /**
     * No tag checked: only for measuring what the tag costs, and only when the JVMs of both the source and the
     * replica set {@code blit.replication.benchmark.unauthenticatedBatches=true}; never in production (anyone on the
     * path could then inject records).
     */
    UNAUTHENTICATED_FOR_BENCHMARKS(2);

    /** The system property both sides must set for {@link #UNAUTHENTICATED_FOR_BENCHMARKS}. */
    public static final String BENCHMARK_PROPERTY = "blit.replication.benchmark.unauthenticatedBatches";

    final int code;

    BatchProtection(int code) {
        this.code = code;
    }

    /** Whether this JVM allows {@link #UNAUTHENTICATED_FOR_BENCHMARKS}. */
    public static boolean benchmarkPlainAllowed() {
        return Boolean.getBoolean(BENCHMARK_PROPERTY);
    }

    /** The protection of {@code code}, or null if there is none. */
    static BatchProtection of(int code) {
        for (BatchProtection protection : values()) {
            if (protection.code == code) {
                return protection;
            }
        }
        return null;
    }
}
