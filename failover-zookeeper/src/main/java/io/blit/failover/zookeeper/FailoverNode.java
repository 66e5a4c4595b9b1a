package io.blit.failover.zookeeper;

import io.blit.queue.replica.QueueTerms;
import io.blit.replication.Replica;
import io.blit.replication.ReplicationSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.recipes.leader.Participant;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * One machine's member of a replicated queue's failover group: nodes elect the primary through ZooKeeper (Curator's
 * {@link LeaderLatch}); the elected node promotes its copy of the queue at a new term and serves it with a
 * {@link ReplicationSource}; every other node follows it with a {@link Replica}; a primary that loses ZooKeeper fences
 * its own directory (docs/failover.md, "Automatic failover with ZooKeeper").
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li><b>Terms are unique.</b> The elected node promotes its directory to a term one above both the group's newest
 *       term (the znode {@code <group>/term}) and every term its directory knows of, and writes that term to the
 *       znode with a version check before it promotes: two nodes never promote to one term. A term stays below
 *       {@link QueueTerms#MAX_TERM}, so that one more promotion always remains possible.</li>
 *   <li><b>The most up-to-date node wins.</b> Every live node publishes what its directory holds (term, end index) in
 *       an ephemeral znode. An elected node that sees another node of the election holding a higher term, or the same
 *       term and a higher end index, gives the leadership up (it re-enters the election 200 ms later, at the back):
 *       the node with the longest history is elected, so after the primary is lost no record a replica acknowledged
 *       ({@link ReplicationSource#awaitReplicated}) is lost. An elected node waits, up to the session timeout, for
 *       every node of the election to have published a well-formed value (a node re-creates its znode at once when
 *       it is deleted, and rewrites it when it was changed). A node whose directory holds no queue with an id (an
 *       empty directory) gives it up too: seed a group by creating the queue on one node.</li>
 *   <li><b>ZooKeeper's values are checked, not believed.</b> Every znode value is parsed strictly
 *       ({@code GroupZnodes}); a malformed one, or one inconsistent with the others (a leader whose term is not the
 *       group's, or that does not hold the election; a member's term above the group's), is logged once per value
 *       and ignored. The primary restores {@code <group>/term} and {@code <group>/leader} to its own values when they
 *       change while it holds the election, and fences itself if its election znode is deleted; a follower follows
 *       only a leader that holds the election in the group's term. With {@link FailoverOptions#digestAuth} or
 *       {@link FailoverOptions#saslAuth} the node's znodes are readable and writable by its identity alone.</li>
 *   <li><b>A primary cut off fences itself first.</b> When its ZooKeeper connection is suspended or lost (Curator's
 *       {@link ConnectionState#SUSPENDED}, after about two thirds of the session timeout without an answer, or at
 *       once when the connection breaks), or it loses the leadership, it raises its directory's fence above its term
 *       ({@link QueueTerms#fence}) in the thread that learns of it: every appender on the directory, in every
 *       process, throws {@link io.blit.queue.QueueFencedException} from then on. Another node is elected only once
 *       the servers expire the session, after the whole session timeout.</li>
 *   <li><b>Followers quarantine, never delete.</b> A node follows the published primary with
 *       {@code ReplicaOptions.rejoin(true)}: a former primary's records the new primary does not hold are moved into
 *       a quarantine queue inside its directory. A node re-enters the election after a reconnect and is elected
 *       only when it ranks highest.</li>
 *   <li><b>Seeding demotes.</b> An elected node whose directory is a primary (the queue the application created,
 *       or a fenced former primary) is made a replica first ({@link QueueTerms#demote}, which takes one term for its
 *       fence) and then promoted: a queue created in term 0 is served in term 2. Appenders opened before the
 *       promotion throw {@link io.blit.queue.QueueFencedException}; open new ones once {@link #state()} says
 *       {@link Role#PRIMARY}.</li>
 *   <li><b>Closing a primary fences it</b>, before it leaves the election; so does its JVM's shutdown (SIGTERM),
 *       through a shutdown hook that {@link #close()} removes, unless {@link FailoverOptions#closeOnShutdown} is
 *       off.</li>
 * </ul>
 *
 * <p>Thread-safe: {@link #state()} and {@link #close()} may be called from any thread. Elections, promotion and
 * following run on the node's own thread; fencing runs in the thread that learns of the loss.
 */
public final class FailoverNode implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.blit.failover.zookeeper");
    private static final long TICK_MILLIS = 100;
    private static final long REJOIN_ELECTION_MILLIS = 200;
    private static final long RANK_RETRY_MILLIS = 50;
    private static final long RETRY_FOLLOW_NANOS = 1_000_000_000L;
    /**
     * How far above every term the nodes of the election know of the group's term may be and still be believed:
     * each takeover that wrote a term and failed before its promotion leaves it one higher.
     */
    private static final long TERM_SLACK = 1000;

    /** A node's role in its group. */
    public enum Role {
        /** Following the published primary, or waiting for one to be elected. */
        FOLLOWER,
        /** Elected, promoted and serving: appenders on its directory may write. */
        PRIMARY,
        /** A primary that lost ZooKeeper or the leadership: its directory is fenced; it follows the next primary. */
        FENCED,
        /** Closed. */
        CLOSED
    }

    /**
     * What a node is now.
     *
     * @param role     its role
     * @param term     the term it serves as primary, the term of the primary it follows, or the last term it served
     *                 when fenced; -1 before it knows of any
     * @param leaderId the id of the primary it is or follows; null when it knows of none or is fenced
     */
    public record State(Role role, long term, String leaderId) {
    }

    private final FailoverOptions options;
    private final Path dir;
    private final String nodeId;
    private final String group;
    private final CuratorFramework client;
    private final boolean ownsClient;
    private final ScheduledExecutorService worker;
    private final PersistentNode member;
    /** The group's znodes (term, leader, election, members) as ZooKeeper last told them. */
    private final CuratorCache groupCache;
    /** The shutdown hook that closes the node; null without one. */
    private final Thread shutdownHook;
    /** The last suspicious value reported of each znode and why, so that each is logged once. */
    private final Map<String, String> reported = new ConcurrentHashMap<>();
    /** The term this node promotes to or serves; -1 while it is neither becoming nor being the primary. */
    private final AtomicLong claimedTerm = new AtomicLong(-1);
    private volatile LeaderLatch latch;
    private volatile boolean connected;
    private volatile boolean closed;
    private volatile State state = new State(Role.FOLLOWER, -1, null);
    // The worker thread's alone:
    private ReplicationSource source;
    private Replica replica;
    private GroupZnodes.Leader following;
    private long retryFollowAt;
    private GroupZnodes.Member published;
    /** When the elected node began waiting for members of the election to publish; 0 when it does not wait. */
    private long rankingSince;
    private boolean takeOverScheduled;
    /** Whether the last tick saw this node's member znode holding another value than it published. */
    private boolean memberAltered;
    /** Whether the group's existing znodes were given this node's ACL (or need not be). */
    private boolean groupSecured;
    /** When the node started; 0 once it joined the group or said it could not. */
    private long joiningSince = System.nanoTime();

    private FailoverNode(FailoverOptions options, CuratorFramework client, boolean ownsClient) {
        this.options = options;
        this.dir = options.dir();
        this.nodeId = options.nodeId();
        this.group = options.groupPath();
        this.client = client;
        this.ownsClient = ownsClient;
        this.worker = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("blit-failover-" + nodeId).factory());
        this.member = new PersistentNode(client, CreateMode.EPHEMERAL, false, GroupZnodes.member(group, nodeId),
                GroupZnodes.Member.NONE.encode());
        this.groupCache = CuratorCache.build(client, group);
        this.shutdownHook = options.closeOnShutdown()
                ? Thread.ofPlatform().name("blit-failover-shutdown-" + nodeId).unstarted(this::closeOnShutdown)
                : null;
        this.groupSecured = !ownsClient || options.authIdentity() == null;
    }

    /**
     * {@return a node of the group in {@code options}, with a ZooKeeper client of its own (closed with the node)}
     * It joins the election and follows the published primary as soon as ZooKeeper answers; it does not wait for it.
     * The client authenticates as the options say and creates the group's znodes with their ACL.
     *
     * @param options the node's directory, id, endpoints, group and authentication
     * @throws UncheckedIOException if the directory cannot be created
     */
    public static FailoverNode start(FailoverOptions options) {
        List<ACL> acl = options.acl();
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(options.connectString())
                .sessionTimeoutMs(Math.toIntExact(options.sessionTimeout().toMillis()))
                .connectionTimeoutMs(Math.toIntExact(options.connectionTimeout().toMillis()))
                .retryPolicy(new ExponentialBackoffRetry(100, 5))
                .aclProvider(new ACLProvider() {
                    @Override
                    public List<ACL> getDefaultAcl() {
                        return acl;
                    }

                    @Override
                    public List<ACL> getAclForPath(String path) {
                        return acl;
                    }
                });
        byte[] digest = options.digestCredentials();
        if (digest != null) {
            builder.authorization("digest", digest);
        }
        String loginContext = options.saslLoginContext();
        if (loginContext != null) {
            ZKClientConfig config = new ZKClientConfig();
            config.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "true");
            config.setProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, loginContext);
            builder.zkClientConfig(config);
        }
        FailoverNode node = new FailoverNode(options, builder.build(), true);
        node.begin();
        return node;
    }

    /**
     * {@return a node of the group in {@code options} on the caller's started ZooKeeper client} The client's own
     * session and connection timeouts, authentication and ACL provider apply (the options' are not used); the node
     * does not close it. The client's connection-state error policy must treat {@link ConnectionState#SUSPENDED} as
     * an error (Curator's default), or a primary cut off fences itself only when its session is lost.
     *
     * @param options the node's directory, id, endpoints and group
     * @param client  a started Curator client of the group's ensemble
     * @throws UncheckedIOException if the directory cannot be created
     */
    public static FailoverNode start(FailoverOptions options, CuratorFramework client) {
        FailoverNode node = new FailoverNode(options, Objects.requireNonNull(client, "client"), false);
        node.begin();
        return node;
    }

    private void begin() {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the queue directory " + dir, e);
        }
        if (shutdownHook != null) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
        client.getConnectionStateListenable().addListener((ignored, newState) -> onConnectionState(newState));
        if (ownsClient) {
            client.start();
        }
        connected = client.getZookeeperClient().isConnected();
        member.start();
        groupCache.listenable().addListener((type, before, after) -> {
            String path = (after != null ? after : before).getPath();
            if (path.equals(GroupZnodes.leader(group)) || path.equals(GroupZnodes.term(group))
                    || path.startsWith(GroupZnodes.election(group))) {
                onWorker(this::followLeader);
            }
        });
        groupCache.start();
        latch = newLatch();
        startLatch(latch);
        worker.scheduleWithFixedDelay(this::tick, 0, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** {@return what this node is now} */
    public State state() {
        return state;
    }

    /** {@return the node's id in its group} */
    public String nodeId() {
        return nodeId;
    }

    private LeaderLatch newLatch() {
        LeaderLatch fresh = new LeaderLatch(client, GroupZnodes.election(group), nodeId);
        fresh.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                onWorker(FailoverNode.this::takeOver);
            }

            @Override
            public void notLeader() {
                fenceIfServing("lost the leadership");
            }
        });
        return fresh;
    }

    private void startLatch(LeaderLatch fresh) {
        try {
            fresh.start();
        } catch (Exception e) {
            LOG.log(System.Logger.Level.ERROR, "node " + nodeId + " cannot join the election: " + e, e);
        }
    }

    private void onConnectionState(ConnectionState newState) {
        switch (newState) {
            case CONNECTED, RECONNECTED -> {
                connected = true;
                onWorker(this::followLeader);
            }
            case SUSPENDED, LOST, READ_ONLY -> {
                connected = false;
                fenceIfServing("lost its ZooKeeper connection (" + newState + ")");
            }
        }
    }

    /**
     * Fences the directory above the term this node serves or is promoting to, if any, at once and in the calling
     * thread; then stops serving on the node's thread. Called by any thread; idempotent.
     */
    private void fenceIfServing(String reason) {
        long term = claimedTerm.getAndSet(-1);
        if (term < 0) {
            return;
        }
        try {
            QueueTerms.fence(dir, Math.min(term + 1, QueueTerms.MAX_TERM));
            LOG.log(System.Logger.Level.WARNING, "node " + nodeId + " " + reason + ": queue " + dir
                    + " fenced at term " + (term + 1) + "; its appenders stop");
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "node " + nodeId + " " + reason + " but cannot fence " + dir + ": " + e,
                    e);
        }
        state = new State(Role.FENCED, term, null);
        onWorker(this::stopServing);
    }

    /** Runs {@code task} on the node's thread, unless the node has closed it (then its work is done already). */
    private void onWorker(Runnable task) {
        try {
            worker.execute(task);
        } catch (RejectedExecutionException closed) {
            // a callback of ZooKeeper after close(): nothing is served or followed any more
        }
    }

    /** The election's callback: promote and serve, unless this node should not be the primary. */
    private void takeOver() {
        LeaderLatch held = latch;
        if (closed || !held.hasLeadership() || claimedTerm.get() >= 0) {
            rankingSince = 0;
            return;
        }
        long term = -1;
        try {
            stopFollowing();
            QueueTerms.Status status = QueueTerms.status(dir);
            if (status.queueId() == null) {
                rankingSince = 0;
                yieldLeadership("its directory holds no queue with an id");
                return;
            }
            GroupZnodes.Member mine = new GroupZnodes.Member(status.term(), status.endIndex());
            publishMember(mine);
            ensureGroupZnodes();
            Ranking ranking = rank(held, mine);
            if (ranking.ahead() != null) {
                rankingSince = 0;
                yieldLeadership(ranking.ahead() + ", ahead of its own term " + mine.term() + " end "
                        + mine.endIndex());
                return;
            }
            if (!ranking.unranked().isEmpty()) {
                long now = System.nanoTime();
                if (rankingSince == 0) {
                    rankingSince = now;
                }
                if (now - rankingSince < options.sessionTimeout().toNanos()) {
                    retryTakeOver();
                    return;
                }
                LOG.log(System.Logger.Level.WARNING, "node " + nodeId + " takes over without the ranks of "
                        + ranking.unranked() + ": in the election for " + options.sessionTimeout()
                        + " without a well-formed member znode");
            }
            rankingSince = 0;
            if (status.role() != QueueTerms.Role.REPLICA) {
                QueueTerms.demote(dir, "failover group " + group, options.replicaFor(options.endpoint()).privateFiles());
                status = QueueTerms.status(dir);
            }
            Stat termStat = new Stat();
            byte[] termData = client.getData().storingStatIn(termStat).forPath(GroupZnodes.term(group));
            // above every term the nodes know of, the group's (if believed) and the leader's (if plausible)
            long nodesKnow = Math.max(ranking.highestTerm(), status.fenceTerm());
            long groupKnows = Math.max(believedGroupTerm(termData, nodesKnow), believedLeaderTerm(nodesKnow));
            term = Math.max(groupKnows, nodesKnow) + 1;
            if (term > GroupZnodes.MAX_GROUP_TERM) {
                LOG.log(System.Logger.Level.ERROR, "node " + nodeId + " cannot take over: the next term " + term
                        + " would leave no term for another promotion (the highest is " + QueueTerms.MAX_TERM + ")");
                term = -1;
                yieldLeadership("the group's terms are used up");
                return;
            }
            client.setData().withVersion(termStat.getVersion()).forPath(GroupZnodes.term(group),
                    GroupZnodes.encodeTerm(term));
            claimedTerm.set(term);
            // a connection lost from here on fences the directory at term + 1, before or after the promotion
            if (closed || !connected || latch != held || !held.hasLeadership()) {
                fenceIfServing(closed ? "closed while taking over" : "lost ZooKeeper while taking over");
                return;
            }
            QueueTerms.promote(dir, term);
            source = ReplicationSource.start(dir, options.source());
            GroupZnodes.Leader leader = new GroupZnodes.Leader(term, options.endpoint(), nodeId);
            client.transaction().forOperations(
                    client.transactionOp().check().withVersion(termStat.getVersion() + 1).forPath(GroupZnodes.term(group)),
                    client.transactionOp().setData().forPath(GroupZnodes.leader(group), leader.encode()));
            if (claimedTerm.get() != term) {
                stopServing(); // fenced while it published
                return;
            }
            following = null;
            state = new State(Role.PRIMARY, term, nodeId);
            LOG.log(System.Logger.Level.INFO, "node " + nodeId + " is the primary of term " + term + " from index "
                    + status.endIndex() + ", serving " + dir + " on " + options.endpoint());
        } catch (KeeperException.BadVersionException e) {
            fenceIfServing("lost the race for a term");
            yieldLeadership("another node took a term meanwhile");
        } catch (Exception e) {
            LOG.log(System.Logger.Level.ERROR, "node " + nodeId + " failed to take over" + (term < 0 ? "" : " term "
                    + term) + ": " + e, e);
            fenceIfServing("failed to take over");
            stopServing();
            yieldLeadership("it failed to take over");
        }
    }

    /** Runs {@link #takeOver} again shortly, once: the elected node waits for a member znode. */
    private void retryTakeOver() {
        if (takeOverScheduled) {
            return;
        }
        takeOverScheduled = true;
        try {
            worker.schedule(() -> {
                takeOverScheduled = false;
                takeOver();
            }, RANK_RETRY_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            // the node closed meanwhile
        }
    }

    /**
     * How the elected node ranks against the other nodes of the election.
     *
     * @param ahead       a description of a node ranked above it, or null if none is
     * @param unranked    the nodes of the election without a well-formed member znode (yet)
     * @param highestTerm the highest term a ranked node holds, -1 if none
     */
    private record Ranking(String ahead, Set<String> unranked, long highestTerm) {
    }

    /**
     * {@return how {@code mine} ranks against every other node of the election} Only nodes of the election count (a
     * member znode of a node that is not in it is no live node's); a missing or malformed member znode (its owner
     * re-creates or rewrites it at once) leaves its node unranked.
     */
    private Ranking rank(LeaderLatch held, GroupZnodes.Member mine) throws Exception {
        Set<String> others = new LinkedHashSet<>();
        for (Participant participant : held.getParticipants()) {
            String id = participant.getId();
            if (id.equals(nodeId)) {
                continue;
            }
            if (!id.matches("[A-Za-z0-9._-]{1,64}")) {
                suspicious(GroupZnodes.election(group) + " (a participant)", id.getBytes(StandardCharsets.UTF_8),
                        "not a node id: ignored");
                continue;
            }
            others.add(id);
        }
        Set<String> unranked = new LinkedHashSet<>();
        long highest = -1;
        for (String other : others) {
            String path = GroupZnodes.member(group, other);
            byte[] data;
            try {
                data = client.getData().forPath(path);
            } catch (KeeperException.NoNodeException gone) {
                unranked.add(other);
                continue;
            }
            GroupZnodes.Member theirs = GroupZnodes.Member.decode(data);
            if (theirs == null) {
                suspicious(path, data, "malformed: its node is not ranked until it rewrites it");
                unranked.add(other);
                continue;
            }
            highest = Math.max(highest, theirs.term());
            if (theirs.compareTo(mine) > 0) {
                return new Ranking("node " + other + " holds term " + theirs.term() + " end " + theirs.endIndex(),
                        unranked, highest);
            }
        }
        return new Ranking(null, unranked, highest);
    }

    /**
     * {@return the group's term in {@code data} if it is believed, else -1} A malformed one, or one more than
     * {@link #TERM_SLACK} above every term the nodes of the election know of ({@code nodesKnow}), is not: it is logged
     * and the takeover, which overwrites it, takes a term above the others.
     */
    private long believedGroupTerm(byte[] data, long nodesKnow) {
        String path = GroupZnodes.term(group);
        long term = GroupZnodes.decodeTerm(data);
        if (term == GroupZnodes.MALFORMED) {
            suspicious(path, data, "not a term from 0 to " + GroupZnodes.MAX_GROUP_TERM + ": the elected node takes"
                    + " a term above those the leader znode and the nodes know of, and overwrites it");
            return -1;
        }
        if (term > nodesKnow + TERM_SLACK) {
            suspicious(path, data, "more than " + TERM_SLACK + " above every term the nodes know of (" + nodesKnow
                    + "): not believed; the elected node takes a term above theirs, and overwrites it");
            return -1;
        }
        return term;
    }

    /**
     * {@return the term of {@code <group>/leader} if it is well-formed and at most {@link #TERM_SLACK} above every
     * term the nodes of the election know of; else -1} A floor of the next term, so that a term whose primary left no
     * trace on the live nodes is not taken again even when {@code <group>/term} was damaged.
     */
    private long believedLeaderTerm(long nodesKnow) throws Exception {
        try {
            GroupZnodes.Leader leader = GroupZnodes.Leader.decode(client.getData().forPath(GroupZnodes.leader(group)));
            return leader == null || leader.term() > nodesKnow + TERM_SLACK ? -1 : leader.term();
        } catch (KeeperException.NoNodeException gone) {
            return -1;
        }
    }

    private void ensureGroupZnodes() throws Exception {
        for (String path : new String[] {GroupZnodes.term(group), GroupZnodes.leader(group)}) {
            try {
                client.create().creatingParentsIfNeeded().forPath(path, new byte[0]);
            } catch (KeeperException.NodeExistsException exists) {
                // created by this node before, or by another
            }
        }
    }

    /**
     * Gives the group's existing persistent znodes this node's ACL if they have another (created before the group
     * had authentication): once, when the node has an identity and its own client.
     */
    private void secureGroup() throws Exception {
        List<ACL> acl = options.acl();
        for (String path : new String[] {group, GroupZnodes.election(group), GroupZnodes.term(group),
                GroupZnodes.leader(group), GroupZnodes.members(group)}) {
            Stat stat = client.checkExists().forPath(path);
            if (stat == null) {
                continue;
            }
            try {
                List<ACL> now = client.getACL().forPath(path);
                if (!new HashSet<>(now).equals(new HashSet<>(acl))) {
                    client.setACL().withVersion(stat.getAversion()).withACL(acl).forPath(path);
                    LOG.log(System.Logger.Level.WARNING, "node " + nodeId + " gave " + path + " its ACL ("
                            + options.authScheme() + " " + options.authIdentity() + " alone); it was " + now);
                }
            } catch (KeeperException.NoAuthException | KeeperException.NoNodeException e) {
                LOG.log(System.Logger.Level.ERROR, "node " + nodeId + " cannot give " + path + " its ACL: " + e
                        + " (the znode belongs to another identity: give it the group's ACL, or delete it)");
            }
        }
        groupSecured = true;
    }

    /** Leaves the election and re-enters it shortly after, at the back of the queue. */
    private void yieldLeadership(String reason) {
        LOG.log(System.Logger.Level.INFO, "node " + nodeId + " gives up the leadership: " + reason);
        LeaderLatch old = latch;
        LeaderLatch fresh = newLatch();
        latch = fresh;
        try {
            old.close(LeaderLatch.CloseMode.SILENT);
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "node " + nodeId + " cannot leave the election: " + e);
        }
        try {
            worker.schedule(() -> {
                if (!closed && latch == fresh) {
                    startLatch(fresh);
                }
            }, REJOIN_ELECTION_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            // the node closed meanwhile: it does not re-enter
        }
    }

    /**
     * Follows the published primary, unless this node is (becoming) the primary or follows it already; as the
     * primary, keeps the group's term and leader znodes its own.
     */
    private void followLeader() {
        if (closed) {
            return;
        }
        long serving = claimedTerm.get();
        if (serving >= 0) {
            try {
                superviseAsPrimary(serving);
            } catch (Exception e) {
                // ZooKeeper unreachable (the connection listener fences) or busy: the next tick tries again
                LOG.log(System.Logger.Level.DEBUG, "node " + nodeId + " cannot check the group's znodes: " + e);
            }
            return;
        }
        String leaderPath = GroupZnodes.leader(group);
        byte[] data = cached(leaderPath);
        GroupZnodes.Leader leader = GroupZnodes.Leader.decode(data);
        if (leader == null) {
            if (data != null && data.length > 0) {
                suspicious(leaderPath, data, "malformed: ignored");
            }
            return;
        }
        if (leader.nodeId().equals(nodeId)) {
            return;
        }
        boolean same = leader.equals(following);
        if (same && (replica != null || System.nanoTime() - retryFollowAt < 0)) {
            return;
        }
        if (!same) {
            String inconsistency = inconsistency(leader);
            if (inconsistency != null) {
                // also what a follower sees during every election, until the new primary publishes: INFO
                suspicious(System.Logger.Level.INFO, leaderPath, data, inconsistency + ": not followed");
                return;
            }
        }
        stopServing();
        stopFollowing();
        following = leader;
        try {
            replica = Replica.start(dir, options.replicaFor(leader.endpoint()));
            state = new State(Role.FOLLOWER, leader.term(), leader.nodeId());
            LOG.log(System.Logger.Level.INFO, "node " + nodeId + " follows " + leader.nodeId() + " (term "
                    + leader.term() + ") at " + leader.endpoint());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "node " + nodeId + " cannot follow " + leader.nodeId() + " yet: " + e);
            retryFollowAt = System.nanoTime() + RETRY_FOLLOW_NANOS;
        }
    }

    /**
     * {@return why {@code leader} is not the group's primary by the other znodes as this node last saw them, or null
     * if it is: its term must be the group's term, and its node must hold the election}
     */
    private String inconsistency(GroupZnodes.Leader leader) {
        long groupTerm = GroupZnodes.decodeTerm(cached(GroupZnodes.term(group)));
        if (leader.term() != groupTerm) {
            return "its term " + leader.term() + " is not the group's term "
                    + (groupTerm == GroupZnodes.MALFORMED ? "(malformed)" : groupTerm);
        }
        String holder = GroupZnodes.electionHolder(electionChildren());
        if (!leader.nodeId().equals(holder)) {
            return "node " + leader.nodeId() + " does not hold the election (" + (holder == null ? "no node"
                    : "node " + holder) + " does)";
        }
        return null;
    }

    /**
     * As the primary of term {@code serving}: fences and leaves if its election znode is gone; fences if a
     * consistent leader of a newer term holds the election; otherwise restores {@code <group>/term} and
     * {@code <group>/leader} to its own values if they are not.
     */
    private void superviseAsPrimary(long serving) throws Exception {
        if (state.role() != Role.PRIMARY || state.term() != serving) {
            return; // taking over: the takeover publishes
        }
        LeaderLatch held = latch;
        String ourPath = held.getOurPath();
        if (ourPath == null) {
            return; // the latch is re-creating its znode: it tells (notLeader) if the node lost the election
        }
        if (groupCache.get(ourPath).isEmpty() && client.checkExists().forPath(ourPath) == null) {
            fenceIfServing("finds its election znode " + ourPath + " deleted");
            yieldLeadership("its election znode was deleted");
            return;
        }
        String leaderPath = GroupZnodes.leader(group);
        String termPath = GroupZnodes.term(group);
        byte[] mine = new GroupZnodes.Leader(serving, options.endpoint(), nodeId).encode();
        byte[] ourTerm = GroupZnodes.encodeTerm(serving);
        byte[] leaderData = cached(leaderPath);
        byte[] termData = cached(termPath);
        if (Arrays.equals(leaderData, mine) && Arrays.equals(termData, ourTerm)) {
            return;
        }
        GroupZnodes.Leader other = GroupZnodes.Leader.decode(leaderData);
        if (other != null && other.term() > serving && !other.nodeId().equals(nodeId) && inconsistency(other) == null) {
            fenceIfServing("sees primary " + other.nodeId() + " of the newer term " + other.term());
            return;
        }
        // it holds the election (its znode exists, checked by the transaction): no other node may have changed them
        Stat termStat = new Stat();
        Stat leaderStat = new Stat();
        termData = fresh(termPath, termStat);
        leaderData = fresh(leaderPath, leaderStat);
        if (Arrays.equals(leaderData, mine) && Arrays.equals(termData, ourTerm)) {
            return; // the cache was behind
        }
        termStat = termData == null ? null : termStat;
        leaderStat = leaderData == null ? null : leaderStat;
        List<CuratorOp> ops = new ArrayList<>();
        ops.add(client.transactionOp().check().forPath(ourPath));
        ops.add(termStat == null ? client.transactionOp().create().forPath(termPath, ourTerm)
                : client.transactionOp().setData().withVersion(termStat.getVersion()).forPath(termPath, ourTerm));
        ops.add(leaderStat == null ? client.transactionOp().create().forPath(leaderPath, mine)
                : client.transactionOp().setData().withVersion(leaderStat.getVersion()).forPath(leaderPath, mine));
        try {
            client.transaction().forOperations(ops);
        } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException raced) {
            return; // changed meanwhile: the cache tells, and this runs again
        } catch (KeeperException.NoNodeException gone) {
            if (client.checkExists().forPath(ourPath) == null) {
                fenceIfServing("finds its election znode " + ourPath + " deleted");
                yieldLeadership("its election znode was deleted");
            }
            return;
        }
        suspicious(group + " (term, leader)", (GroupZnodes.text(termData) + " / " + GroupZnodes.text(leaderData))
                .getBytes(StandardCharsets.UTF_8), "not the primary's term " + serving + " and leader "
                + GroupZnodes.text(mine) + ": restored by the primary");
    }

    /** {@return the data of {@code path} read from ZooKeeper, its stat into {@code stat}; null if it does not exist} */
    private byte[] fresh(String path, Stat stat) throws Exception {
        try {
            return client.getData().storingStatIn(stat).forPath(path);
        } catch (KeeperException.NoNodeException gone) {
            return null;
        }
    }

    /** {@return the data of {@code path} as the group's cache last saw it; null if it saw none} */
    private byte[] cached(String path) {
        return groupCache.get(path).map(ChildData::getData).orElse(null);
    }

    /** {@return the children of {@code <group>/election} as the group's cache last saw them, by name} */
    private Map<String, byte[]> electionChildren() {
        String election = GroupZnodes.election(group);
        Map<String, byte[]> children = new LinkedHashMap<>();
        groupCache.stream().filter(child -> election.equals(ZKPaths.getPathAndNode(child.getPath()).getPath()))
                .forEach(child -> children.put(ZKPaths.getNodeFromPath(child.getPath()), child.getData()));
        return children;
    }

    /** Logs, once per value, that znode {@code path} holds {@code data} and what the node does about it. */
    private void suspicious(String path, byte[] data, String what) {
        suspicious(System.Logger.Level.WARNING, path, data, what);
    }

    /** As {@link #suspicious(String, byte[], String)}, at {@code level}. */
    private void suspicious(System.Logger.Level level, String path, byte[] data, String what) {
        String text = GroupZnodes.text(data);
        String shown = text.length() > 120 ? text.substring(0, 120) + "..." : text;
        shown = shown.chars().allMatch(c -> c >= 0x20 && c < 0x7f) ? shown
                : shown.codePoints().collect(StringBuilder::new, (b, c) -> b.append(c >= 0x20 && c < 0x7f
                        ? Character.toString(c) : String.format("\\u%04x", c)), StringBuilder::append).toString();
        String report = shown + "\u0000" + what;
        if (!report.equals(reported.put(path, report))) {
            LOG.log(level, "node " + nodeId + ": znode " + path + " holds '" + shown + "', " + what);
        }
    }

    /**
     * The node's heartbeat: secures the group once, publishes what its directory holds (rewriting its member znode
     * if it was changed), restarts a replica that stopped, follows.
     */
    private void tick() {
        if (closed) {
            return;
        }
        try {
            if (!groupSecured && connected) {
                secureGroup();
            }
            checkJoined();
            if (replica != null && !replica.running()) {
                LOG.log(System.Logger.Level.WARNING, "node " + nodeId + ": its replica stopped ("
                        + (replica.refusal() != null ? replica.refusal().getMessage() : replica.failure())
                        + "); following again in 1 s");
                stopFollowing();
                retryFollowAt = System.nanoTime() + RETRY_FOLLOW_NANOS;
            }
            QueueTerms.Status status = QueueTerms.status(dir);
            publishMember(status.queueId() == null ? GroupZnodes.Member.NONE
                    : new GroupZnodes.Member(status.term(), status.endIndex()));
            restoreMember();
            followLeader();
        } catch (Exception e) {
            // a replica moving files (a quarantine) or ZooKeeper unreachable: the next tick tries again
            LOG.log(System.Logger.Level.DEBUG, "node " + nodeId + " tick: " + e);
        }
    }

    /**
     * Logs, once, a node whose member and election znodes still do not exist a session timeout after it connected:
     * Curator logs why only through slf4j (an identity the group's ACL refuses, typically).
     */
    private void checkJoined() throws InterruptedException {
        if (joiningSince == 0) {
            return;
        }
        if (member.waitForInitialCreate(0, TimeUnit.MILLISECONDS) && latch.getOurPath() != null) {
            joiningSince = 0;
        } else if (!connected) {
            joiningSince = System.nanoTime();
        } else if (System.nanoTime() - joiningSince > options.sessionTimeout().toNanos()) {
            joiningSince = 0;
            LOG.log(System.Logger.Level.ERROR, "node " + nodeId + " could not create its znodes under " + group
                    + " in " + options.sessionTimeout() + " connected to ZooKeeper: is its identity ("
                    + options.authScheme() + (options.authIdentity() == null ? "" : " " + options.authIdentity())
                    + ") allowed to create them? (the group's znodes' ACL decides)");
        }
    }

    private void publishMember(GroupZnodes.Member now) throws Exception {
        if (!now.equals(published) && member.waitForInitialCreate(0, TimeUnit.MILLISECONDS)) {
            member.setData(now.encode());
            published = now;
            memberAltered = false;
        }
    }

    /**
     * Rewrites this node's member znode when it held another value than the node published on two ticks in a row
     * (one read may come before the node's own write lands). A deleted one is re-created by the
     * {@link PersistentNode} at once.
     */
    private void restoreMember() throws Exception {
        if (published == null || !connected || !member.waitForInitialCreate(0, TimeUnit.MILLISECONDS)) {
            return;
        }
        String path = GroupZnodes.member(group, nodeId);
        byte[] seen = fresh(path, new Stat());
        if (seen == null || Arrays.equals(seen, published.encode())) {
            memberAltered = false;
            return;
        }
        if (!memberAltered) {
            memberAltered = true;
            return;
        }
        suspicious(path, seen, "not what its node published (" + GroupZnodes.text(published.encode())
                + "): rewritten");
        member.setData(published.encode());
        memberAltered = false;
    }

    private void stopServing() {
        if (source != null) {
            source.close();
            source = null;
        }
    }

    private void stopFollowing() {
        if (replica != null) {
            replica.close();
            replica = null;
        }
    }

    /** The shutdown hook's work: fence and leave, as {@link #close()}. */
    private void closeOnShutdown() {
        if (!closed) {
            close("closes as its JVM shuts down");
        }
    }

    /**
     * Fences the directory if this node is the primary, stops serving or following, leaves the election and the group
     * and closes the ZooKeeper client if the node opened it; removes the node's shutdown hook. Idempotent.
     */
    @Override
    public void close() {
        close("closes");
    }

    private void close(String reason) {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        fenceIfServing(reason);
        if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM shuts down: the hook runs, and finds the node closed
            }
        }
        try {
            worker.submit(() -> {
                stopServing();
                stopFollowing();
            }).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.log(System.Logger.Level.ERROR, "node " + nodeId + " did not stop cleanly: " + e, e);
        }
        worker.shutdownNow();
        try {
            latch.close(LeaderLatch.CloseMode.SILENT);
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "node " + nodeId + " cannot leave the election: " + e);
        }
        try {
            member.close();
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "node " + nodeId + " cannot leave the group: " + e);
        }
        groupCache.close();
        if (ownsClient) {
            client.close();
        }
        state = new State(Role.CLOSED, state.term(), null);
    }
}
