/**
 * Replication of a Blit queue to queues on other machines over Aeron: a {@link io.blit.replication.ReplicationSource}
 * serves one queue directory, each {@link io.blit.replication.Replica} follows it into a directory of its own,
 * record by record and byte for byte, and acknowledges what it holds. Protocol, guarantees and configuration:
 * {@code docs/replication.md}.
 *
 * <p>Aeron and Agrona need {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} on the class path
 * ({@code =org.agrona} on the module path) on JDK 25.
 */
module io.blit.replication {
    requires transitive io.blit.queue;
    requires io.aeron.client;
    requires io.aeron.driver;
    requires org.agrona;

    exports io.blit.replication;
}
