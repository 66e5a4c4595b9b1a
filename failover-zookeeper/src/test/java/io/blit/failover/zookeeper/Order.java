package io.blit.failover.zookeeper;

import io.blit.core.TriviallyCopyable;

/** The failover tests' message: which node appended it, and the sequence number it was given there. */
public final class Order extends TriviallyCopyable {
    public long sequence;
    public long node;

    public Order fill(long sequence, long node) {
        this.sequence = sequence;
        this.node = node;
        return this;
    }
}
