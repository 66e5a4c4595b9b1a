package io.blit.failover.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestLoginModule;
import org.apache.zookeeper.server.auth.ProviderRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SASL: the nodes log in through JAAS (DIGEST-MD5 here, as ZooKeeper's own tests do; Kerberos the same way), their
 * znodes get an ACL of the principal alone, and a stranger is refused. The JAAS configuration and the server's SASL
 * provider are the JVM's: set for this test and restored after it.
 */
class SaslTest {
    private static final String PASSWORD = "a password of the failover tests";

    @TempDir
    Path root;

    @Test
    void withSaslAuthTheGroupsZnodesBelongToThePrincipalAlone() throws Exception {
        Configuration previous = Configuration.getConfiguration();
        Configuration.setConfiguration(new Configuration() {
            @Override
            public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
                Map<String, String> options = switch (name) {
                    case "Server" -> Map.of("user_blit", PASSWORD);
                    case "BlitClient" -> Map.of("username", "blit", "password", PASSWORD);
                    default -> null;
                };
                return options == null ? null : new AppConfigurationEntry[] {new AppConfigurationEntry(
                        DigestLoginModule.class.getName(), AppConfigurationEntry.LoginModuleControlFlag.REQUIRED,
                        options)};
            }
        });
        ProviderRegistry.initialize();
        String provider = ProviderRegistry.AUTHPROVIDER_PROPERTY_PREFIX + "sasl";
        System.setProperty(provider, "org.apache.zookeeper.server.auth.SASLAuthenticationProvider");
        ProviderRegistry.addOrUpdateProvider(provider); // reads the class from the system property
        try (Group group = new Group(root, Duration.ofSeconds(3), "a", "b");
             CuratorFramework stranger = group.stranger()) {
            group.seed("a", 10);
            group.start("a", group.zookeeper.getConnectString(), options -> options.saslAuth("blit", "BlitClient"));
            group.start("b", group.zookeeper.getConnectString(), options -> options.saslAuth("blit", "BlitClient"));
            assertEquals("a", group.awaitPrimary(Duration.ofSeconds(60)).nodeId());

            String leader = GroupZnodes.leader(Group.PATH);
            assertThrows(KeeperException.NoAuthException.class, () -> stranger.getData().forPath(leader));
            assertThrows(KeeperException.NoAuthException.class, () -> stranger.setData().forPath(leader,
                    "4294967295 127.0.0.1:9 evil".getBytes(StandardCharsets.UTF_8)));
            assertThrows(KeeperException.NoAuthException.class,
                    () -> stranger.delete().forPath(GroupZnodes.member(Group.PATH, "b")));
            assertThrows(KeeperException.NoAuthException.class, () -> stranger.getACL().forPath(leader));
            ZKClientConfig login = new ZKClientConfig();
            login.setProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, "BlitClient");
            try (CuratorFramework principal = CuratorFrameworkFactory.builder()
                    .connectString(group.zookeeper.getConnectString()).retryPolicy(new RetryOneTime(100))
                    .zkClientConfig(login).build()) {
                principal.start();
                for (String path : List.of(Group.PATH, leader, GroupZnodes.term(Group.PATH),
                        GroupZnodes.member(Group.PATH, "b"))) {
                    assertEquals(List.of(new ACL(ZooDefs.Perms.ALL, new Id("sasl", "blit"))),
                            principal.getACL().forPath(path), path + ": the principal's alone");
                }
            }
        } finally {
            Configuration.setConfiguration(previous);
            ProviderRegistry.removeProvider("sasl");
            System.clearProperty(provider);
        }
    }
}
