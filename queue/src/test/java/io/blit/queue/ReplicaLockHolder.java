package io.blit.queue;

import io.blit.queue.replica.ReplicaLock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A child JVM for {@link ReplicaLockTest}: {@code ReplicaLockHolder <dir>} takes the replica lock of {@code dir}, prints
 * "locked <replica id>", then holds it until its stdin closes; then it releases it and exits 0.
 */
public final class ReplicaLockHolder {
    private ReplicaLockHolder() {
    }

    public static void main(String[] args) throws Exception {
        try (ReplicaLock lock = ReplicaLock.acquire(Path.of(args[0]), false)) {
            System.out.println("locked " + lock.replicaId());
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        }
    }
}
