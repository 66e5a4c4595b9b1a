package io.blit.replication;

import io.blit.layout.LayoutDescriptor;
import io.blit.queue.MessageTypes;
import io.blit.queue.TypeLayouts;
import io.blit.replication.wire.Subscribe;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How a {@link Replica} follows its source. The one way to configure a replica:
 * {@link #of(String, String, byte[])} with what has no default, then change what differs, each method returning new
 * options with that one option changed:
 *
 * <pre>{@code
 * ReplicaOptions options = ReplicaOptions.of("10.0.0.1:7000", "10.0.0.2:7001", secret)
 *         .sync(true)
 *         .expectedTypes(types);   // the MessageTypes its readers open the replica with
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
 *   <li><b>Values.</b> Two instances are equal when every option is, the secret's bytes included; expected layouts are
 *       equal when their encodings ({@link TypeLayouts#encode()}) are, the type ids and layouts a source is asked
 *       for.</li>
 * </ul>
 */
public final class ReplicaOptions {
    private final Values values;

    private ReplicaOptions(Values values) {
        check(values);
        values.secret = values.secret.clone();
        this.values = values;
    }

    /**
     * {@return options that are not sync, take any layout, use an embedded driver, resubscribe after 2 s of silence,
     * do not require encryption and create files of default modes}
     *
     * @param source   the source's control endpoint, {@code host:port}
     * @param endpoint {@code host:port} this replica receives the source's stream on (UDP)
     * @param secret   the shared secret, at least 32 bytes, copied
     * @throws IllegalArgumentException if an endpoint is not {@code host:port} (a DNS name, an IPv4 address or a
     *                                  bracketed IPv6 address, and a port from 1 to 65535), or the secret is shorter
     *                                  than 32 bytes
     * @throws NullPointerException     if the secret is null
     */
    public static ReplicaOptions of(String source, String endpoint, byte[] secret) {
        Values initial = new Values();
        initial.source = source;
        initial.endpoint = endpoint;
        initial.secret = secret;
        return new ReplicaOptions(initial);
    }

    /** {@return the source's control endpoint, {@code host:port}} */
    public String source() {
        return values.source;
    }

    /** {@return {@code host:port} this replica receives the source's stream on (UDP)} */
    public String endpoint() {
        return values.endpoint;
    }

    /** {@return a copy of the shared secret (at least 32 bytes)} */
    public byte[] secret() {
        return values.secret.clone();
    }

    /** {@return whether the replica forces every batch to disk before acknowledging it} Default false. */
    public boolean sync() {
        return values.sync;
    }

    /**
     * {@return these options with forcing every batch to disk before acknowledging it turned on or off}
     *
     * @param forceBeforeAck whether the replica acknowledges only batches forced to disk ({@link #sync()})
     */
    public ReplicaOptions sync(boolean forceBeforeAck) {
        return with(v -> v.sync = forceBeforeAck);
    }

    /**
     * {@return the message types and layouts the replica's readers expect, or null for any (the default)} The
     * source's newest file must hold exactly them: same type ids, identical layouts.
     */
    public TypeLayouts expectedLayouts() {
        return values.expectedLayouts;
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
        return with(v -> v.expectedLayouts = layouts);
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
    public ReplicaOptions aeronDir(String dir) {
        return with(v -> v.aeronDir = dir);
    }

    /** {@return how long the source may be silent before the replica resubscribes} Default 2 s. */
    public Duration sourceTimeout() {
        return values.sourceTimeout;
    }

    /**
     * {@return these options with another time the source may be silent before the replica resubscribes}
     *
     * @param timeout how long the source may be silent
     * @throws NullPointerException if {@code timeout} is null
     */
    public ReplicaOptions sourceTimeout(Duration timeout) {
        return with(v -> v.sourceTimeout = timeout);
    }

    /**
     * {@return whether the replica asks the source to encrypt the batches (AES-256-GCM) and takes no session that is
     * not encrypted} Default false.
     */
    public boolean requireEncryption() {
        return values.requireEncryption;
    }

    /**
     * {@return these options with encryption required or not}
     *
     * @param on whether to ask the source to encrypt every batch (AES-256-GCM) and refuse a session it does not
     *           encrypt
     */
    public ReplicaOptions requireEncryption(boolean on) {
        return with(v -> v.requireEncryption = on);
    }

    /**
     * {@return whether the replica's directory (if created), its {@code replica-of} marker and its files are readable
     * by its user only} Files {@code rw-------}, directories {@code rwx------}
     * ({@code io.blit.queue.replica.ReplicaWriter#open(Path, String, boolean)}); default false: the process's default
     * modes.
     */
    public boolean privateFiles() {
        return values.privateFiles;
    }

    /**
     * {@return these options with owner-only files and directories turned on or off}
     *
     * @param ownerOnly whether what the replica creates is readable by its user only ({@link #privateFiles()})
     */
    public ReplicaOptions privateFiles(boolean ownerOnly) {
        return with(v -> v.privateFiles = ownerOnly);
    }

    /**
     * {@return whether the replica may start from a primary's directory: a primary rejoining the primary of a newer
     * term after a failover} Default false: a directory that holds a queue of its own is refused, so that a mistyped
     * directory never turns a primary into a replica. With it, {@code Replica.start} makes such a directory (a queue
     * with an id) a replica first ({@code QueueTerms.demote}: its open appenders stop, appends are refused), and the
     * records the source's history does not hold are set aside into a quarantine queue inside it (docs/failover.md).
     */
    public boolean rejoin() {
        return values.rejoin;
    }

    /**
     * {@return these options with rejoining a primary's directory allowed or not ({@link #rejoin()})}
     *
     * @param allowed whether the replica may start from a primary's directory
     */
    public ReplicaOptions rejoin(boolean allowed) {
        return with(v -> v.rejoin = allowed);
    }

    /**
     * {@return whether the replica verifies its own files before it subscribes} With it, {@code Replica.start} runs
     * the verification of {@code blit check} over the replica's segment files (a walk of every record: seconds per
     * GiB), and if it finds damage, sets every record from the first damaged one on aside into a quarantine queue
     * inside the directory (kept, never deleted) and takes them again from its source (docs/replication.md,
     * "A damaged replica"). Default false: a replica trusts the files it wrote and resumes at their end.
     */
    public boolean verifyOnStart() {
        return values.verifyOnStart;
    }

    /**
     * {@return these options with the verification of the replica's files at start turned on or off
     * ({@link #verifyOnStart()})}
     *
     * @param verify whether to verify the replica's files, and fetch damaged records again, when it starts
     */
    public ReplicaOptions verifyOnStart(boolean verify) {
        return with(v -> v.verifyOnStart = verify);
    }

    /** The flags of this replica's SUBSCRIBE. */
    int subscribeFlags() {
        return (values.sync ? Subscribe.FLAG_SYNC : 0) | (values.requireEncryption ? Subscribe.FLAG_ENCRYPT : 0);
    }

    /** The expected layouts' encoding ({@link TypeLayouts#encode()}) for SUBSCRIBE, or null for any layout. */
    byte[] expectedDescriptor() {
        return values.expectedLayouts == null ? null : values.expectedLayouts.encode();
    }

    /**
     * {@return whether {@code other} is replica options with every option equal to this one's, the secret included}
     */
    @Override
    public boolean equals(Object other) {
        if (!(other instanceof ReplicaOptions that)) {
            return false;
        }
        Values a = values;
        Values b = that.values;
        return a.source.equals(b.source) && a.endpoint.equals(b.endpoint) && MessageDigest.isEqual(a.secret, b.secret)
                && a.sync == b.sync && Arrays.equals(expectedDescriptor(), that.expectedDescriptor())
                && Objects.equals(a.aeronDir, b.aeronDir) && a.sourceTimeout.equals(b.sourceTimeout)
                && a.requireEncryption == b.requireEncryption && a.privateFiles == b.privateFiles
                && a.rejoin == b.rejoin && a.verifyOnStart == b.verifyOnStart;
    }

    /** {@return a hash of every option but the secret} */
    @Override
    public int hashCode() {
        return Objects.hash(values.source, values.endpoint, values.sync, Arrays.hashCode(expectedDescriptor()),
                values.aeronDir, values.sourceTimeout, values.requireEncryption, values.privateFiles, values.rejoin, values.verifyOnStart);
    }

    /** {@return every option by name, the secret as its length only} */
    @Override
    public String toString() {
        return "ReplicaOptions[source=" + values.source + ", endpoint=" + values.endpoint + ", secret=("
                + values.secret.length + " bytes), sync=" + values.sync + ", expectedLayouts=" + values.expectedLayouts
                + ", aeronDir=" + values.aeronDir + ", sourceTimeout=" + values.sourceTimeout + ", requireEncryption="
                + values.requireEncryption + ", privateFiles=" + values.privateFiles + ", rejoin=" + values.rejoin
                + ", verifyOnStart=" + values.verifyOnStart + "]";
    }

    /** New options: a copy of these values, changed by {@code change}, then checked. */
    private ReplicaOptions with(Consumer<Values> change) {
        Values copy = values.copy();
        change.accept(copy);
        return new ReplicaOptions(copy);
    }

    /**
     * Every check of every option, in one place: an option method changes one value of valid options, so what it
     * throws is about that value.
     */
    private static void check(Values values) {
        Endpoint.udp(values.source);
        Endpoint.udp(values.endpoint);
        Objects.requireNonNull(values.secret, "secret");
        SecretFile.requireLength(values.secret);
        Objects.requireNonNull(values.sourceTimeout, "sourceTimeout");
    }

    /**
     * The options' state, initialised to the defaults (the endpoints and the secret have none). Mutable so that an
     * option method changes one field of a copy instead of repeating every option; written only before it is handed
     * to the constructor, never after.
     */
    private static final class Values implements Cloneable {
        String source;
        String endpoint;
        /** The constructor replaces it with its own copy, so no two instances, and no caller, share the array. */
        byte[] secret;
        boolean sync;
        TypeLayouts expectedLayouts;
        String aeronDir;
        Duration sourceTimeout = Duration.ofSeconds(2);
        boolean requireEncryption;
        boolean privateFiles;
        boolean rejoin;
        boolean verifyOnStart;

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
