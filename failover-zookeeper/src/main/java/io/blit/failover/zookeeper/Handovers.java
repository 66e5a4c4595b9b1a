package io.blit.failover.zookeeper;

import io.blit.queue.replica.QueueTerms;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
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
 * <p>Thread-safety: every method runs on the node's thread, but {@link #expire} may be called from any thread.
 */
final class Handovers {
    private static final System.Logger LOG = System.getLogger("io.blit.failover.zookeeper");
    /** How long the end index must stay unchanged after the fence: appends whose fence load preceded it finish. */
    private static final long SETTLE_NANOS = 1_000_000L;
    private static final long SETTLE_BOUND_NANOS = 1_000_000_000L;
    private static final long MEMBER_WAIT_NANOS = 500_000_000L;
    private static final long MEMBER_POLL_NANOS = 10_000_000L;

    private final CuratorFramework client;
    private final GroupView view;
    private final String group;
    private final String nodeId;
    private final Path dir;
    private final long boundNanos;
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

    /** {@return the bound of a handover: how long its node may take to hold its records and take over} */
    long boundNanos() {
        return boundNanos;
    }

    /**
     * As the primary of term {@code serving}, whose election znode is {@code ourPath}: checks that {@code to} is a
     * node of the election that follows this term, fences the directory at {@code serving + 1} naming {@code to},
     * waits for appends already past the fence check to settle, and records the handover in {@code <group>/handover}
     * in a transaction that checks this node still holds the election.
     *
     * @return the handover recorded
     * @throws IllegalArgumentException if {@code to} is this node, not in the election, or not a follower of this
     *                                  term (nothing changed)
     * @throws IllegalStateException    if the group's terms are used up (nothing changed)
     * @throws Exception                if ZooKeeper fails once the directory is fenced: the node then leaves the
     *                                  leadership as after any failed takeover
     */
    GroupZnodes.Handover begin(String to, long serving, String ourPath, Collection<Participant> participants)
            throws Exception {
        if (to.equals(nodeId)) {
            throw new IllegalArgumentException("node " + nodeId + " cannot hand over to itself: it is the primary");
        }
        if (participants.stream().noneMatch(p -> p.getId().equals(to))) {
            throw new IllegalArgumentException("node " + to + " is not in the election of group " + group
                    + ": no live node of that id to hand over to");
        }
        // a follower publishes its term within a tick (100 ms) of taking it: wait a few ticks before refusing
        long memberDeadline = System.nanoTime() + MEMBER_WAIT_NANOS;
        byte[] data = view.fresh(GroupZnodes.member(group, to), new Stat());
        GroupZnodes.Member theirs = GroupZnodes.Member.decode(data);
        while ((theirs == null || theirs.term() != serving) && System.nanoTime() - memberDeadline < 0) {
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
        long end = settledEnd();
        GroupZnodes.Handover handover = new GroupZnodes.Handover(term, end, nodeId, to);
        String path = GroupZnodes.handover(group);
        Stat stat = new Stat();
        boolean exists = view.fresh(path, stat) != null;
        client.transaction().forOperations(
                client.transactionOp().check().forPath(ourPath),
                exists ? client.transactionOp().setData().withVersion(stat.getVersion()).forPath(path, handover.encode())
                        : client.transactionOp().create().forPath(path, handover.encode()));
        firstSeen.put(handover, System.nanoTime());
        LOG.log(System.Logger.Level.INFO, "node " + nodeId + " hands over to node " + to + " at term " + term
                + ": its queue " + dir + " is fenced with its end at index " + end);
        return handover;
    }

    /**
     * {@return the end index once it stayed the same for {@link #SETTLE_NANOS}} An append whose fence check came
     * before the fence may still claim its index just after it; one delayed between its check and its claim longer
     * than this (a descheduled thread) lands past the end taken, and is set aside when this node rejoins.
     */
    private long settledEnd() {
        long deadline = System.nanoTime() + SETTLE_BOUND_NANOS;
        long end = QueueTerms.status(dir).endIndex();
        while (true) {
            LockSupport.parkNanos(SETTLE_NANOS);
            long again = QueueTerms.status(dir).endIndex();
            if (again == end || System.nanoTime() - deadline > 0) {
                return again;
            }
            end = again;
        }
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
        if (participants.stream().noneMatch(p -> p.getId().equals(handover.to()))) {
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

    /** Stops respecting {@code handover} on this node: its node gave it up. */
    void expire(GroupZnodes.Handover handover) {
        firstSeen.put(handover, System.nanoTime() - boundNanos - 1);
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
