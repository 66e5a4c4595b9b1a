package io.blit.failover.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.replication.ReplicaOptions;
import io.blit.replication.SourceOptions;
import java.nio.file.Path;
import java.time.Duration;
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
