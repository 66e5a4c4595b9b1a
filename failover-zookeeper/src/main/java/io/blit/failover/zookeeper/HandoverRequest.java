package io.blit.failover.zookeeper;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * An operator's request that the group's primary hand over to a node ({@code blit failover handover}): the znode
 * {@code <group>/handover-request} holding the node's id, which the primary watches and deletes when it takes it
 * (docs/failover.md, "Planned handover"). Stateless; thread-safe.
 */
public final class HandoverRequest {
    private static final long POLL_MILLIS = 5;

    private HandoverRequest() {
    }

    /**
     * Asks the primary of the group in {@code options} to hand over to node {@code to}, as {@code blit failover
     * handover} does: writes the request znode, which the primary takes ({@link FailoverNode#handover}), and waits
     * until the group's leader is {@code to} at a newer term. Uses a ZooKeeper client of its own, authenticated as
     * the options say; it takes no part in the election.
     *
     * @param options the group's ZooKeeper connection, path and authentication (a node's options)
     * @param to      the node to hand over to
     * @param timeout how long to wait for the new leader
     * @return the term at which {@code to} took over
     * @throws IllegalArgumentException if {@code to} is not a node id, or is the primary already
     * @throws TimeoutException         if the leader is not {@code to} within {@code timeout} (the request is withdrawn
     *                                  if the primary did not take it; the primary logs why it refused)
     * @throws InterruptedException     if interrupted while waiting
     * @throws IllegalStateException    if ZooKeeper cannot be reached within the connection timeout, or fails
     */
    public static long request(FailoverOptions options, String to, Duration timeout)
            throws TimeoutException, InterruptedException {
        if (GroupZnodes.decodeRequest(to.getBytes(java.nio.charset.StandardCharsets.UTF_8)) == null) {
            throw new IllegalArgumentException("not a node id: '" + to + "' (letters, digits, . _ -, 1 to 64)");
        }
        String group = options.groupPath();
        try (CuratorFramework client = GroupAccess.newClient(options)) {
            client.start();
            if (!client.blockUntilConnected((int) options.connectionTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("cannot reach ZooKeeper at " + options.connectString() + " within "
                        + options.connectionTimeout());
            }
            GroupZnodes.Leader before = GroupZnodes.Leader.decode(data(client, GroupZnodes.leader(group)));
            if (before != null && before.nodeId().equals(to)) {
                throw new IllegalArgumentException("node " + to + " is the primary of group " + group + " already"
                        + " (term " + before.term() + ")");
            }
            long since = before == null ? -1 : before.term();
            String path = GroupZnodes.handoverRequest(group);
            byte[] request = to.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            try {
                client.create().creatingParentsIfNeeded().forPath(path, request);
            } catch (KeeperException.NodeExistsException asked) {
                client.setData().forPath(path, request);
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                GroupZnodes.Leader now = GroupZnodes.Leader.decode(data(client, GroupZnodes.leader(group)));
                if (now != null && now.nodeId().equals(to) && now.term() > since) {
                    return now.term();
                }
                if (System.nanoTime() - deadline > 0) {
                    withdraw(client, path, request);
                    throw new TimeoutException("node " + to + " did not become the primary of group " + group
                            + " within " + timeout + " (the leader is " + (now == null ? "none" : "node "
                            + now.nodeId() + " of term " + now.term()) + "); the primary's log says why");
                }
                Thread.sleep(POLL_MILLIS);
            }
        } catch (TimeoutException | InterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot ask the primary of group " + group + " at "
                    + options.connectString() + " to hand over: " + e, e);
        }
    }

    private static byte[] data(CuratorFramework client, String path) throws Exception {
        try {
            return client.getData().forPath(path);
        } catch (KeeperException.NoNodeException none) {
            return null;
        }
    }

    /** Deletes the request if it is still this one (the primary did not take it). */
    private static void withdraw(CuratorFramework client, String path, byte[] request) throws Exception {
        Stat stat = new Stat();
        try {
            byte[] data = client.getData().storingStatIn(stat).forPath(path);
            if (java.util.Arrays.equals(data, request)) {
                client.delete().withVersion(stat.getVersion()).forPath(path);
            }
        } catch (KeeperException.NoNodeException | KeeperException.BadVersionException taken) {
            // taken meanwhile
        }
    }
}
