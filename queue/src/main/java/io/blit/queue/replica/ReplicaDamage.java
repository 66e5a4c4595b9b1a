package io.blit.queue.replica;

import io.blit.queue.Quarantined;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.replica.QueueVerifier.Problem;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Sets a replica's damaged records aside so that its source sends them again: the verification of {@code blit check}
 * over its segment files, then every record from the first damaged one on moved into a quarantine queue inside the
 * directory ({@link Quarantine#moveFrom}: kept, never deleted), so that the replica ends before the damage and its
 * next session takes the rest again from its source. Sidecar damage is not the records': it is left to
 * {@code check}. Stateless; call only while holding the directory's {@link ReplicaLock}.
 */
public final class ReplicaDamage {
    private ReplicaDamage() {
    }

    /**
     * Verifies the replica in {@code dir} and sets its damaged records aside.
     *
     * @param dir a replica directory whose lock the caller holds
     * @return the quarantine queue holding the records set aside, or empty if its segment files are whole
     * @throws IllegalArgumentException if the damage is before the first file the replica holds (nothing to keep)
     * @throws io.blit.queue.QueueCorruptedException if a record before the damage cannot be read either
     * @throws java.io.UncheckedIOException if the file system fails (the replica keeps every record; a rerun converges)
     */
    public static Optional<Quarantined> setAside(Path dir) {
        long from = firstDamagedIndex(QueueVerifier.verify(dir));
        return from == Long.MAX_VALUE ? Optional.empty() : Quarantine.moveFrom(dir, from);
    }

    /**
     * The first index a damage of a segment file touches: the index of the damaged record, or the first index of a
     * file whose header, type table or a checkpoint slot is damaged (the whole file is then taken again); Long.MAX_VALUE
     * if none is damaged.
     */
    static long firstDamagedIndex(List<Problem> problems) {
        long from = Long.MAX_VALUE;
        for (Problem problem : problems) {
            String name = problem.file().getFileName().toString();
            if (!SegmentFiles.isSegmentName(name)) {
                continue;
            }
            long fileFirst = Long.parseLong(name.substring("segment-".length(), name.length() - ".blitq".length()));
            from = Math.min(from, problem.index() >= 0 ? problem.index() : fileFirst);
        }
        return from;
    }
}
