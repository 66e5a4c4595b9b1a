package io.blit.replication;

/**
 * A replica as its source sees it.
 *
 * @param peer      the address its requests came from
 * @param endpoint  the data endpoint the source streams to, in one spelling (host in lower case, numbers without
 *                  leading zeros, IPv6 in full form; no name resolved)
 * @param committed it acknowledged holding every index below this
 * @param forced    it acknowledged having forced every index below this to disk (sync replicas)
 * @param sync      whether it forces before acknowledging ({@code awaitReplicated} then counts {@code forced})
 * @param serving   whether its session runs now
 * @param replicaId the replica's identity: created once with its directory, the same across its restarts and
 *                  endpoints; the source serves one session per identity
 */
public record ReplicaStatus(String peer, String endpoint, long committed, long forced, boolean sync, boolean serving,
                            long replicaId) {
}
