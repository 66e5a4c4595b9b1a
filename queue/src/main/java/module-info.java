/**
 * Blit's persisted queue: {@link io.blit.queue.BlitQueue}, a multi-producer, multi-consumer queue of
 * trivially copyable messages in a directory of memory-mapped segment files, with its
 * {@link io.blit.queue.Appender}s and {@link io.blit.queue.Tailer}s. Depends on Blit core and the JDK only.
 *
 * <p>{@code io.blit.queue.internal} (the engine: file formats, the record protocol, the walk and the directory of a
 * queue's files) is not exported; docs/queue-design.md, "Layers", says which package may use which.
 */
module io.blit.queue {
    requires transitive io.blit.core;
    requires java.management; // QueueMXBean, on request (BlitQueue.registerMBean): the JDK's JMX, no dependency

    exports io.blit.queue;
    // The replication-only API: the stored bytes of a source, and a replica's writer (and dump's file headers).
    exports io.blit.queue.replica to io.blit.replication, io.blit.cli;
}
