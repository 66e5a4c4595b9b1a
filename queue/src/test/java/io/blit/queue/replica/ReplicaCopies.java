package io.blit.queue.replica;

import io.blit.queue.internal.sidecar.TermHistoryFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Replica directories made by hand for the tests, as replication would leave them. */
public final class ReplicaCopies {
    private ReplicaCopies() {
    }

    /**
     * Makes {@code replica} (created if missing) a replica of the queue in {@code primary} as replication leaves it:
     * its segment files and its term history copied, and a {@code replica-of} marker naming an Aeron source.
     *
     * @param primary a queue directory
     * @param replica the directory to make a replica of it
     * @throws Exception if a file cannot be copied or written
     */
    public static void copyAsReplica(Path primary, Path replica) throws Exception {
        Files.createDirectories(replica);
        try (Stream<Path> files = Files.list(primary)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".blitq") || name.equals(TermHistoryFile.NAME)) {
                    Files.copy(file, replica.resolve(name));
                }
            }
        }
        Files.writeString(replica.resolve("replica-of"), "aeron 10.0.0.1:7000 " + primary + "\n");
    }
}
