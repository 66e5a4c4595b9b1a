package io.blit.failover.zookeeper;

import io.blit.queue.replica.QueueTerms;
import io.blit.replication.Replica;
import io.blit.replication.ReplicationSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
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
 *       znode with a version check before it promotes: two nodes never promote to one term.</li>
 *   <li><b>The most up-to-date node wins.</b> Every live node publishes what its directory holds (term, end index) in
 *       an ephemeral znode. An elected node that sees another live node holding a higher term, or the same term and
 *       a higher end index, gives the leadership up (it re-enters the election 200 ms later, at the back): the node
 *       with the longest history is elected, so after the primary is lost no record a replica acknowledged
 *       ({@link ReplicationSource#awaitReplicated}) is lost. A node whose directory holds no queue with an id (an
 *       empty directory) gives it up too: seed a group by creating the queue on one node.</li>
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
 *   <li><b>Closing a primary fences it</b>, before it leaves the election.</li>
 * </ul>
 *
 * <p>Thread-safe: {@link #state()} and {@link #close()} may be called from any thread. Elections, promotion and
 * following run on the node's own thread; fencing runs in the thread that learns of the loss.
 */
public final class FailoverNode implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("io.blit.failover.zookeeper");
    private static final long TICK_MILLIS = 100;
    private static final long REJOIN_ELECTION_MILLIS = 200;
    private static final long RETRY_FOLLOW_NANOS = 1_000_000_000L;

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
    private final CuratorCache leaderCache;
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
        this.leaderCache = CuratorCache.build(client, GroupZnodes.leader(group),
                CuratorCache.Options.SINGLE_NODE_CACHE);
    }

    /**
     * {@return a node of the group in {@code options}, with a ZooKeeper client of its own (closed with the node)}
     * It joins the election and follows the published primary as soon as ZooKeeper answers; it does not wait for it.
     *
     * @param options the node's directory, id, endpoints and group
     * @throws UncheckedIOException if the directory cannot be created
     */
    public static FailoverNode start(FailoverOptions options) {
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(options.connectString())
                .sessionTimeoutMs(Math.toIntExact(options.sessionTimeout().toMillis()))
                .connectionTimeoutMs(Math.toIntExact(options.connectionTimeout().toMillis()))
                .retryPolicy(new ExponentialBackoffRetry(100, 5))
                .build();
        FailoverNode node = new FailoverNode(options, client, true);
        node.begin();
        return node;
    }

    /**
     * {@return a node of the group in {@code options} on the caller's started ZooKeeper client} The client's own
     * session and connection timeouts apply (the options' are not used); the node does not close it. The client's
     * connection-state error policy must treat {@link ConnectionState#SUSPENDED} as an error (Curator's default), or
     * a primary cut off fences itself only when its session is lost.
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
        client.getConnectionStateListenable().addListener((ignored, newState) -> onConnectionState(newState));
        if (ownsClient) {
            client.start();
        }
        connected = client.getZookeeperClient().isConnected();
        member.start();
        leaderCache.listenable().addListener((type, before, after) -> onWorker(this::followLeader));
        leaderCache.start();
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
            return;
        }
        long term = -1;
        try {
            stopFollowing();
            QueueTerms.Status status = QueueTerms.status(dir);
            if (status.queueId() == null) {
                yieldLeadership("its directory holds no queue with an id");
                return;
            }
            GroupZnodes.Member mine = new GroupZnodes.Member(status.term(), status.endIndex());
            publishMember(mine);
            String ahead = memberAhead(mine);
            if (ahead != null) {
                yieldLeadership(ahead + ", ahead of its own term " + mine.term() + " end " + mine.endIndex());
                return;
            }
            ensureGroupZnodes();
            Stat termStat = new Stat();
            long groupTerm = GroupZnodes.decodeTerm(client.getData().storingStatIn(termStat)
                    .forPath(GroupZnodes.term(group)));
            if (status.role() != QueueTerms.Role.REPLICA) {
                QueueTerms.demote(dir, "failover group " + group, options.replicaFor(options.endpoint()).privateFiles());
                status = QueueTerms.status(dir);
            }
            term = Math.max(groupTerm, status.fenceTerm()) + 1;
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

    /** {@return a description of a live member whose directory ranks above {@code mine}, or null if none does} */
    private String memberAhead(GroupZnodes.Member mine) throws Exception {
        for (String other : client.getChildren().forPath(GroupZnodes.members(group))) {
            if (other.equals(nodeId)) {
                continue;
            }
            byte[] data;
            try {
                data = client.getData().forPath(GroupZnodes.member(group, other));
            } catch (KeeperException.NoNodeException gone) {
                continue;
            }
            GroupZnodes.Member theirs = GroupZnodes.Member.decode(data);
            if (theirs.compareTo(mine) > 0) {
                return "node " + other + " holds term " + theirs.term() + " end " + theirs.endIndex();
            }
        }
        return null;
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

    /** Follows the published primary, unless this node is (becoming) the primary or follows it already. */
    private void followLeader() {
        if (closed) {
            return;
        }
        GroupZnodes.Leader leader = leaderCache.get(GroupZnodes.leader(group)).map(ChildData::getData)
                .map(GroupZnodes.Leader::decode).orElse(null);
        if (leader == null || leader.nodeId().equals(nodeId)) {
            return;
        }
        long serving = claimedTerm.get();
        if (serving >= 0) {
            if (leader.term() > serving) {
                fenceIfServing("sees primary " + leader.nodeId() + " of the newer term " + leader.term());
            }
            return;
        }
        boolean same = leader.equals(following);
        if (same && (replica != null || System.nanoTime() - retryFollowAt < 0)) {
            return;
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

    /** The node's heartbeat: publishes what its directory holds, restarts a replica that stopped, follows. */
    private void tick() {
        if (closed) {
            return;
        }
        try {
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
            followLeader();
        } catch (Exception e) {
            // a replica moving files (a quarantine) or ZooKeeper unreachable: the next tick tries again
            LOG.log(System.Logger.Level.DEBUG, "node " + nodeId + " tick: " + e);
        }
    }

    private void publishMember(GroupZnodes.Member now) throws Exception {
        if (!now.equals(published) && member.waitForInitialCreate(0, TimeUnit.MILLISECONDS)) {
            member.setData(now.encode());
            published = now;
        }
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

    /**
     * Fences the directory if this node is the primary, stops serving or following, leaves the election and the group
     * and closes the ZooKeeper client if the node opened it. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        fenceIfServing("closes");
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
        leaderCache.close();
        if (ownsClient) {
            client.close();
        }
        state = new State(Role.CLOSED, state.term(), null);
    }
}
