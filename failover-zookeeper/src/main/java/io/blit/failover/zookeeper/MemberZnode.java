package io.blit.failover.zookeeper;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;

/**
 * This node's ephemeral znode {@code <group>/members/<nodeId>}, which tells the elected node what the node's
 * directory holds ({@link GroupZnodes.Member}): published when it changes, re-created at once when it is deleted
 * (Curator's {@link PersistentNode}), rewritten when another party changed it, and reported once when it could not be
 * created at all.
 *
 * <p>Not thread-safe: {@link #publish}, {@link #restore} and {@link #checkJoined} run on the node's thread alone;
 * {@link #start} and {@link #close} are called once each, by the node that owns it.
 */
final class MemberZnode {
    private static final System.Logger LOG = System.getLogger("io.blit.failover.zookeeper");

    private final FailoverOptions options;
    private final String nodeId;
    private final String group;
    private final GroupView view;
    private final PersistentNode member;
    private GroupZnodes.Member published;
    /** Whether the last tick saw this node's member znode holding another value than it published. */
    private boolean memberAltered;
    /** When the node started; 0 once it joined the group or said it could not. */
    private long joiningSince = System.nanoTime();

    /**
     * @param options the node's options: its id, group and session timeout
     * @param client  the node's ZooKeeper client
     * @param view    the node's view of its group, which reads the znode and reports what it rewrites
     */
    MemberZnode(FailoverOptions options, CuratorFramework client, GroupView view) {
        this.options = options;
        this.nodeId = options.nodeId();
        this.group = options.groupPath();
        this.view = view;
        this.member = new PersistentNode(client, CreateMode.EPHEMERAL, false, GroupZnodes.member(group, nodeId),
                GroupZnodes.Member.NONE.encode());
    }

    /** Creates the znode, holding {@link GroupZnodes.Member#NONE}, as soon as ZooKeeper answers. */
    void start() {
        member.start();
    }

    /**
     * Logs, once, a node whose member and election znodes still do not exist a session timeout after it connected:
     * Curator logs why only through slf4j (an identity the group's ACL refuses, typically).
     *
     * @param connected  whether the node is connected to ZooKeeper
     * @param inElection whether the node's election znode exists
     * @throws InterruptedException if the thread is interrupted
     */
    void checkJoined(boolean connected, BooleanSupplier inElection) throws InterruptedException {
        if (joiningSince == 0) {
            return;
        }
        if (member.waitForInitialCreate(0, TimeUnit.MILLISECONDS) && inElection.getAsBoolean()) {
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

    /**
     * Publishes {@code now} if it is not what the znode holds already, once the znode exists.
     *
     * @throws Exception if ZooKeeper cannot be asked
     */
    void publish(GroupZnodes.Member now) throws Exception {
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
     *
     * @param connected whether the node is connected to ZooKeeper
     * @throws Exception if ZooKeeper cannot be asked
     */
    void restore(boolean connected) throws Exception {
        if (published == null || !connected || !member.waitForInitialCreate(0, TimeUnit.MILLISECONDS)) {
            return;
        }
        String path = GroupZnodes.member(group, nodeId);
        byte[] seen = view.fresh(path, new Stat());
        if (seen == null || Arrays.equals(seen, published.encode())) {
            memberAltered = false;
            return;
        }
        if (!memberAltered) {
            memberAltered = true;
            return;
        }
        view.suspicious(path, seen, "not what its node published (" + GroupZnodes.text(published.encode())
                + "): rewritten");
        member.setData(published.encode());
        memberAltered = false;
    }

    /** Deletes the znode: the node leaves the group. Logs, and does not throw, if it cannot. */
    void close() {
        try {
            member.close();
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "node " + nodeId + " cannot leave the group: " + e);
        }
    }
}
