package io.blit.failover.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.replication.ReplicaOptions;
import io.blit.replication.SourceOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.Test;

/** The options' defaults, checks, and what the node derives from them. */
class FailoverOptionsTest {
    private static final SourceOptions SOURCE = SourceOptions.of("10.0.0.1:7000", Group.SECRET);

    private static FailoverOptions options(String nodeId, String path) {
        return FailoverOptions.of(Path.of("/data/q"), nodeId, "zk:2181", path, SOURCE,
                primary -> ReplicaOptions.of(primary, "10.0.0.1:7001", Group.SECRET));
    }

    @Test
    void defaultsAreTenSecondSessionsAndFiveSecondConnections() {
        FailoverOptions options = options("node-a", "/blit/orders");
        assertEquals(Duration.ofSeconds(10), options.sessionTimeout());
        assertEquals(Duration.ofSeconds(5), options.connectionTimeout());
        assertEquals(Duration.ofSeconds(3), options.sessionTimeout(Duration.ofSeconds(3)).sessionTimeout());
        assertEquals(Duration.ofSeconds(10), options.sessionTimeout(), "an option method leaves its receiver as it was");
        assertEquals("world", options.authScheme(), "no authentication unless given");
        assertTrue(options.closeOnShutdown());
    }

    @Test
    void theConnectionTimeoutDefaultsToAtMostTheSessionTimeout() {
        FailoverOptions options = options("node-a", "/blit/orders");
        assertEquals(Duration.ofSeconds(2), options.sessionTimeout(Duration.ofSeconds(2)).connectionTimeout(),
                "with the documented 2 s session, Curator must not warn of a 5 s connection timeout");
        assertEquals(Duration.ofSeconds(5), options.sessionTimeout(Duration.ofSeconds(30)).connectionTimeout());
        assertEquals(Duration.ofSeconds(7), options.connectionTimeout(Duration.ofSeconds(7))
                .sessionTimeout(Duration.ofSeconds(2)).connectionTimeout(), "one given is kept");
    }

    @Test
    void digestAuthGivesTheZnodesAnAclOfThatIdentityAloneAndNeverShowsThePassword() throws Exception {
        FailoverOptions options = options("node-a", "/blit/orders").digestAuth("blit", "a password of the group");
        assertEquals("digest", options.authScheme());
        assertEquals("blit", options.authIdentity());
        String digest = DigestAuthenticationProvider.generateDigest("blit:a password of the group");
        assertEquals(List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest", digest))), options.acl());
        assertEquals("blit:a password of the group",
                new String(options.digestCredentials(), StandardCharsets.UTF_8));
        assertFalse(options.toString().contains("password"), options::toString);
        assertTrue(options.toString().contains("auth=digest:blit"), options::toString);
        assertThrows(IllegalArgumentException.class, () -> options.digestAuth("bl:it", "a password of the group"));
        assertThrows(IllegalArgumentException.class, () -> options.digestAuth("blit", "short"));
    }

    @Test
    void saslAuthGivesTheZnodesAnAclOfThePrincipalAlone() {
        FailoverOptions options = options("node-a", "/blit/orders").saslAuth("blit/host@EXAMPLE.COM", "BlitClient");
        assertEquals("sasl", options.authScheme());
        assertEquals(List.of(new ACL(ZooDefs.Perms.ALL, new Id("sasl", "blit/host@EXAMPLE.COM"))), options.acl());
        assertEquals("BlitClient", options.saslLoginContext());
        assertEquals(null, options.digestCredentials());
        assertThrows(IllegalArgumentException.class, () -> options.saslAuth("blit", "Blit Client"));
        assertEquals(ZooDefs.Ids.OPEN_ACL_UNSAFE, options("node-a", "/blit/orders").acl(), "the world ACL without one");
    }

    @Test
    void theNodePublishesItsSourcesFirstAdvertisedEndpointAndFollowsWithRejoin() {
        FailoverOptions options = options("node-a", "/blit/orders");
        assertEquals("10.0.0.1:7000", options.endpoint());
        ReplicaOptions replica = options.replicaFor("10.0.0.2:7000");
        assertEquals("10.0.0.2:7000", replica.source());
        assertTrue(replica.rejoin(), "a node follows with rejoin, so a former primary's tail is quarantined");
    }

    @Test
    void rejectsMalformedIdsPathsAndTimeouts() {
        assertThrows(IllegalArgumentException.class, () -> options("node a", "/blit/orders"));
        assertThrows(IllegalArgumentException.class, () -> options("", "/blit/orders"));
        assertThrows(IllegalArgumentException.class, () -> options("node-a", "blit/orders"));
        assertThrows(IllegalArgumentException.class, () -> options("node-a", "/blit/"));
        FailoverOptions options = options("node-a", "/blit/orders");
        assertThrows(IllegalArgumentException.class, () -> options.sessionTimeout(Duration.ofMillis(999)));
        assertThrows(IllegalArgumentException.class, () -> options.connectionTimeout(Duration.ofMinutes(11)));
        assertThrows(NullPointerException.class, () -> options.sessionTimeout(null));
    }
}
