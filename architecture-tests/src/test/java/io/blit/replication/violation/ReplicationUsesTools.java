package io.blit.replication.violation;

import io.blit.tools.messages.MarketData;

/** Violates REPLICATION_USES_ONLY_QUEUE_AND_AERON: the replication library uses a demo message of the tools. */
public final class ReplicationUsesTools {
    public long securityOf(MarketData message) {
        return message.securityId;
    }
}
