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
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.state.ConnectionState;
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
 *   <li><b>A planned handover loses nothing.</b> {@link #handover} stops the primary's appends, and the node it names
 *       takes over once it holds every record: nothing is set aside when the old primary follows it.</li>
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
    private static final long RANK_RETRY_MILLIS = 50;
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
    // The facade and the role state machine (follower, primary, fenced, closed) live here; what it drives lives
    // beside it: the client and its ACL (GroupAccess), the checked view and repair of the group's znodes
    // (GroupView), this node's member znode (MemberZnode), its latch in the election (Election) and its
    // shutdown hook (ShutdownHook).
    private final FailoverOptions options;
    private final Path dir;
    private final String nodeId;
    private final String group;
    private final CuratorFramework client;
    private final boolean ownsClient;
    private final ScheduledExecutorService worker;
    private final GroupAccess access;
    private final GroupView view;
    private final MemberZnode member;
    private final Election election;
    private final ShutdownHook shutdownHook;
    private final Handovers handovers;
    /** The term this node promotes to or serves; -1 while it is neither becoming nor being the primary. */
    private final AtomicLong claimedTerm = new AtomicLong(-1);
    private volatile boolean connected;
    private volatile boolean closed;
    private volatile State state = new State(Role.FOLLOWER, -1, null);
    // The worker thread's alone:
    private ReplicationSource source;
    private Replica replica;
    private GroupZnodes.Leader following;
    private long retryFollowAt;
    /** When the elected node began waiting for members of the election to publish; 0 when it does not wait. */
    private long rankingSince;
    private boolean takeOverScheduled;

    private FailoverNode(FailoverOptions options, CuratorFramework client, boolean ownsClient) {
        this.options = options;
        this.dir = options.dir();
        this.nodeId = options.nodeId();
        this.group = options.groupPath();
        this.client = client;
        this.ownsClient = ownsClient;
        this.worker = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("blit-failover-" + nodeId).factory());
        this.access = new GroupAccess(options, client, ownsClient);
        this.view = new GroupView(client, group, nodeId, options.endpoint());
        this.member = new MemberZnode(options, client, view);
        this.election = new Election(client, group, nodeId, worker, () -> onWorker(this::takeOver),
                () -> fenceIfServing("lost the leadership"), () -> closed);
        this.shutdownHook = new ShutdownHook(options.closeOnShutdown(), nodeId, this::closeOnShutdown);
        this.handovers = new Handovers(client, view, group, nodeId, dir, options.sessionTimeout());
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
        FailoverNode node = new FailoverNode(options, GroupAccess.newClient(options), true);
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
        shutdownHook.register();
        client.getConnectionStateListenable().addListener((ignored, newState) -> onConnectionState(newState));
        if (ownsClient) {
            client.start();
        }
        connected = client.getZookeeperClient().isConnected();
        member.start();
        view.start(() -> onWorker(this::followLeader));
        election.start();
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

    /**
     * Hands the primary's role over to node {@code toNodeId}, with no record lost or set aside (docs/failover.md,
     * "Planned handover"): this node fences its directory at the next term naming {@code toNodeId} (every appender on
     * it then throws a {@link io.blit.queue.QueueFencedException} whose {@code newPrimary()} is {@code toNodeId}),
     * records its end index in the group and leaves the leadership; {@code toNodeId}, once it holds every record up to
     * that index, takes over at that term; this node follows it. Call it from any thread but the node's.
     *
     * @param toNodeId the id of a node in the group's election that follows this primary's term
     * @return this node's state afterwards: following {@code toNodeId} at the new term
     * @throws IllegalStateException    if this node is not the primary, or the group's terms are used up: nothing
     *                                  changed
     * @throws IllegalArgumentException if {@code toNodeId} is this node, not in the election, or does not follow this
     *                                  term: nothing changed
     * @throws TimeoutException         if this node does not follow {@code toNodeId} within twice the session timeout
     *                                  (that node did not take over: the group elects as usual; this node's directory
     *                                  stays fenced and loses nothing)
     * @throws InterruptedException     if interrupted while waiting
     */
    public State handover(String toNodeId) throws TimeoutException, InterruptedException {
        Objects.requireNonNull(toNodeId, "toNodeId");
        return handovers.handOver(toNodeId, () -> worker.submit(() -> handOver(toNodeId)), () -> state);
    }

    /**
     * On the node's thread: the primary's steps of a handover to {@code to} ({@link Handovers#begin}), then it stops
     * being the primary (its source serves on until it follows the new primary) and gives the leadership up.
     */
    private GroupZnodes.Handover handOver(String to) throws Exception {
        long serving = claimedTerm.get();
        String ourPath = election.latch().getOurPath();
        if (closed || serving < 0 || state.role() != Role.PRIMARY || state.term() != serving || ourPath == null) {
            throw new IllegalStateException("node " + nodeId + " is not the primary (" + state + "): only the primary"
                    + " hands over");
        }
        GroupZnodes.Handover handover;
        try {
            handover = handovers.begin(to, serving, ourPath, () -> election.latch().getParticipants());
        } catch (IllegalArgumentException | IllegalStateException refused) {
            throw refused; // nothing changed
        } catch (Exception e) {
            fenceIfServing("failed to record its handover");
            election.yieldLeadership("it failed to record its handover");
            throw e;
        }
        claimedTerm.set(-1); // fenced at the handover's term already: nothing more to fence
        state = new State(Role.FENCED, serving, null);
        election.yieldLeadership("it hands over to node " + to);
        return handover;
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
        LeaderLatch held = election.latch();
        if (closed || !held.hasLeadership() || claimedTerm.get() >= 0) {
            rankingSince = 0;
            return;
        }
        long term = -1;
        try {
            Handovers.Decision handover = handovers.decide(held.getParticipants());
            if (handover != Handovers.Decision.TAKE_OVER) { // a fresh handover: to another node, or records to wait for
                if (handover.yieldReason() != null) {
                    rankingSince = 0;
                    election.yieldLeadership(handover.yieldReason());
                } else {
                    retryTakeOver(handover.waitMillis());
                }
                return;
            }
            stopFollowing();
            QueueTerms.Status status = QueueTerms.status(dir);
            if (status.queueId() == null) {
                rankingSince = 0;
                election.yieldLeadership("its directory holds no queue with an id");
                return;
            }
            GroupZnodes.Member mine = new GroupZnodes.Member(status.term(), status.endIndex());
            member.publish(mine);
            view.ensureGroupZnodes();
            GroupView.Ranking ranking = view.rank(held.getParticipants(), mine);
            if (ranking.ahead() != null) {
                rankingSince = 0;
                election.yieldLeadership(ranking.ahead() + ", ahead of its own term " + mine.term() + " end "
                        + mine.endIndex());
                return;
            }
            if (!ranking.unranked().isEmpty()) {
                long now = System.nanoTime();
                if (rankingSince == 0) {
                    rankingSince = now;
                }
                if (now - rankingSince < options.sessionTimeout().toNanos()) {
                    retryTakeOver(RANK_RETRY_MILLIS);
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
            term = view.nextTerm(Math.max(ranking.highestTerm(), status.fenceTerm()), termStat);
            if (term > GroupZnodes.MAX_GROUP_TERM) {
                LOG.log(System.Logger.Level.ERROR, "node " + nodeId + " cannot take over: the next term " + term
                        + " would leave no term for another promotion (the highest is " + QueueTerms.MAX_TERM + ")");
                term = -1;
                election.yieldLeadership("the group's terms are used up");
                return;
            }
            client.setData().withVersion(termStat.getVersion()).forPath(GroupZnodes.term(group),
                    GroupZnodes.encodeTerm(term));
            claimedTerm.set(term);
            // a connection lost from here on fences the directory at term + 1, before or after the promotion
            if (closed || !connected || election.latch() != held || !held.hasLeadership()) {
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
            election.yieldLeadership("another node took a term meanwhile");
        } catch (Exception e) {
            LOG.log(System.Logger.Level.ERROR, "node " + nodeId + " failed to take over" + (term < 0 ? "" : " term "
                    + term) + ": " + e, e);
            fenceIfServing("failed to take over");
            stopServing();
            election.yieldLeadership("it failed to take over");
        }
    }

    /** Runs {@link #takeOver} again in {@code millis}, once: the elected node waits for a member znode or records. */
    private void retryTakeOver(long millis) {
        if (takeOverScheduled) {
            return;
        }
        takeOverScheduled = true;
        try {
            worker.schedule(() -> {
                takeOverScheduled = false;
                takeOver();
            }, millis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            // the node closed meanwhile
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
                String to = state.role() == Role.PRIMARY ? handovers.takeRequest() : null;
                if (to != null) {
                    handOver(to); // an operator's request; a refusal is logged below
                }
            } catch (IllegalArgumentException | IllegalStateException refused) {
                LOG.log(System.Logger.Level.WARNING, "node " + nodeId + " refuses a handover: " + refused.getMessage());
            } catch (Exception e) {
                // ZooKeeper unreachable (the connection listener fences) or busy: the next tick tries again
                LOG.log(System.Logger.Level.DEBUG, "node " + nodeId + " cannot check the group's znodes", e);
            }
            return;
        }
        String leaderPath = GroupZnodes.leader(group);
        byte[] data = view.cached(leaderPath);
        GroupZnodes.Leader leader = GroupZnodes.Leader.decode(data);
        if (leader == null) {
            if (data != null && data.length > 0) {
                view.suspicious(leaderPath, data, "malformed: ignored");
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
            String inconsistency = view.inconsistency(leader);
            if (inconsistency != null) {
                // also what a follower sees during every election, until the new primary publishes: INFO
                view.suspicious(System.Logger.Level.INFO, leaderPath, data, inconsistency + ": not followed");
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
     * As the primary of term {@code serving}: fences and leaves if its election znode is gone; fences if a
     * consistent leader of a newer term holds the election; otherwise restores {@code <group>/term} and
     * {@code <group>/leader} to its own values if they are not ({@link GroupView#restoreAsPrimary}).
     */
    private void superviseAsPrimary(long serving) throws Exception {
        if (state.role() != Role.PRIMARY || state.term() != serving) {
            return; // taking over: the takeover publishes
        }
        LeaderLatch held = election.latch();
        String ourPath = held.getOurPath();
        if (ourPath == null) {
            return; // the latch is re-creating its znode: it tells (notLeader) if the node lost the election
        }
        GroupView.Verdict verdict = view.restoreAsPrimary(serving, ourPath);
        if (verdict != null) {
            fenceIfServing(verdict.fenceReason());
            if (verdict.leave()) {
                election.yieldLeadership("its election znode was deleted");
            }
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
            if (connected) {
                access.secureOnce();
            }
            member.checkJoined(connected, () -> election.latch().getOurPath() != null);
            if (replica != null && !replica.running()) {
                LOG.log(System.Logger.Level.WARNING, "node " + nodeId + ": its replica stopped ("
                        + (replica.refusal() != null ? replica.refusal().getMessage() : replica.failure())
                        + "); following again in 1 s");
                stopFollowing();
                retryFollowAt = System.nanoTime() + RETRY_FOLLOW_NANOS;
            }
            QueueTerms.Status status = QueueTerms.status(dir);
            member.publish(status.queueId() == null ? GroupZnodes.Member.NONE
                    : new GroupZnodes.Member(status.term(), status.endIndex()));
            member.restore(connected);
            followLeader();
        } catch (Exception e) {
            // a replica moving files (a quarantine) or ZooKeeper unreachable: the next tick tries again
            LOG.log(System.Logger.Level.DEBUG, "node " + nodeId + " tick failed; the next tick tries again", e);
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
        shutdownHook.remove();
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
        election.close();
        member.close();
        view.close();
        if (ownsClient) {
            client.close();
        }
        state = new State(Role.CLOSED, state.term(), null);
    }
}
