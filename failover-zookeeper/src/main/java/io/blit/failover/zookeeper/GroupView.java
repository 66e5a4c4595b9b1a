package io.blit.failover.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.leader.Participant;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * One node's view of its group's znodes ({@link GroupZnodes}): read through a cache of the group (or fresh from
 * ZooKeeper where a decision needs it), each value checked against the others before it is believed, a suspicious
 * one logged once per value, and the primary's {@code <group>/term} and {@code <group>/leader} repaired.
 *
 * <p>Checks: a leader is the group's primary only if its term is the group's and its node holds the election
 * ({@link #inconsistency}); the elected node ranks itself against the well-formed member znodes of the nodes in the
 * election ({@link #rank}); a group or leader term far above every term the nodes know of is not believed
 * ({@link #believedGroupTerm}, {@link #believedLeaderTerm}).
 *
 * <p>Thread-safety: {@link #suspicious} and the cache reads may be called from any thread; the methods that write
 * ({@link #ensureGroupZnodes}, {@link #restoreAsPrimary}) and {@link #rank} run on the node's thread.
 * {@link #start} and {@link #close} are called once each, by the node that owns the view.
 */
final class GroupView {
    private static final System.Logger LOG = System.getLogger("io.blit.failover.zookeeper");
    /**
     * How far above every term the nodes of the election know of the group's term may be and still be believed:
     * each takeover that wrote a term and failed before its promotion leaves it one higher.
     */
    private static final long TERM_SLACK = 1000;

    private final CuratorFramework client;
    private final String group;
    private final String nodeId;
    private final String endpoint;
    /** The group's znodes (term, leader, election, members) as ZooKeeper last told them. */
    private final CuratorCache groupCache;
    /** The last suspicious value reported of each znode and why, so that each is logged once. */
    private final Map<String, String> reported = new ConcurrentHashMap<>();

    /**
     * @param client   the node's ZooKeeper client
     * @param group    the group's path
     * @param nodeId   this node's id
     * @param endpoint this node's replication endpoint, which it publishes as the primary
     */
    GroupView(CuratorFramework client, String group, String nodeId, String endpoint) {
        this.client = client;
        this.group = group;
        this.nodeId = nodeId;
        this.endpoint = endpoint;
        this.groupCache = CuratorCache.build(client, group);
    }

    /**
     * Starts the cache of the group; {@code onChange} runs, in the cache's thread, whenever the group's term, leader,
     * election or handover request changes.
     */
    void start(Runnable onChange) {
        groupCache.listenable().addListener((type, before, after) -> {
            String path = (after != null ? after : before).getPath();
            if (path.equals(GroupZnodes.leader(group)) || path.equals(GroupZnodes.term(group))
                    || path.equals(GroupZnodes.handoverRequest(group))
                    || path.startsWith(GroupZnodes.election(group))) {
                onChange.run();
            }
        });
        groupCache.start();
    }

    /** Closes the cache of the group. */
    void close() {
        groupCache.close();
    }

    /**
     * {@return why {@code leader} is not the group's primary by the other znodes as this node last saw them, or null
     * if it is: its term must be the group's term, and its node must hold the election}
     */
    String inconsistency(GroupZnodes.Leader leader) {
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
     * What the primary does after {@link #restoreAsPrimary}: fence for {@code fenceReason}, and leave the election as
     * well if {@code leave}.
     *
     * @param fenceReason why it fences, as its log says
     * @param leave       whether it also gives up the leadership (its election znode is gone)
     */
    record Verdict(String fenceReason, boolean leave) {
    }

    /**
     * As the primary of term {@code serving}, whose election znode is {@code ourPath}: restores {@code <group>/term}
     * and {@code <group>/leader} to its own values if they are not, in one transaction that checks it still holds
     * the election.
     *
     * @return null when the znodes are (now) the primary's or changed meanwhile (the cache tells, and this runs
     *         again); a verdict when its election znode is gone or a consistent leader of a newer term holds the
     *         election
     * @throws Exception if ZooKeeper cannot be asked
     */
    Verdict restoreAsPrimary(long serving, String ourPath) throws Exception {
        if (groupCache.get(ourPath).isEmpty() && client.checkExists().forPath(ourPath) == null) {
            return new Verdict("finds its election znode " + ourPath + " deleted", true);
        }
        String leaderPath = GroupZnodes.leader(group);
        String termPath = GroupZnodes.term(group);
        byte[] mine = new GroupZnodes.Leader(serving, endpoint, nodeId).encode();
        byte[] ourTerm = GroupZnodes.encodeTerm(serving);
        byte[] leaderData = cached(leaderPath);
        byte[] termData = cached(termPath);
        if (Arrays.equals(leaderData, mine) && Arrays.equals(termData, ourTerm)) {
            return null;
        }
        GroupZnodes.Leader other = GroupZnodes.Leader.decode(leaderData);
        if (other != null && other.term() > serving && !other.nodeId().equals(nodeId) && inconsistency(other) == null) {
            return new Verdict("sees primary " + other.nodeId() + " of the newer term " + other.term(), false);
        }
        // it holds the election (its znode exists, checked by the transaction): no other node may have changed them
        Stat termStat = new Stat();
        Stat leaderStat = new Stat();
        termData = fresh(termPath, termStat);
        leaderData = fresh(leaderPath, leaderStat);
        if (Arrays.equals(leaderData, mine) && Arrays.equals(termData, ourTerm)) {
            return null; // the cache was behind
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
            return null; // changed meanwhile: the cache tells, and this runs again
        } catch (KeeperException.NoNodeException gone) {
            if (client.checkExists().forPath(ourPath) == null) {
                return new Verdict("finds its election znode " + ourPath + " deleted", true);
            }
            return null;
        }
        suspicious(group + " (term, leader)", (GroupZnodes.text(termData) + " / " + GroupZnodes.text(leaderData))
                .getBytes(StandardCharsets.UTF_8), "not the primary's term " + serving + " and leader "
                + GroupZnodes.text(mine) + ": restored by the primary");
        return null;
    }

    /**
     * How the elected node ranks against the other nodes of the election.
     *
     * @param ahead       a description of a node ranked above it, or null if none is
     * @param unranked    the nodes of the election without a well-formed member znode (yet)
     * @param highestTerm the highest term a ranked node holds, -1 if none
     */
    record Ranking(String ahead, Set<String> unranked, long highestTerm) {
    }

    /**
     * {@return how {@code mine} ranks against every other node of the election} Only nodes of the election count (a
     * member znode of a node that is not in it is no live node's); a missing or malformed member znode (its owner
     * re-creates or rewrites it at once) leaves its node unranked.
     *
     * @param participants the election's participants, as the node's latch sees them
     * @param mine         what this node's directory holds
     * @throws Exception if ZooKeeper cannot be asked
     */
    Ranking rank(Collection<Participant> participants, GroupZnodes.Member mine) throws Exception {
        Set<String> others = new LinkedHashSet<>();
        for (Participant participant : participants) {
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
    long believedGroupTerm(byte[] data, long nodesKnow) {
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
     *
     * @throws Exception if ZooKeeper cannot be asked
     */
    long believedLeaderTerm(long nodesKnow) throws Exception {
        try {
            GroupZnodes.Leader leader = GroupZnodes.Leader.decode(client.getData().forPath(GroupZnodes.leader(group)));
            return leader == null || leader.term() > nodesKnow + TERM_SLACK ? -1 : leader.term();
        } catch (KeeperException.NoNodeException gone) {
            return -1;
        }
    }

    /**
     * {@return the term an elected node takes: above every term the nodes of the election know of
     * ({@code nodesKnow}), the group's (if believed) and the leader's (if plausible); may exceed
     * {@link GroupZnodes#MAX_GROUP_TERM}, which the caller refuses} Reads {@code <group>/term} fresh, its stat into
     * {@code termStat} for the version check of the write that takes the term.
     *
     * @throws Exception if ZooKeeper cannot be asked
     */
    long nextTerm(long nodesKnow, Stat termStat) throws Exception {
        byte[] termData = client.getData().storingStatIn(termStat).forPath(GroupZnodes.term(group));
        long groupKnows = Math.max(believedGroupTerm(termData, nodesKnow), believedLeaderTerm(nodesKnow));
        return Math.max(groupKnows, nodesKnow) + 1;
    }

    /**
     * Creates {@code <group>/term} and {@code <group>/leader}, empty, where they do not exist.
     *
     * @throws Exception if ZooKeeper cannot be asked
     */
    void ensureGroupZnodes() throws Exception {
        for (String path : new String[] {GroupZnodes.term(group), GroupZnodes.leader(group)}) {
            try {
                client.create().creatingParentsIfNeeded().forPath(path, new byte[0]);
            } catch (KeeperException.NodeExistsException exists) {
                // created by this node before, or by another
            }
        }
    }

    /**
     * {@return the data of {@code path} read from ZooKeeper, its stat into {@code stat}; null if it does not exist}
     *
     * @throws Exception if ZooKeeper cannot be asked
     */
    byte[] fresh(String path, Stat stat) throws Exception {
        try {
            return client.getData().storingStatIn(stat).forPath(path);
        } catch (KeeperException.NoNodeException gone) {
            return null;
        }
    }

    /** {@return the data of {@code path} as the group's cache last saw it; null if it saw none} */
    byte[] cached(String path) {
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
    void suspicious(String path, byte[] data, String what) {
        suspicious(System.Logger.Level.WARNING, path, data, what);
    }

    /** As {@link #suspicious(String, byte[], String)}, at {@code level}. */
    void suspicious(System.Logger.Level level, String path, byte[] data, String what) {
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
}
