package io.blit.failover.zookeeper;

import io.blit.replication.ReplicaOptions;
import io.blit.replication.SourceOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * How a {@link FailoverNode} runs: its queue directory, its id in the group, how it serves the queue when it is the
 * primary and how it follows another node, where the group lives in ZooKeeper and the ZooKeeper timeouts. The one way
 * to configure a node: {@link #of} with what has no default, then change what differs, each method returning new
 * options with that one option changed:
 *
 * <pre>{@code
 * FailoverOptions options = FailoverOptions.of(Path.of("/data/orders"), "node-a", "zk1:2181,zk2:2181,zk3:2181",
 *                 "/blit/orders", SourceOptions.of("10.0.0.1:7000", secret),
 *                 primary -> ReplicaOptions.of(primary, "10.0.0.1:7001", secret))
 *         .sessionTimeout(Duration.ofSeconds(4));
 * }</pre>
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li><b>Immutable and thread-safe.</b> No method changes an instance; each option method returns a new one. The
 *       replica-options function is called from the node's thread only, once per primary it follows.</li>
 *   <li><b>Checked when set.</b> {@link #of} and every option method throw on a value out of its bounds.</li>
 *   <li><b>The node's endpoint</b>, which the primary publishes for the others to follow, is the first name of its
 *       source options' {@link SourceOptions#advertised()} (the control endpoint unless others are advertised).</li>
 * </ul>
 */
public final class FailoverOptions {
    private final Values values;

    private FailoverOptions(Values values) {
        check(values);
        this.values = values;
    }

    /**
     * {@return options with a session timeout of 10 s and a connection timeout of 5 s}
     *
     * @param dir           the node's queue directory (created if missing): a queue the application created, a
     *                      replica, or empty
     * @param nodeId        the node's id in the group, unique among its nodes: letters, digits, {@code . _ -}, 1 to
     *                      64 characters
     * @param connectString ZooKeeper's servers, {@code host:port,host:port} (a chroot suffix is allowed)
     * @param groupPath     the group's znode, an absolute ZooKeeper path ({@code /blit/orders}): one per replicated
     *                      queue; the node creates it and its children
     * @param source        how the node serves its queue while it is the primary: its control endpoint and secret
     * @param replicaFor    the replica options to follow the primary whose control endpoint is given: this node's
     *                      data endpoint and the secret; the node adds {@code rejoin(true)}
     * @throws IllegalArgumentException if the node id or the path is malformed, or the connect string empty
     * @throws NullPointerException     if an argument is null
     */
    public static FailoverOptions of(Path dir, String nodeId, String connectString, String groupPath,
                                     SourceOptions source, Function<String, ReplicaOptions> replicaFor) {
        Values initial = new Values();
        initial.dir = dir;
        initial.nodeId = nodeId;
        initial.connectString = connectString;
        initial.groupPath = groupPath;
        initial.source = source;
        initial.replicaFor = replicaFor;
        return new FailoverOptions(initial);
    }

    /** {@return the node's queue directory} */
    public Path dir() {
        return values.dir;
    }

    /** {@return the node's id in the group} */
    public String nodeId() {
        return values.nodeId;
    }

    /** {@return ZooKeeper's servers, as given} */
    public String connectString() {
        return values.connectString;
    }

    /** {@return the group's znode} */
    public String groupPath() {
        return values.groupPath;
    }

    /** {@return how the node serves its queue while it is the primary} */
    public SourceOptions source() {
        return values.source;
    }

    /**
     * {@return the replica options to follow the primary at {@code primaryControl}, with rejoining allowed}
     *
     * @param primaryControl the primary's control endpoint, {@code host:port}
     */
    public ReplicaOptions replicaFor(String primaryControl) {
        return values.replicaFor.apply(primaryControl).rejoin(true);
    }

    /** {@return the endpoint this node publishes when it is the primary: its source's first advertised name} */
    public String endpoint() {
        return values.source.advertised().getFirst();
    }

    /**
     * {@return the ZooKeeper session timeout the node asks for} Default 10 s. ZooKeeper grants it within its servers'
     * bounds (by default 2 to 20 of their ticks: 4 s to 40 s with the 2 s tick of ZooKeeper's sample configuration). A primary cut off from ZooKeeper learns of it after about
     * two thirds of it (its client's read timeout) and fences itself then; another node is elected once the servers
     * expire the session, after all of it.
     */
    public Duration sessionTimeout() {
        return values.sessionTimeout;
    }

    /**
     * {@return these options with another session timeout}
     *
     * @param timeout the session timeout, 1 s to 10 min
     * @throws IllegalArgumentException if it is out of bounds
     */
    public FailoverOptions sessionTimeout(Duration timeout) {
        return with(v -> v.sessionTimeout = timeout);
    }

    /** {@return how long the node's client tries to connect before an operation fails} Default 5 s. */
    public Duration connectionTimeout() {
        return values.connectionTimeout;
    }

    /**
     * {@return these options with another connection timeout}
     *
     * @param timeout the connection timeout, 100 ms to 10 min
     * @throws IllegalArgumentException if it is out of bounds
     */
    public FailoverOptions connectionTimeout(Duration timeout) {
        return with(v -> v.connectionTimeout = timeout);
    }

    /** {@return every option by name (the secrets are the source and replica options', shown as their length)} */
    @Override
    public String toString() {
        return "FailoverOptions[dir=" + values.dir + ", nodeId=" + values.nodeId + ", connectString="
                + values.connectString + ", groupPath=" + values.groupPath + ", source=" + values.source
                + ", sessionTimeout=" + values.sessionTimeout + ", connectionTimeout=" + values.connectionTimeout + "]";
    }

    private FailoverOptions with(Consumer<Values> change) {
        Values copy = values.copy();
        change.accept(copy);
        return new FailoverOptions(copy);
    }

    /** Every check of every option, in one place. */
    private static void check(Values values) {
        Objects.requireNonNull(values.dir, "dir");
        Objects.requireNonNull(values.nodeId, "nodeId");
        Objects.requireNonNull(values.connectString, "connectString");
        Objects.requireNonNull(values.groupPath, "groupPath");
        Objects.requireNonNull(values.source, "source");
        Objects.requireNonNull(values.replicaFor, "replicaFor");
        if (!values.nodeId.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("a node id is 1 to 64 letters, digits, '.', '_' or '-', not '"
                    + values.nodeId + "'");
        }
        if (values.connectString.isBlank()) {
            throw new IllegalArgumentException("no ZooKeeper servers given (connect string empty)");
        }
        if (!values.groupPath.matches("(/[^/\\s]+)+")) {
            throw new IllegalArgumentException("the group path is an absolute ZooKeeper path like /blit/orders, not '"
                    + values.groupPath + "'");
        }
        requireWithin("sessionTimeout", values.sessionTimeout, Duration.ofSeconds(1));
        requireWithin("connectionTimeout", values.connectionTimeout, Duration.ofMillis(100));
    }

    private static void requireWithin(String name, Duration value, Duration least) {
        Objects.requireNonNull(value, name);
        if (value.compareTo(least) < 0 || value.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException(name + " must be " + least + " to 10 min, got " + value);
        }
    }

    /** The options' state: mutable so that an option method changes one field of a copy; never written after. */
    private static final class Values implements Cloneable {
        Path dir;
        String nodeId;
        String connectString;
        String groupPath;
        SourceOptions source;
        Function<String, ReplicaOptions> replicaFor;
        Duration sessionTimeout = Duration.ofSeconds(10);
        Duration connectionTimeout = Duration.ofSeconds(5);

        Values copy() {
            try {
                return (Values) clone();
            } catch (CloneNotSupportedException impossible) {
                throw new AssertionError(impossible);
            }
        }
    }
}
