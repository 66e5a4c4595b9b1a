package io.blit.replication;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link ReplicationSource} runs.
 *
 * @param control        {@code host:port} the source receives replicas' requests and acknowledgements on (UDP)
 * @param secret         the shared secret (at least 16 bytes) replicas sign their requests with
 * @param aeronDir       the directory of an external Aeron media driver, or null for an embedded one
 * @param replicaTimeout how long a replica may be unreachable before its session ends (it resubscribes later)
 * @param batchBytes     the most record bytes the source packs into one Aeron message (larger records go alone)
 */
public record SourceOptions(String control, byte[] secret, String aeronDir, Duration replicaTimeout, int batchBytes) {
    public SourceOptions {
        AeronConnection.udp(control);
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(replicaTimeout, "replicaTimeout");
        if (batchBytes < 1024 || batchBytes > 1 << 20) {
            throw new IllegalArgumentException("batchBytes must be 1 KiB to 1 MiB, got " + batchBytes);
        }
        secret = secret.clone();
    }

    /** An embedded driver, replicas timed out after 5 s, 60 KiB batches. */
    public static SourceOptions of(String control, byte[] secret) {
        return new SourceOptions(control, secret, null, Duration.ofSeconds(5), 60 << 10);
    }

    public SourceOptions aeronDir(String dir) {
        return new SourceOptions(control, secret, dir, replicaTimeout, batchBytes);
    }

    public SourceOptions replicaTimeout(Duration timeout) {
        return new SourceOptions(control, secret, aeronDir, timeout, batchBytes);
    }

    public SourceOptions batchBytes(int bytes) {
        return new SourceOptions(control, secret, aeronDir, replicaTimeout, bytes);
    }

    @Override
    public byte[] secret() {
        return secret.clone();
    }
}
