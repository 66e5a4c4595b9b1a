/**
 * {@code blit failover node}: a {@link io.blit.failover.zookeeper.FailoverNode} run from a configuration file
 * ({@link io.blit.failover.zookeeper.node.NodeConfig}), printing one line per change of its role, the main class of
 * {@code blit-failover.jar} ({@link io.blit.failover.zookeeper.node.FailoverMain}; docs/failover.md, "Running a node
 * from the command line"). Not a library API: the file format and the lines are the contract.
 */
package io.blit.failover.zookeeper.node;
