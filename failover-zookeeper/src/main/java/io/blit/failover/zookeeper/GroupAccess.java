package io.blit.failover.zookeeper;

import java.util.HashSet;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * Who may read and write a group's znodes: the ZooKeeper client a node opens for itself, authenticated as its
 * {@link FailoverOptions} say and creating every znode with their ACL ({@link #newClient}), and the one-time
 * migration of the group's existing persistent znodes to that ACL ({@link #secureOnce}).
 *
 * <p>Not thread-safe: {@link #secureOnce} runs on the node's thread alone. {@link #newClient} is stateless.
 */
final class GroupAccess {
    private static final System.Logger LOG = System.getLogger("io.blit.failover.zookeeper");

    private final FailoverOptions options;
    private final CuratorFramework client;
    private final String group;
    private final String nodeId;
    /** Whether the group's existing znodes were given this node's ACL (or need not be). */
    private boolean groupSecured;

    /**
     * @param options    the node's options: its group, identity and ACL
     * @param client     the node's ZooKeeper client
     * @param ownsClient whether the node opened the client itself; a caller's client keeps its own ACL provider, and
     *                   the group's znodes are not migrated
     */
    GroupAccess(FailoverOptions options, CuratorFramework client, boolean ownsClient) {
        this.options = options;
        this.client = client;
        this.group = options.groupPath();
        this.nodeId = options.nodeId();
        this.groupSecured = !ownsClient || options.authIdentity() == null;
    }

    /**
     * {@return a Curator client, not started, of the ensemble in {@code options}} It uses their session and
     * connection timeouts, authenticates with their digest credentials or SASL login context, if any, and creates
     * every znode with their ACL.
     */
    static CuratorFramework newClient(FailoverOptions options) {
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
        return builder.build();
    }

    /**
     * Gives the group's existing persistent znodes this node's ACL if they have another (created before the group
     * had authentication): once, when the node has an identity and its own client; does nothing after that.
     *
     * @throws Exception if ZooKeeper cannot be asked (the next call tries again)
     */
    void secureOnce() throws Exception {
        if (groupSecured) {
            return;
        }
        List<ACL> acl = options.acl();
        for (String path : new String[] {group, GroupZnodes.election(group), GroupZnodes.term(group),
                GroupZnodes.leader(group), GroupZnodes.members(group), GroupZnodes.handover(group),
                GroupZnodes.handoverRequest(group)}) {
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
}
