/**
 * Automatic failover of a replicated Blit queue on ZooKeeper: a {@link io.blit.failover.zookeeper.FailoverNode} on
 * each machine elects the primary with Apache Curator, promotes the elected node's copy at a new term and serves it,
 * makes the others follow it, and fences a primary that loses ZooKeeper (docs/failover.md, "Automatic failover with
 * ZooKeeper"). Optional: nothing else in Blit needs it, and promoting by hand ({@code blit replicate promote}) needs
 * no coordinator.
 *
 * <p>A class-path library (automatic module {@code io.blit.failover.zookeeper}): ZooKeeper's two jars share packages,
 * so ZooKeeper, and with it this module, cannot be on the module path.
 */
package io.blit.failover.zookeeper;
