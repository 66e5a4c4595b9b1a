package io.blit.failover.zookeeper;

import java.io.IOException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;

/**
 * This node's place in its group's election, {@code <group>/election}, through Curator's {@link LeaderLatch}: the
 * latch it holds, how it gives the leadership up (leaving the election and re-entering it 200 ms later, at the back,
 * with a new latch), and how it leaves for good. Which node should win is not decided here: the node's role state
 * machine ({@link FailoverNode}) is told when this node is elected and when it loses the leadership, and decides.
 *
 * <p>Thread-safety: {@link #latch()} may be called from any thread (a volatile read of the latch it holds now);
 * {@link #start} and {@link #close} are called once each, by the node; {@link #yieldLeadership} runs on the node's
 * thread. The callbacks run in Curator's threads.
 */
final class Election {
    private static final System.Logger LOG = System.getLogger("io.blit.failover.zookeeper");
    private static final long REJOIN_ELECTION_MILLIS = 200;

    private final CuratorFramework client;
    private final String group;
    private final String nodeId;
    private final ScheduledExecutorService worker;
    private final Runnable onElected;
    private final Runnable onLost;
    private final BooleanSupplier nodeClosed;
    private volatile LeaderLatch latch;

    /**
     * @param client    the node's ZooKeeper client
     * @param group     the group's path
     * @param nodeId    this node's id, the data of its election znode
     * @param worker    the node's thread, on which it re-enters the election
     * @param onElected runs, in Curator's thread, when this node is elected
     * @param onLost    runs, in Curator's thread, when this node loses the leadership
     * @param closed    whether the node closed (then it does not re-enter the election)
     */
    Election(CuratorFramework client, String group, String nodeId, ScheduledExecutorService worker,
             Runnable onElected, Runnable onLost, BooleanSupplier closed) {
        this.client = client;
        this.group = group;
        this.nodeId = nodeId;
        this.worker = worker;
        this.onElected = onElected;
        this.onLost = onLost;
        this.nodeClosed = closed;
    }

    /** Enters the election. Logs, and does not throw, if it cannot. */
    void start() {
        latch = newLatch();
        startLatch(latch);
    }

    /** {@return the latch this node holds in the election now; another one after it gave the leadership up} */
    LeaderLatch latch() {
        return latch;
    }

    private LeaderLatch newLatch() {
        LeaderLatch fresh = new LeaderLatch(client, GroupZnodes.election(group), nodeId);
        fresh.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                onElected.run();
            }

            @Override
            public void notLeader() {
                onLost.run();
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

    /** Leaves the election and re-enters it shortly after, at the back of the queue. */
    void yieldLeadership(String reason) {
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
                if (!nodeClosed.getAsBoolean() && latch == fresh) {
                    startLatch(fresh);
                }
            }, REJOIN_ELECTION_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            // the node closed meanwhile: it does not re-enter
        }
    }

    /** Leaves the election for good. Logs, and does not throw, if it cannot. */
    void close() {
        try {
            latch.close(LeaderLatch.CloseMode.SILENT);
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "node " + nodeId + " cannot leave the election: " + e);
        }
    }
}
