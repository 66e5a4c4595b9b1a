package io.blit.replication;

import java.security.MessageDigest;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How a {@link ReplicationSource} runs. The one way to configure a source: {@link #of(String, byte[])} with what has
 * no default, then change what differs, each method returning new options with that one option changed:
 *
 * <pre>{@code
 * SourceOptions options = SourceOptions.of("10.0.0.1:7000", secret)
 *         .aeronDir("/dev/shm/aeron")
 *         .encrypt(true);
 * }</pre>
 *
 * <p>An option added later comes with a default that keeps the behaviour of the options without it, so code written
 * against these methods keeps compiling and linking: there is no public constructor whose parameter list would grow.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li><b>Immutable and thread-safe.</b> No method changes an instance; each option method returns a new one and
 *       leaves its receiver as it was. An instance may be shared between threads without synchronisation, even
 *       published by a data race: its state is reachable only through a final field and never written after
 *       construction.</li>
 *   <li><b>Checked when set.</b> {@link #of} and every option method throw on a value out of its bounds, so an
 *       instance always holds valid options.</li>
 *   <li><b>The secret stays inside.</b> Each instance holds its own copy of the secret; {@link #secret()} returns
 *       another copy. {@link #equals} compares it in constant time; {@link #hashCode()} and {@link #toString()} leave
 *       it out (the text shows its length only), so neither a hash table nor a log line reveals it.</li>
 *   <li><b>Values.</b> Two instances are equal when every option is, the secret's bytes included.</li>
 * </ul>
 */
public final class SourceOptions {
    private final Values values;

    private SourceOptions(Values values) {
        check(values);
        values.secret = values.secret.clone();
        this.values = values;
    }

    /**
     * {@return options with an embedded driver, replicas timed out after 5 s, 60 KiB batches, Aeron's default MTU
     * (1408 bytes) and no encryption}
     *
     * @param control {@code host:port} the source receives replicas' requests and acknowledgements on (UDP)
     * @param secret  the shared secret, at least 32 bytes, copied
     * @throws IllegalArgumentException if the control endpoint is not {@code host:port} (a DNS name, an IPv4 address or
     *                                  a bracketed IPv6 address, and a port from 1 to 65535), or the secret is shorter
     *                                  than 32 bytes
     * @throws NullPointerException     if the secret is null
     */
    public static SourceOptions of(String control, byte[] secret) {
        Values initial = new Values();
        initial.control = control;
        initial.secret = secret;
        return new SourceOptions(initial);
    }

    /** {@return {@code host:port} the source receives replicas' requests and acknowledgements on (UDP)} */
    public String control() {
        return values.control;
    }

    /** {@return a copy of the shared secret replicas sign their requests with (at least 32 bytes)} */
    public byte[] secret() {
        return values.secret.clone();
    }

    /** {@return the directory of an external Aeron media driver, or null for an embedded one (the default)} */
    public String aeronDir() {
        return values.aeronDir;
    }

    /**
     * {@return these options with another Aeron media driver}
     *
     * @param dir the directory of an external media driver, or null for an embedded one
     */
    public SourceOptions aeronDir(String dir) {
        return with(v -> v.aeronDir = dir);
    }

    /**
     * {@return how long a replica may be unreachable before its session ends (it resubscribes later)} Default 5 s.
     */
    public Duration replicaTimeout() {
        return values.replicaTimeout;
    }

    /**
     * {@return these options with another time a replica may be unreachable before its session ends}
     *
     * @param timeout how long a replica may be unreachable
     * @throws NullPointerException if {@code timeout} is null
     */
    public SourceOptions replicaTimeout(Duration timeout) {
        return with(v -> v.replicaTimeout = timeout);
    }

    /**
     * {@return the most record bytes the source packs into one Aeron message (larger records go alone)} 1 KiB to
     * 1 MiB; default 60 KiB.
     */
    public int batchBytes() {
        return values.batchBytes;
    }

    /**
     * {@return these options with another batch size}
     *
     * @param bytes the most record bytes in one Aeron message, 1 KiB to 1 MiB (larger records go alone)
     * @throws IllegalArgumentException if {@code bytes} is not 1 KiB to 1 MiB
     */
    public SourceOptions batchBytes(int bytes) {
        return with(v -> v.batchBytes = bytes);
    }

    /**
     * {@return the MTU of the stream to each replica (Aeron's {@code mtu} channel parameter)} A multiple of 32 from
     * 1408 to 65504; default 1408, Aeron's.
     */
    public int mtu() {
        return values.mtu;
    }

    /**
     * The MTU of the stream to each replica: larger frames cost fewer system calls per byte (on the loopback, whose
     * MTU is 64 KiB, 65504 is the fastest); above the network's MTU the kernel fragments IP packets.
     *
     * @param bytes the MTU, a multiple of 32 from 1408 to 65504
     * @return these options with that MTU
     * @throws IllegalArgumentException if {@code bytes} is not a multiple of 32 from 1408 to 65504
     */
    public SourceOptions mtu(int bytes) {
        return with(v -> v.mtu = bytes);
    }

    /**
     * {@return whether every batch is encrypted (AES-256-GCM) to every replica} Default false: batches are
     * authenticated, not encrypted (a replica may still ask for encryption, {@link ReplicaOptions#requireEncryption}).
     */
    public boolean encrypt() {
        return values.encrypt;
    }

    /**
     * Encrypt every batch (AES-256-GCM under the session's key) for links that leave a private network. Handshake,
     * acknowledgements and heartbeats are authenticated either way, never encrypted (they carry indices only).
     *
     * @param on whether to encrypt every batch; off: batches are authenticated, not encrypted
     * @return these options with encryption turned on or off
     */
    public SourceOptions encrypt(boolean on) {
        return with(v -> v.encrypt = on);
    }

    /**
     * {@return the endpoints replicas name this source by, canonical} Default: none given, so the control endpoint
     * alone. A replica's request names the control endpoint it sends to, and the source takes only a request that names
     * one of these ({@link DropReason#OTHER_SOURCE} otherwise): a request forwarded to another source that shares the
     * secret is dropped there.
     */
    public java.util.List<String> advertised() {
        return values.advertised.isEmpty() ? java.util.List.of(Endpoint.canonical(values.control)) : values.advertised;
    }

    /**
     * The endpoints replicas send to, when they are not the control endpoint as given: a source that binds a wildcard
     * address ({@code 0.0.0.0:7000}), sits behind an address translation, or is reached by several names lists each
     * name its replicas use ({@code host:port}, spelled as the replicas spell it: no name is resolved).
     *
     * @param endpoints one or more {@code host:port}, replacing any given before
     * @return these options with those names
     * @throws IllegalArgumentException if there is none, or one is not {@code host:port}
     */
    public SourceOptions advertise(String... endpoints) {
        if (endpoints.length == 0) {
            throw new IllegalArgumentException("advertise at least one endpoint");
        }
        java.util.List<String> canonical = new java.util.ArrayList<>();
        for (String endpoint : endpoints) {
            canonical.add(Endpoint.canonical(endpoint));
        }
        return with(v -> v.advertised = java.util.List.copyOf(canonical));
    }

    /** {@return whether {@code other} is source options with every option equal to this one's, the secret included} */
    @Override
    public boolean equals(Object other) {
        if (!(other instanceof SourceOptions that)) {
            return false;
        }
        Values a = values;
        Values b = that.values;
        return a.control.equals(b.control) && MessageDigest.isEqual(a.secret, b.secret)
                && Objects.equals(a.aeronDir, b.aeronDir) && a.replicaTimeout.equals(b.replicaTimeout)
                && a.batchBytes == b.batchBytes && a.mtu == b.mtu && a.encrypt == b.encrypt
                && a.advertised.equals(b.advertised);
    }

    /** {@return a hash of every option but the secret} */
    @Override
    public int hashCode() {
        return Objects.hash(values.control, values.aeronDir, values.replicaTimeout, values.batchBytes, values.mtu,
                values.encrypt, values.advertised);
    }

    /** {@return every option by name, the secret as its length only} */
    @Override
    public String toString() {
        return "SourceOptions[control=" + values.control + ", secret=(" + values.secret.length + " bytes), aeronDir="
                + values.aeronDir + ", replicaTimeout=" + values.replicaTimeout + ", batchBytes=" + values.batchBytes
                + ", mtu=" + values.mtu + ", encrypt=" + values.encrypt + ", advertised=" + advertised() + "]";
    }

    /** New options: a copy of these values, changed by {@code change}, then checked. */
    private SourceOptions with(Consumer<Values> change) {
        Values copy = values.copy();
        change.accept(copy);
        return new SourceOptions(copy);
    }

    /**
     * Every check of every option, in one place: an option method changes one value of valid options, so what it
     * throws is about that value.
     */
    private static void check(Values values) {
        Endpoint.udp(values.control);
        Objects.requireNonNull(values.secret, "secret");
        SecretFile.requireLength(values.secret);
        Objects.requireNonNull(values.replicaTimeout, "replicaTimeout");
        if (values.batchBytes < 1024 || values.batchBytes > 1 << 20) {
            throw new IllegalArgumentException("batchBytes must be 1 KiB to 1 MiB, got " + values.batchBytes);
        }
        if (values.mtu < 1408 || values.mtu > 65504 || values.mtu % 32 != 0) {
            throw new IllegalArgumentException("mtu must be a multiple of 32 from 1408 to 65504, got " + values.mtu);
        }
    }

    /**
     * The options' state, initialised to the defaults (the control endpoint and the secret have none). Mutable so that
     * an option method changes one field of a copy instead of repeating every option; written only before it is
     * handed to the constructor, never after.
     */
    private static final class Values implements Cloneable {
        String control;
        /** The constructor replaces it with its own copy, so no two instances, and no caller, share the array. */
        byte[] secret;
        String aeronDir;
        Duration replicaTimeout = Duration.ofSeconds(5);
        int batchBytes = 60 << 10;
        int mtu = 1408;
        boolean encrypt;
        /** Canonical; empty: the control endpoint. */
        java.util.List<String> advertised = java.util.List.of();

        /** A field-by-field copy. */
        Values copy() {
            try {
                return (Values) clone();
            } catch (CloneNotSupportedException impossible) {
                throw new AssertionError(impossible);
            }
        }
    }
}
