package io.blit.failover.zookeeper.violation;

import io.blit.tools.messages.MarketData;

/** Violates FAILOVER_USES_ONLY_REPLICATION_AND_CURATOR: the coordinator uses a demo message of the tools. */
public final class CoordinatorUsesTools {
    public long securityOf(MarketData message) {
        return message.securityId;
    }
}
