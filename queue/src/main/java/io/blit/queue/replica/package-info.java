/**
 * Replication's access to a queue's stored bytes, exported by the module only to {@code io.blit.replication} (and
 * the tools, whose {@code dump} prints file headers): {@link io.blit.queue.replica.RecordStream} reads every record
 * of a source queue as stored, {@link io.blit.queue.replica.ReplicaWriter} writes them into a replica byte for byte,
 * {@link io.blit.queue.replica.SourceFiles} compares file headers, {@link io.blit.queue.replica.QueueTerms} fences a
 * directory and promotes a replica (for replication and the {@code replicate promote} tool),
 * {@link io.blit.queue.replica.SourcePositions} and {@link io.blit.queue.replica.ReplicaPositions} read a source's
 * named consumers and write them into a replica. Applications use
 * {@code io.blit.queue} and {@code io.blit.replication}, never this package.
 */
package io.blit.queue.replica;
