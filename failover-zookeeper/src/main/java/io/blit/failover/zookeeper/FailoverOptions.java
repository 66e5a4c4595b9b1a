package io.blit.failover.zookeeper;

import io.blit.replication.ReplicaOptions;
import io.blit.replication.SourceOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;

/**
 * How a {@link FailoverNode} runs: its queue directory, its id in the group, how it serves the queue when it is the
 * primary and how it follows another node, where the group lives in ZooKeeper, how it authenticates there, and the
 * ZooKeeper timeouts. The one way
 * to configure a node: {@link #of} with what has no default, then change what differs, each method returning new
 * options with that one option changed:
 *
 * <pre>{@code
 * FailoverOptions options = FailoverOptions.of(Path.of("/data/orders"), "node-a", "zk1:2181,zk2:2181,zk3:2181",
 *                 "/blit/orders", SourceOptions.of("10.0.0.1:7000", secret),
 *                 primary -> ReplicaOptions.of(primary, "10.0.0.1:7001", secret))
 *         .digestAuth("blit-orders", zookeeperPassword)
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
    private static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(5);
    private final Values values;

    private FailoverOptions(Values values) {
        check(values);
        this.values = values;
    }

    /**
     * {@return options with a session timeout of 10 s, a connection timeout of 5 s (at most the session timeout), no
     * ZooKeeper authentication (znodes created with ZooKeeper's world ACL) and closing on JVM shutdown}
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

    /**
     * {@return how long the node's client tries to connect before an operation fails} Default 5 s or the session
     * timeout, whichever is shorter (Curator warns of a connection timeout above the session timeout).
     */
    public Duration connectionTimeout() {
        if (values.connectionTimeout != null) {
            return values.connectionTimeout;
        }
        return DEFAULT_CONNECTION_TIMEOUT.compareTo(values.sessionTimeout) <= 0 ? DEFAULT_CONNECTION_TIMEOUT
                : values.sessionTimeout;
    }

    /**
     * {@return these options with another connection timeout}
     *
     * @param timeout the connection timeout, 100 ms to 10 min
     * @throws IllegalArgumentException if it is out of bounds
     */
    public FailoverOptions connectionTimeout(Duration timeout) {
        return with(v -> v.connectionTimeout = Objects.requireNonNull(timeout, "connectionTimeout"));
    }

    /**
     * {@return these options with ZooKeeper digest authentication} The node's client authenticates as {@code user}
     * ({@code addauth digest user:password}) and creates every znode of the group, and any missing parent of the
     * group's path, with one ACL: all permissions for {@code digest:user:<digest of user:password>} and none for
     * anyone else; on start it also sets that ACL on the group's persistent znodes (the group, {@code election},
     * {@code term}, {@code leader}, {@code members}) if they exist with another ACL it may change (ZooKeeper's world
     * ACL, the default without authentication). Every node of the group needs the same user and password.
     *
     * @param user     the digest user: 1 to 64 characters, none of them {@code :} or white space
     * @param password the user's password, 16 to 1024 characters: the digest ZooKeeper stores is a SHA-1 of it, not
     *                 meant to resist guessing a short one
     * @throws IllegalArgumentException if the user or the password is malformed
     * @throws NullPointerException     if either is null
     */
    public FailoverOptions digestAuth(String user, String password) {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (!user.matches("[^:\\s]{1,64}")) {
            throw new IllegalArgumentException("a digest user is 1 to 64 characters without ':' or white space, not '"
                    + user + "'");
        }
        if (password.length() < 16 || password.length() > 1024) {
            throw new IllegalArgumentException("a digest password is 16 to 1024 characters, got "
                    + password.length());
        }
        String credentials = user + ":" + password;
        String digest;
        try {
            digest = DigestAuthenticationProvider.generateDigest(credentials);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-1 for ZooKeeper's digest scheme", e);
        }
        Auth auth = new Auth("digest", user, credentials.getBytes(StandardCharsets.UTF_8), null,
                Collections.singletonList(new ACL(ZooDefs.Perms.ALL, new Id("digest", digest))));
        return with(v -> v.auth = auth);
    }

    /**
     * {@return these options with ZooKeeper SASL authentication} The node's client logs in with the JAAS login
     * context {@code loginContext} (ZooKeeper's client section, {@code Client} by default: Kerberos, or DIGEST-MD5
     * for a server that has the matching users) before it sends anything, and creates every znode of the group, and
     * any missing parent of the group's path, with one ACL: all permissions for {@code sasl:principal} and none for
     * anyone else; on start it also sets that ACL on the group's persistent znodes if they exist with another it may
     * change, as {@link #digestAuth} does. The servers must have ZooKeeper's {@code SASLAuthenticationProvider}
     * ({@code authProvider.sasl}); the JAAS configuration is the JVM's ({@code java.security.auth.login.config}).
     *
     * @param principal    the identity the servers authenticate the login as, as their ACLs name it: the Kerberos
     *                     principal after the servers' mapping (by default as given, e.g.
     *                     {@code blit/host@EXAMPLE.COM}), or the DIGEST-MD5 user name
     * @param loginContext the JAAS login context (section) of the node's client
     * @throws IllegalArgumentException if the principal or the login context is empty or holds white space
     * @throws NullPointerException     if either is null
     */
    public FailoverOptions saslAuth(String principal, String loginContext) {
        Objects.requireNonNull(principal, "principal");
        Objects.requireNonNull(loginContext, "loginContext");
        if (!principal.matches("\\S{1,256}") || !loginContext.matches("\\S{1,256}")) {
            throw new IllegalArgumentException("a SASL principal and a login context are 1 to 256 characters without"
                    + " white space, not '" + principal + "' and '" + loginContext + "'");
        }
        Auth auth = new Auth("sasl", principal, null, loginContext,
                Collections.singletonList(new ACL(ZooDefs.Perms.ALL, new Id("sasl", principal))));
        return with(v -> v.auth = auth);
    }

    /**
     * {@return the ZooKeeper scheme the node authenticates with: {@code digest}, {@code sasl}, or {@code world} for
     * none (the default), when its znodes get ZooKeeper's world ACL: anyone who can reach the servers may read and
     * write them (docs/failover.md, "What a writer of the group's znodes can do")}
     */
    public String authScheme() {
        return values.auth == null ? "world" : values.auth.scheme();
    }

    /** {@return the identity the node authenticates as (the digest user or the SASL principal); null without one} */
    public String authIdentity() {
        return values.auth == null ? null : values.auth.identity();
    }

    /**
     * {@return the ACL the node creates its znodes with: its identity's alone, or ZooKeeper's world ACL without one}
     * A list whose {@code contains(null)} answers (ZooKeeper asks it), unlike {@code List.of}'s.
     */
    List<ACL> acl() {
        return values.auth == null ? ZooDefs.Ids.OPEN_ACL_UNSAFE : values.auth.acl();
    }

    /** {@return the digest credentials {@code user:password} to add to the session; null without digest} */
    byte[] digestCredentials() {
        return values.auth == null || values.auth.credentials() == null ? null : values.auth.credentials().clone();
    }

    /** {@return the JAAS login context of SASL; null without SASL} */
    String saslLoginContext() {
        return values.auth == null ? null : values.auth.loginContext();
    }

    /**
     * {@return whether the node closes itself when its JVM shuts down (SIGTERM, {@code System.exit}, the last
     * non-daemon thread ending)} Default true: a shutdown hook, removed by {@link FailoverNode#close()}, fences a
     * primary's directory and leaves the group, so that another node is elected at once rather than after the
     * session timeout. A JVM killed with SIGKILL runs no hook: its directory stays as it was (the next node is
     * elected after the session timeout, and the directory fences itself when it rejoins).
     */
    public boolean closeOnShutdown() {
        return values.closeOnShutdown;
    }

    /**
     * {@return these options closing the node on JVM shutdown or not} Without the hook, the application must
     * {@link FailoverNode#close()} the node in its own shutdown, or a primary's directory stays {@code role primary}
     * after its JVM exits.
     *
     * @param close whether a shutdown hook closes the node
     */
    public FailoverOptions closeOnShutdown(boolean close) {
        return with(v -> v.closeOnShutdown = close);
    }

    /** {@return every option by name (the secrets are the source and replica options', shown as their length)} */
    @Override
    public String toString() {
        return "FailoverOptions[dir=" + values.dir + ", nodeId=" + values.nodeId + ", connectString="
                + values.connectString + ", groupPath=" + values.groupPath + ", source=" + values.source
                + ", sessionTimeout=" + values.sessionTimeout + ", connectionTimeout=" + connectionTimeout()
                + ", auth=" + authScheme() + (values.auth == null ? "" : ":" + values.auth.identity())
                + ", closeOnShutdown=" + values.closeOnShutdown + "]";
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
        if (values.connectionTimeout != null) {
            requireWithin("connectionTimeout", values.connectionTimeout, Duration.ofMillis(100));
        }
    }

    private static void requireWithin(String name, Duration value, Duration least) {
        Objects.requireNonNull(value, name);
        if (value.compareTo(least) < 0 || value.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException(name + " must be " + least + " to 10 min, got " + value);
        }
    }

    /**
     * How the node authenticates: a scheme, the identity, the digest credentials to add to the session (or the
     * SASL login context), and the ACL its znodes get.
     */
    private record Auth(String scheme, String identity, byte[] credentials, String loginContext, List<ACL> acl) {
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
        /** null: the default, 5 s or the session timeout if shorter. */
        Duration connectionTimeout;
        Auth auth;
        boolean closeOnShutdown = true;

        Values copy() {
            try {
                return (Values) clone();
            } catch (CloneNotSupportedException impossible) {
                throw new AssertionError(impossible);
            }
        }
    }
}
