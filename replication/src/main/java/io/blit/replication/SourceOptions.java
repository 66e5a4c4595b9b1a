package io.blit.replication;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link ReplicationSource} runs.
 *
 * @param control        {@code host:port} the source receives replicas' requests and acknowledgements on (UDP)
 * @param secret         the shared secret (at least {@value SecretFile#MIN_BYTES} bytes) replicas sign their requests
 *                       with
 * @param aeronDir       the directory of an external Aeron media driver, or null for an embedded one
 * @param replicaTimeout how long a replica may be unreachable before its session ends (it resubscribes later)
 * @param batchBytes     the most record bytes the source packs into one Aeron message (larger records go alone)
 * @param mtu            the MTU of the stream to each replica (Aeron's {@code mtu} channel parameter)
 * @param encrypt        encrypt every batch (AES-256-GCM) to every replica; off: batches are authenticated, not
 *                       encrypted (a replica may still ask for encryption, {@link ReplicaOptions#requireEncryption})
 */
public record SourceOptions(String control, byte[] secret, String aeronDir, Duration replicaTimeout, int batchBytes,
                            int mtu, boolean encrypt) {
    /**
     * Checks the options and copies the secret.
     *
     * @throws IllegalArgumentException if the control endpoint is not {@code host:port}, the secret is too short,
     *                                  {@code batchBytes} is not 1 KiB to 1 MiB, or {@code mtu} is not a multiple of
     *                                  32 from 1408 to 65504
     * @throws NullPointerException     if the secret or the replica timeout is null
     */
    public SourceOptions {
        Endpoint.udp(control);
        Objects.requireNonNull(secret, "secret");
        SecretFile.requireLength(secret);
        Objects.requireNonNull(replicaTimeout, "replicaTimeout");
        if (batchBytes < 1024 || batchBytes > 1 << 20) {
            throw new IllegalArgumentException("batchBytes must be 1 KiB to 1 MiB, got " + batchBytes);
        }
        if (mtu < 1408 || mtu > 65504 || mtu % 32 != 0) {
            throw new IllegalArgumentException("mtu must be a multiple of 32 from 1408 to 65504, got " + mtu);
        }
        secret = secret.clone();
    }

    /**
     * {@return options with an embedded driver, replicas timed out after 5 s, 60 KiB batches, Aeron's default MTU
     * (1408 bytes) and no encryption}
     *
     * @param control {@code host:port} the source receives replicas' requests and acknowledgements on (UDP)
     * @param secret  the shared secret (at least {@value SecretFile#MIN_BYTES} bytes), copied
     */
    public static SourceOptions of(String control, byte[] secret) {
        return new SourceOptions(control, secret, null, Duration.ofSeconds(5), 60 << 10, 1408, false);
    }

    /**
     * {@return these options with another Aeron media driver}
     *
     * @param dir the directory of an external media driver, or null for an embedded one
     */
    public SourceOptions aeronDir(String dir) {
        return new SourceOptions(control, secret, dir, replicaTimeout, batchBytes, mtu, encrypt);
    }

    /**
     * {@return these options with another time a replica may be unreachable before its session ends}
     *
     * @param timeout how long a replica may be unreachable
     */
    public SourceOptions replicaTimeout(Duration timeout) {
        return new SourceOptions(control, secret, aeronDir, timeout, batchBytes, mtu, encrypt);
    }

    /**
     * {@return these options with another batch size}
     *
     * @param bytes the most record bytes in one Aeron message, 1 KiB to 1 MiB (larger records go alone)
     */
    public SourceOptions batchBytes(int bytes) {
        return new SourceOptions(control, secret, aeronDir, replicaTimeout, bytes, mtu, encrypt);
    }

    /**
     * The MTU of the stream to each replica: larger frames cost fewer system calls per byte (on the loopback, whose
     * MTU is 64 KiB, 65504 is the fastest); above the network's MTU the kernel fragments IP packets.
     *
     * @param bytes the MTU, a multiple of 32 from 1408 to 65504
     * @return these options with that MTU
     */
    public SourceOptions mtu(int bytes) {
        return new SourceOptions(control, secret, aeronDir, replicaTimeout, batchBytes, bytes, encrypt);
    }

    /**
     * Encrypt every batch (AES-256-GCM under the session's key) for links that leave a private network. Handshake,
     * acknowledgements and heartbeats are authenticated either way, never encrypted (they carry indices only).
     *
     * @param on whether to encrypt every batch; off: batches are authenticated, not encrypted
     * @return these options with encryption turned on or off
     */
    public SourceOptions encrypt(boolean on) {
        return new SourceOptions(control, secret, aeronDir, replicaTimeout, batchBytes, mtu, on);
    }

    /** {@return a copy of the shared secret} */
    @Override
    public byte[] secret() {
        return secret.clone();
    }
}
