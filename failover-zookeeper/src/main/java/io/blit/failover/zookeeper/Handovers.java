package io.blit.failover.zookeeper;

import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.replica.QueueTerms;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.Participant;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * A node's side of planned handovers (docs/failover.md, "Planned handover"): as the primary, stopping its appends and
 * recording the handover in {@code <group>/handover} ({@link #begin}); as an elected node, the handover it must
 * respect ({@link #pending}); as the primary, the operator's request in {@code <group>/handover-request}
 * ({@link #takeRequest}).
 *
 * <p>A handover is respected (the nodes it does not name defer to it, the node it names waits for its records) while
 * it is <b>fresh</b>: well-formed, of the term one above the group's term (its node has not taken over yet), its node
 * in the election, and first seen by this node less than the bound (the session timeout) ago. After the bound the
 * group elects as usual: nothing is lost, the old primary's directory is only fenced.
 *
 * <p>Thread-safety: every method runs on the node's thread.
 */
final class Handovers {
    private static final System.Logger LOG = System.getLogger("io.blit.failover.zookeeper");
    /** How long the end index must stay unchanged after the fence: appends whose fence load preceded it finish. */
    private static final long SETTLE_NANOS = 1_000_000L;
    private static final long SETTLE_BOUND_NANOS = 1_000_000_000L;
    private static final long MEMBER_WAIT_NANOS = 500_000_000L;
    private static final long MEMBER_POLL_NANOS = 10_000_000L;
    /** How often the node a handover names looks again whether it holds the old primary's last record. */
    private static final long RETRY_MILLIS = 2;

    private final CuratorFramework client;
    private final GroupView view;
    private final String group;
    private final String nodeId;
    private final Path dir;
    private final long boundNanos;
    /** When this node, elected and named by a handover, began waiting for its records; 0 when it does not wait. */
    private long waitingSince;
    /** When this node first saw each handover value; a value seen longer ago than the bound is not respected. */
    private final Map<GroupZnodes.Handover, Long> firstSeen = new ConcurrentHashMap<>();

    Handovers(CuratorFramework client, GroupView view, String group, String nodeId, Path dir, Duration bound) {
        this.client = client;
        this.view = view;
        this.group = group;
        this.nodeId = nodeId;
        this.dir = dir;
        this.boundNanos = bound.toNanos();
    }

    /**
     * As the primary of term {@code serving}, whose election znode is {@code ourPath}: checks that {@code to} is a
     * node of the election ({@code participants}) that follows this term (waiting up to 0.5 s for it to be), fences
     * the directory at {@code serving + 1} naming {@code to}, waits for appends already past the fence check to
     * settle, and records the handover in {@code <group>/handover} in a transaction that checks this node still holds
     * the election.
     *
     * @return the handover recorded
     * @throws IllegalArgumentException if {@code to} is this node, not in the election, or not a follower of this
     *                                  term (nothing changed)
     * @throws IllegalStateException    if the group's terms are used up (nothing changed)
     * @throws Exception                if anything fails once the directory is fenced (ZooKeeper, reading the end):
     *                                  the node then fences itself and leaves the leadership, as after a failed
     *                                  takeover
     */
    GroupZnodes.Handover begin(String to, long serving, String ourPath, Callable<Collection<Participant>> participants)
            throws Exception {
        if (to.equals(nodeId)) {
            throw new IllegalArgumentException("node " + nodeId + " cannot hand over to itself: it is the primary");
        }
        // a node re-enters the election 200 ms after it gave the leadership up, and a follower publishes its term
        // within a tick (100 ms) of taking it: wait a little before refusing
        long deadline = System.nanoTime() + MEMBER_WAIT_NANOS;
        while (!inElection(participants.call(), to) && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(MEMBER_POLL_NANOS);
        }
        if (!inElection(participants.call(), to)) {
            throw new IllegalArgumentException("node " + to + " is not in the election of group " + group
                    + ": no live node of that id to hand over to");
        }
        byte[] data = view.fresh(GroupZnodes.member(group, to), new Stat());
        GroupZnodes.Member theirs = GroupZnodes.Member.decode(data);
        while ((theirs == null || theirs.term() != serving) && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(MEMBER_POLL_NANOS);
            data = view.fresh(GroupZnodes.member(group, to), new Stat());
            theirs = GroupZnodes.Member.decode(data);
        }
        if (theirs == null || theirs.term() != serving) {
            throw new IllegalArgumentException("node " + to + " does not follow term " + serving + " (its member znode"
                    + " holds '" + GroupZnodes.text(data) + "'): hand over only to a follower of this primary");
        }
        long term = serving + 1;
        if (term > GroupZnodes.MAX_GROUP_TERM) {
            throw new IllegalStateException("node " + nodeId + " cannot hand over: the next term " + term
                    + " would leave no term for another promotion");
        }
        QueueTerms.fence(dir, term, to);
        try {
            long end = settledEnd();
            GroupZnodes.Handover handover = new GroupZnodes.Handover(term, end, nodeId, to);
            String path = GroupZnodes.handover(group);
            Stat stat = new Stat();
            boolean exists = view.fresh(path, stat) != null;
            byte[] value = handover.encode();
            client.transaction().forOperations(client.transactionOp().check().forPath(ourPath), exists
                    ? client.transactionOp().setData().withVersion(stat.getVersion()).forPath(path, value)
                    : client.transactionOp().create().forPath(path, value));
            firstSeen.put(handover, System.nanoTime());
            LOG.log(System.Logger.Level.INFO, "node " + nodeId + " hands over to node " + to + " at term " + term
                    + ": its queue " + dir + " is fenced with its end at index " + end);
            return handover;
        } catch (RuntimeException e) { // fenced already: not a refusal that changed nothing
            throw new Exception("node " + nodeId + " fenced " + dir + " for its handover to node " + to
                    + " but could not record it: " + e, e);
        }
    }

    /**
     * {@return the end index once it stayed the same for {@link #SETTLE_NANOS}} An append whose fence check came
     * before the fence may still claim its index just after it; one delayed between its check and its claim longer
     * than this (a descheduled thread) lands past the end taken, and is set aside when this node rejoins.
     */
    private long settledEnd() {
        long deadline = System.nanoTime() + SETTLE_BOUND_NANOS;
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, QueueOptions.defaults().readOnly(true))) {
            long end = queue.endIndex();
            while (true) {
                LockSupport.parkNanos(SETTLE_NANOS);
                long again = queue.endIndex();
                if (again == end || System.nanoTime() - deadline > 0) {
                    return again;
                }
                end = again;
            }
        }
    }

    private static boolean inElection(Collection<Participant> participants, String id) {
        return participants.stream().anyMatch(p -> p.getId().equals(id));
    }

    /**
     * {@return the fresh handover this node, elected, must respect, read from ZooKeeper; null if there is none} See
     * the class for what fresh means.
     *
     * @param participants the election's participants, as the node's latch sees them
     * @throws Exception if ZooKeeper cannot be asked
     */
    GroupZnodes.Handover pending(Collection<Participant> participants) throws Exception {
        byte[] data = view.fresh(GroupZnodes.handover(group), new Stat());
        GroupZnodes.Handover handover = GroupZnodes.Handover.decode(data);
        if (handover == null) {
            if (data != null && data.length > 0) {
                view.suspicious(GroupZnodes.handover(group), data, "malformed: ignored");
            }
            return null;
        }
        long groupTerm = GroupZnodes.decodeTerm(view.fresh(GroupZnodes.term(group), new Stat()));
        if (groupTerm == GroupZnodes.MALFORMED || handover.term() != groupTerm + 1) {
            return null; // taken (the group's term reached it), or of another time
        }
        if (!inElection(participants, handover.to())) {
            return null; // its node is not in the election: no one to wait for
        }
        long now = System.nanoTime();
        long seen = firstSeen.computeIfAbsent(handover, ignored -> now);
        if (now - seen > boundNanos) {
            view.suspicious(System.Logger.Level.INFO, GroupZnodes.handover(group), data, "not taken over within "
                    + Duration.ofNanos(boundNanos) + ": the group elects as usual");
            return null;
        }
        return handover;
    }

    /**
     * {@link FailoverNode#handover}: runs the primary's steps on the node's thread ({@code steps}, which calls
     * {@link #begin}), then waits until this node follows the node handed over to.
     *
     * @throws IllegalArgumentException as {@link #begin}
     * @throws IllegalStateException    if the node is closed, not the primary, or failed
     * @throws TimeoutException         as {@link #awaitFollowing}
     * @throws InterruptedException     if interrupted
     */
    FailoverNode.State handOver(String to, Supplier<Future<GroupZnodes.Handover>> steps,
                                Supplier<FailoverNode.State> state) throws TimeoutException, InterruptedException {
        GroupZnodes.Handover handover;
        try {
            handover = steps.get().get();
        } catch (RejectedExecutionException e) {
            throw new IllegalStateException("node " + nodeId + " is closed", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IllegalArgumentException refused) {
                throw new IllegalArgumentException(refused.getMessage(), refused);
            }
            throw new IllegalStateException("node " + nodeId + " failed to hand over to node " + to + ": "
                    + e.getCause(), e.getCause());
        }
        return awaitFollowing(handover, state);
    }

    /**
     * As the old primary after {@link #begin}: waits until this node follows {@code handover}'s node at its term or
     * later, up to twice the bound.
     *
     * @return this node's state then
     * @throws TimeoutException     if it does not within twice the bound
     * @throws InterruptedException if interrupted
     */
    FailoverNode.State awaitFollowing(GroupZnodes.Handover handover, Supplier<FailoverNode.State> state)
            throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + 2 * boundNanos;
        while (true) {
            FailoverNode.State now = state.get();
            if (now.role() == FailoverNode.Role.FOLLOWER && handover.to().equals(now.leaderId())
                    && now.term() >= handover.term()) {
                return now;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("node " + handover.to() + " did not take over term " + handover.term()
                        + " from node " + nodeId + " within " + Duration.ofNanos(2 * boundNanos) + " (" + now
                        + "): the group elects a primary as usual; " + dir + " stays fenced, nothing is lost");
            }
            Thread.sleep(1);
        }
    }

    /**
     * What the elected node does about a handover: take over now (both null and 0), give the leadership up for
     * {@code yieldReason}, or look again in {@code waitMillis}.
     *
     * @param yieldReason why it gives the leadership up, or null
     * @param waitMillis  when to look again, or 0
     */
    record Decision(String yieldReason, long waitMillis) {
        static final Decision TAKE_OVER = new Decision(null, 0);
    }

    /**
     * {@return what the elected node does about a fresh handover} A handover to another node: it gives the leadership
     * up, so that the election moves on to that node. A handover to this node: it keeps following until its directory
     * holds the old primary's records, up to the bound, and then takes over; past the bound it gives the handover and
     * the leadership up, and the group elects as usual. No fresh handover: it takes over as after any election.
     *
     * @param participants the election's participants, as the node's latch sees them
     * @throws Exception if ZooKeeper cannot be asked
     */
    Decision decide(Collection<Participant> participants) throws Exception {
        GroupZnodes.Handover handover = pending(participants);
        if (handover == null) {
            waitingSince = 0;
            return Decision.TAKE_OVER;
        }
        if (!handover.to().equals(nodeId)) {
            waitingSince = 0;
            return new Decision("node " + handover.from() + " hands over to node " + handover.to() + " at term "
                    + handover.term(), 0);
        }
        if (QueueTerms.status(dir).endIndex() >= handover.endIndex()) {
            waitingSince = 0;
            return Decision.TAKE_OVER;
        }
        long now = System.nanoTime();
        if (waitingSince == 0) {
            waitingSince = now;
        }
        if (now - waitingSince < boundNanos) {
            return new Decision(null, RETRY_MILLIS);
        }
        waitingSince = 0;
        firstSeen.put(handover, now - boundNanos - 1); // given up: no longer respected here
        return new Decision("it did not receive the records of node " + handover.from() + " up to index "
                + handover.endIndex() + " within " + Duration.ofNanos(boundNanos) + ": the handover is given up", 0);
    }

    /**
     * {@return the node an operator asks this primary to hand over to, taking the request (deleting it, if it is
     * unchanged); null if there is none} A malformed request is deleted and logged.
     *
     * @throws Exception if ZooKeeper cannot be asked
     */
    String takeRequest() throws Exception {
        String path = GroupZnodes.handoverRequest(group);
        byte[] cached = view.cached(path);
        if (cached == null) {
            return null;
        }
        Stat stat = new Stat();
        byte[] data = view.fresh(path, stat);
        if (data == null) {
            return null;
        }
        try {
            client.delete().withVersion(stat.getVersion()).forPath(path);
        } catch (KeeperException.BadVersionException | KeeperException.NoNodeException changed) {
            return null; // changed meanwhile: the cache tells, and this runs again
        }
        String to = GroupZnodes.decodeRequest(data);
        if (to == null) {
            view.suspicious(path, data, "not a node id: deleted, no handover");
        }
        return to;
    }
}
