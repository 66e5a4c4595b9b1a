package io.blit.queue.replica;

import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.record.SegmentTail;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.replica.QueueVerifier.Problem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;

/**
 * Cuts a replica back to before its first damaged record, so that its source sends the rest again: the verification
 * of {@code blit check} over its segment files, then every file holding records from the first damaged one on kept
 * whole in {@code <dir>/repair/<UTC time>/} (as {@code blit repair} keeps what it overwrites: never deleted), and the
 * replica cut at that index (later files deleted, newest first; the records from that index on cleared in the file
 * holding it). Its next session starts there. Damage in a file's header area (header, type table, checkpoint slots)
 * takes the whole file again. Sidecar damage is not the records': it is left to {@code check}.
 *
 * <p><b>Crash safety.</b> The copies are made before anything is cut; files are deleted newest first, so the replica's
 * files never have a gap; a crash at any point leaves a replica that a rerun verifies and cuts again (the records
 * are then kept a second time). Stateless; call only while holding the directory's {@link ReplicaLock}.
 */
public final class ReplicaDamage {
    private ReplicaDamage() {
    }

    /**
     * What was set aside.
     *
     * @param from the first index the replica no longer holds: it takes the records from there again
     * @param kept the directory holding the damaged files as they were
     */
    public record SetAside(long from, Path kept) {
    }

    /**
     * Verifies the replica in {@code dir} and cuts it back to before its first damaged record.
     *
     * @param dir a replica directory whose lock the caller holds, which nothing else writes
     * @return what was set aside, or empty if its segment files are whole
     * @throws io.blit.queue.QueueCorruptedException if a record before the damage cannot be read either
     * @throws UncheckedIOException if the file system fails (the replica keeps every record it held; a rerun converges)
     */
    public static Optional<SetAside> setAside(Path dir) {
        long from = firstDamagedIndex(QueueVerifier.verify(dir));
        if (from == Long.MAX_VALUE) {
            return Optional.empty();
        }
        long[] firsts = SegmentFiles.list(dir);
        int holding = SegmentFiles.fileHolding(firsts, from);
        Path kept = QueueRepair.keptDirectory(dir);
        try {
            for (long first : firsts) {
                if (first >= from || holding >= 0 && first == firsts[holding]) {
                    Path file = SegmentFiles.path(dir, first);
                    Files.copy(file, kept.resolve(file.getFileName()), LinkOption.NOFOLLOW_LINKS,
                            StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
            SegmentTail.forceDirectory(kept);
            for (int k = firsts.length - 1; k >= 0 && firsts[k] >= from; k--) {
                Files.delete(SegmentFiles.path(dir, firsts[k]));
            }
            SegmentTail.forceDirectory(dir);
            if (holding >= 0 && firsts[holding] < from) {
                SegmentTail.cutAtDamage(dir, firsts[holding], from);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set the damaged records of " + dir + " aside", e);
        }
        return Optional.of(new SetAside(from, kept));
    }

    /**
     * The first index a damage of a segment file touches: the damaged record's, or the first index of a file whose
     * header area (header, type table, checkpoint slots) is damaged; Long.MAX_VALUE if no segment file is damaged.
     */
    static long firstDamagedIndex(List<Problem> problems) {
        long from = Long.MAX_VALUE;
        for (Problem problem : problems) {
            String name = problem.file().getFileName().toString();
            if (!SegmentFiles.isSegmentName(name)) {
                continue;
            }
            long fileFirst = Long.parseLong(name.substring("segment-".length(), name.length() - ".blitq".length()));
            boolean inRecords = problem.index() >= 0 && problem.offset() >= SegmentFormat.RECORDS_START;
            from = Math.min(from, inRecords ? Math.max(fileFirst, problem.index()) : fileFirst);
        }
        return from;
    }
}
