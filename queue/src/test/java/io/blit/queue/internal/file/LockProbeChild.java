package io.blit.queue.internal.file;

import io.blit.queue.internal.writer.WriterRegistry;
import java.nio.file.Path;

/**
 * A child JVM for {@link FileLocksTest}: {@code LockProbeChild <file> <queue dir> <writer id>} asks who holds bytes 100,
 * 205 and 300 of {@code file} and whether writer {@code writer id} and the one after it are alive in
 * {@code queue dir}, and prints one line per answer.
 */
public final class LockProbeChild {
    private LockProbeChild() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("kernel " + FileLocks.kernelQueries());
        try (FileLocks.Probe probe = FileLocks.probe(Path.of(args[0]))) {
            System.out.println("authoritative " + probe.authoritative());
            for (long at : new long[] {100, 205, 300}) {
                FileLocks.Holder holder = probe.holder(at, 1);
                System.out.println(at + " " + (holder == null ? "none" : (holder.exclusive() ? "exclusive " : "shared ")
                        + holder.pid() + " " + holder.start() + " " + holder.end()));
            }
        }
        WriterRegistry writers = WriterRegistry.acquire(Path.of(args[1]));
        try {
            long id = Long.parseLong(args[2]);
            System.out.println("alive " + writers.isAlive(id) + " " + writers.isAlive(id + 1));
        } finally {
            writers.release();
        }
    }
}
