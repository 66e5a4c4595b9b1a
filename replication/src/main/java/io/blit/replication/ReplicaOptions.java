package io.blit.replication;

import io.blit.layout.LayoutDescriptor;
import io.blit.queue.MessageTypes;
import io.blit.queue.TypeLayouts;
import io.blit.replication.wire.Subscribe;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Replica} follows its source.
 *
 * @param source         the source's control endpoint, {@code host:port}
 * @param endpoint       {@code host:port} this replica receives the source's stream on (UDP)
 * @param secret         the shared secret (at least {@value SecretFile#MIN_BYTES} bytes)
 * @param sync           force every batch to disk before acknowledging it
 * @param expectedLayouts the message types and layouts the replica's readers expect (the source's newest file must
 *                       hold exactly them: same type ids, identical layouts), or null for any
 * @param aeronDir       the directory of an external Aeron media driver, or null for an embedded one
 * @param sourceTimeout  how long the source may be silent before the replica resubscribes
 * @param requireEncryption ask the source to encrypt the batches (AES-256-GCM), and take no session that is not
 *                       encrypted
 * @param privateFiles   whether the replica's directory (if created), its {@code replica-of} marker and its files are
 *                       readable by its user only ({@code io.blit.queue.replica.ReplicaWriter#open(Path, String, boolean)}:
 *                       files {@code rw-------}, directories {@code rwx------}); default false: the process's default
 *                       modes
 */
public record ReplicaOptions(String source, String endpoint, byte[] secret, boolean sync, TypeLayouts expectedLayouts,
                             String aeronDir, Duration sourceTimeout, boolean requireEncryption, boolean privateFiles) {
    /**
     * Checks the options and copies the secret.
     *
     * @throws IllegalArgumentException if an endpoint is not {@code host:port} (a DNS name, an IPv4 address or a
     *                                  bracketed IPv6 address, and a port from 1 to 65535), or the secret is too short
     * @throws NullPointerException     if the secret or the source timeout is null
     */
    public ReplicaOptions {
        Endpoint.udp(source);
        Endpoint.udp(endpoint);
        Objects.requireNonNull(secret, "secret");
        SecretFile.requireLength(secret);
        Objects.requireNonNull(sourceTimeout, "sourceTimeout");
        secret = secret.clone();
    }

    /**
     * Options that do not require encryption and whose files get the process's default modes.
     *
     * @param source          the source's control endpoint, {@code host:port}
     * @param endpoint        {@code host:port} this replica receives the source's stream on (UDP)
     * @param secret          the shared secret (at least {@value SecretFile#MIN_BYTES} bytes), copied
     * @param sync            force every batch to disk before acknowledging it
     * @param expectedLayouts the message types and layouts the replica's readers expect, or null for any
     * @param aeronDir        the directory of an external Aeron media driver, or null for an embedded one
     * @param sourceTimeout   how long the source may be silent before the replica resubscribes
     */
    public ReplicaOptions(String source, String endpoint, byte[] secret, boolean sync, TypeLayouts expectedLayouts,
                          String aeronDir, Duration sourceTimeout) {
        this(source, endpoint, secret, sync, expectedLayouts, aeronDir, sourceTimeout, false, false);
    }

    /**
     * {@return options that are not sync, take any layout, use an embedded driver, resubscribe after 2 s of silence
     * and create files of default modes}
     *
     * @param source   the source's control endpoint, {@code host:port}
     * @param endpoint {@code host:port} this replica receives the source's stream on (UDP)
     * @param secret   the shared secret (at least {@value SecretFile#MIN_BYTES} bytes), copied
     */
    public static ReplicaOptions of(String source, String endpoint, byte[] secret) {
        return new ReplicaOptions(source, endpoint, secret, false, null, null, Duration.ofSeconds(2), false, false);
    }

    /**
     * {@return these options with forcing every batch to disk before acknowledging it turned on or off}
     *
     * @param forceBeforeAck whether the replica acknowledges only batches forced to disk ({@link #sync()})
     */
    public ReplicaOptions sync(boolean forceBeforeAck) {
        return new ReplicaOptions(source, endpoint, secret, forceBeforeAck, expectedLayouts, aeronDir, sourceTimeout,
                requireEncryption, privateFiles);
    }

    /**
     * {@return these options expecting a queue of one message class of {@code layout} (type id 0)}
     *
     * @param layout the message class's layout, or null for any layout
     */
    public ReplicaOptions expectedLayout(LayoutDescriptor layout) {
        return expectedLayouts(layout == null ? null : TypeLayouts.of(layout));
    }

    /**
     * {@return these options expecting a queue of exactly {@code types} (ids and layouts)}
     *
     * @param types the message types the replica's readers use, or null for any
     */
    public ReplicaOptions expectedTypes(MessageTypes<?> types) {
        return expectedLayouts(types == null ? null : TypeLayouts.of(types));
    }

    /**
     * {@return these options expecting exactly {@code layouts}}
     *
     * @param layouts the type ids and layouts the source's newest file must hold, or null for any
     */
    public ReplicaOptions expectedLayouts(TypeLayouts layouts) {
        return new ReplicaOptions(source, endpoint, secret, sync, layouts, aeronDir, sourceTimeout, requireEncryption,
                privateFiles);
    }

    /**
     * {@return these options with another Aeron media driver}
     *
     * @param dir the directory of an external media driver, or null for an embedded one
     */
    public ReplicaOptions aeronDir(String dir) {
        return new ReplicaOptions(source, endpoint, secret, sync, expectedLayouts, dir, sourceTimeout, requireEncryption,
                privateFiles);
    }

    /**
     * {@return these options with another time the source may be silent before the replica resubscribes}
     *
     * @param timeout how long the source may be silent
     */
    public ReplicaOptions sourceTimeout(Duration timeout) {
        return new ReplicaOptions(source, endpoint, secret, sync, expectedLayouts, aeronDir, timeout, requireEncryption,
                privateFiles);
    }

    /**
     * {@return these options with encryption required or not}
     *
     * @param on whether to ask the source to encrypt every batch (AES-256-GCM) and refuse a session it does not
     *           encrypt
     */
    public ReplicaOptions requireEncryption(boolean on) {
        return new ReplicaOptions(source, endpoint, secret, sync, expectedLayouts, aeronDir, sourceTimeout, on,
                privateFiles);
    }

    /**
     * {@return these options with owner-only files and directories turned on or off}
     *
     * @param ownerOnly whether what the replica creates is readable by its user only ({@link #privateFiles()})
     */
    public ReplicaOptions privateFiles(boolean ownerOnly) {
        return new ReplicaOptions(source, endpoint, secret, sync, expectedLayouts, aeronDir, sourceTimeout,
                requireEncryption, ownerOnly);
    }

    /** The flags of this replica's SUBSCRIBE. */
    int subscribeFlags() {
        return (sync ? Subscribe.FLAG_SYNC : 0) | (requireEncryption ? Subscribe.FLAG_ENCRYPT : 0);
    }

    /** The expected layouts' encoding ({@link TypeLayouts#encode()}) for SUBSCRIBE, or null for any layout. */
    byte[] expectedDescriptor() {
        return expectedLayouts == null ? null : expectedLayouts.encode();
    }

    /** {@return a copy of the shared secret} */
    @Override
    public byte[] secret() {
        return secret.clone();
    }
}
