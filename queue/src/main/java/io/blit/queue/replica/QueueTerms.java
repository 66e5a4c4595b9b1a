package io.blit.queue.replica;

import io.blit.queue.BlitQueue;
import io.blit.queue.QueueFencedException;
import io.blit.queue.QueueOptions;
import io.blit.queue.TermHistory;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.sidecar.FenceFile;
import io.blit.queue.internal.sidecar.HandedToNote;
import io.blit.queue.internal.sidecar.QuarantineMarker;
import io.blit.queue.internal.sidecar.ReplicaMarker;
import io.blit.queue.internal.sidecar.TermHistoryFile;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.UUID;

/**
 * The terms of a queue directory: fencing it when a newer term exists elsewhere, promoting a replica to the primary
 * of a new term, and reading what the directory is (docs/failover.md).
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li><b>The fence.</b> Every queue directory that took appends holds a fence word ({@code fence.blitf},
 *       docs/format.md "The fence"): the highest term it knows of. It only rises. Every appender of the queue, in
 *       every process, loads it before each claim and refuses to append ({@link QueueFencedException}) once it is
 *       above the term the appender writes in. An append whose load came before the raise may still complete.</li>
 *   <li><b>Terms.</b> A term is a number from 0 to {@link #MAX_TERM}, the largest a segment file's header records. A
 *       queue begins in term 0; each promotion begins a higher one at the promoted copy's end index. A term learnt
 *       from another copy through replication (a source's terms taken by its replica, a replica's term that fences
 *       its source) is at most {@link #MAX_LEARNT_TERM}, one below: a copy that learnt a term can always be promoted
 *       above it. Replication enforces this; {@link #fence} and {@link #promote(Path, long)} take the whole range.</li>
 *   <li><b>Promotion</b> changes the directory in three steps, each durable before the next: the new term is appended
 *       to the term history, the fence is raised to it, the {@code replica-of} marker is deleted. Appenders are refused
 *       until the last step (the marker). A crash between two steps leaves a replica whose history or fence already
 *       holds the new term: {@link #promote(Path)} run again begins the next term at the same index (a term without
 *       records costs nothing), and {@link #promote(Path, long)} needs a term above it.</li>
 * </ul>
 *
 * <p>Stateless; thread-safe. Promotion holds the directory's {@link ReplicaLock} while it runs, so that no follower
 * starts meanwhile; fencing is a compare-and-set, safe among processes.
 */
public final class QueueTerms {
    /** The highest term: a segment file's header records its term in a u32. */
    public static final long MAX_TERM = SegmentFormat.MAX_FILE_TERM;
    /**
     * The highest term replication takes from another copy of the queue, {@code MAX_TERM - 1}: a replica never takes,
     * and a source is never fenced to, a term above it, so every copy can still be promoted to a term above what it
     * learnt (docs/failover.md, "A term counts only within the queue's own history").
     */
    public static final long MAX_LEARNT_TERM = MAX_TERM - 1;

    private QueueTerms() {
    }

    /** A queue directory's role. */
    public enum Role {
        /** Appenders may write it. */
        PRIMARY,
        /** A replica: only its replication writes it; appenders are refused. */
        REPLICA,
        /** A former primary that knows of a newer term: appenders are refused; it should follow the new primary. */
        FENCED,
        /**
         * A quarantine queue ({@link Quarantine}: records an old primary set aside when it rejoined, or a copy of
         * them): kept to be read; appenders are refused, and nothing replicates or promotes it.
         */
        QUARANTINE
    }

    /**
     * What a queue directory is, read from its files without changing them.
     *
     * @param queueId   the queue's id, or null if it has none yet (never appended to, served or followed)
     * @param term      the newest term of its history, 0 without one
     * @param termStart the index of the first record of that term, 0 without a history
     * @param fenceTerm the highest term the directory knows of: its fence word, at least {@code term}
     * @param endIndex  the index the next record will have
     * @param role      {@link Role#QUARANTINE} if it is a quarantine queue (a {@code quarantine-of} marker, or where
     *                  a move put it); else {@link Role#REPLICA} if it has a {@code replica-of} marker; else
     *                  {@link Role#FENCED} if {@code fenceTerm} is above {@code term}; else {@link Role#PRIMARY}
     */
    public record Status(UUID queueId, long term, long termStart, long fenceTerm, long endIndex, Role role) {
    }

    /**
     * {@return the status of the queue directory {@code dir}} Opens the queue read-only: nothing is created or
     * written. A directory without segment files has end index 0.
     *
     * @throws IllegalArgumentException if {@code dir} is not a directory
     * @throws io.blit.queue.QueueCorruptedException if a file of the queue is invalid
     * @throws UncheckedIOException if the files cannot be read
     */
    public static Status status(Path dir) {
        requireDirectory(dir);
        // The marker first: a promotion deletes it last, so a directory seen without it shows the promotion's history.
        boolean replica = ReplicaMarker.sourceOf(dir) != null;
        TermHistory history = TermHistoryFile.read(dir);
        long term = history == null ? 0 : history.currentTerm();
        long termStart = history == null ? 0 : history.terms().getLast().firstIndex();
        long fenceTerm = Math.max(term, FenceFile.read(dir));
        Role role = QuarantineMarker.isQuarantine(dir) ? Role.QUARANTINE
                : replica ? Role.REPLICA : fenceTerm > term ? Role.FENCED : Role.PRIMARY;
        return new Status(history == null ? null : history.queueId(), term, termStart, fenceTerm, endIndex(dir), role);
    }

    /**
     * Raises the fence of the queue in {@code dir} to {@code term} if it is lower: from then on every appender of the
     * queue in a term below it, in any process and including those open now, throws {@link QueueFencedException}.
     * Never lowers it. The fence is created (holding the queue's current term) if the queue has none yet, and forced to
     * storage after a raise.
     *
     * @param term the term learnt of, 0 to {@link #MAX_TERM}
     * @return whether this call raised the fence (false: it was at {@code term} or above)
     * @throws IllegalArgumentException if {@code term} is out of range or {@code dir} is not a directory
     * @throws io.blit.queue.QueueCorruptedException if the fence or the term history is invalid
     * @throws UncheckedIOException if the fence cannot be created, mapped or forced
     */
    public static boolean fence(Path dir, long term) {
        requireTerm(term);
        requireDirectory(dir);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fence = mapFence(dir, arena);
            boolean raised = FenceFile.raise(fence, term);
            if (raised) {
                fence.force(); // a fence lost to a crash would let the old primary append again after its restart
            }
            return raised;
        }
    }

    /**
     * Fences the queue in {@code dir} at {@code term}, as {@link #fence(Path, long)}, for a planned handover to the
     * copy {@code newPrimary}: first records that {@code newPrimary} is the primary of {@code term} (the file
     * {@code handed-to}, docs/format.md), then raises the fence, so that every appender refused from then on throws a
     * {@link QueueFencedException} whose {@link QueueFencedException#newPrimary()} names it. A later fence at another
     * term does not name it.
     *
     * @param term       the term the new primary takes, 0 to {@link #MAX_TERM}
     * @param newPrimary the new primary's name (a node id, a host name): 1 to 200 printable ASCII characters
     * @return whether this call raised the fence
     * @throws IllegalArgumentException if {@code term} or {@code newPrimary} is out of range, or {@code dir} is not a
     *                                  directory: nothing is changed
     * @throws io.blit.queue.QueueCorruptedException if the fence or the term history is invalid
     * @throws UncheckedIOException if the note or the fence cannot be written
     */
    public static boolean fence(Path dir, long term, String newPrimary) {
        requireTerm(term);
        requireDirectory(dir);
        if (!HandedToNote.validName(newPrimary)) {
            throw new IllegalArgumentException("a new primary's name is 1 to 200 printable ASCII characters, not '"
                    + newPrimary + "'");
        }
        HandedToNote.write(dir, term, newPrimary, QueueIdentity.ownerOnly(dir));
        return fence(dir, term);
    }

    /**
     * Promotes the replica in {@code dir} to the primary of the next term: one above both its current term and its
     * fence. See {@link #promote(Path, long)}.
     *
     * @return the new term
     */
    public static long promote(Path dir) {
        return promoteTo(dir, -1);
    }

    /**
     * Promotes the replica in {@code dir} to the primary of term {@code term}, beginning at its end index (the index
     * its next append gets): the term is appended to its history, its fence raised to it, and its {@code replica-of}
     * marker deleted, in that order (see the class). Its appenders then append from its end index in the new term.
     * Stop the directory's follower first.
     *
     * @param term the new term: above the directory's current term and fence, at most {@link #MAX_TERM}
     * @return {@code term}
     * @throws IllegalStateException    if {@code dir} is not a replica (no {@code replica-of} marker), holds no queue
     *                                  id (it never followed its source), or a follower holds it (naming its pid):
     *                                  nothing is changed
     * @throws IllegalArgumentException if {@code term} is not above the current term and the fence, or above
     *                                  {@link #MAX_TERM}, or {@code dir} is not a directory: nothing is changed
     * @throws io.blit.queue.QueueCorruptedException if a file of the queue is invalid
     * @throws UncheckedIOException     if the file system fails (the steps done stay done: see the class)
     */
    public static long promote(Path dir, long term) {
        if (term < 1) {
            throw new IllegalArgumentException("a promotion's term is from 1 (above term 0, the queue's first), not "
                    + term);
        }
        return promoteTo(dir, term);
    }

    /** Promotes to the term {@code requested}, or to the next one (above the term and the fence) if it is -1. */
    private static long promoteTo(Path dir, long requested) {
        requireDirectory(dir);
        String source = ReplicaMarker.sourceOf(dir);
        if (source == null) {
            TermHistory own = TermHistoryFile.read(dir);
            long term = own == null ? 0 : own.currentTerm();
            long fence = FenceFile.read(dir);
            if (fence > term) { // a former primary: a new primary exists; promoting it would make a second one
                throw new IllegalStateException("queue " + dir + " is fenced: it was the primary of term " + term
                        + ", and term " + fence + " began on another copy; it is not promoted (that would make a"
                        + " second primary): follow the primary of term " + fence + " with replicate follow --rejoin");
            }
            throw new IllegalStateException("queue " + dir + " is not a replica (it has no " + ReplicaMarker.NAME
                    + " marker): it is a primary, which takes appends already; only a replica is promoted");
        }
        TermHistory seen = TermHistoryFile.read(dir);
        if (seen == null) {
            throw new IllegalStateException("replica " + dir + " (of " + source + ") holds no queue id: it has never"
                    + " followed its source, so it holds no copy of the queue to promote");
        }
        nextTerm(dir, seen, requested); // a refused term changes nothing, not even the lock file
        boolean ownerOnly = QueueIdentity.ownerOnly(dir);
        try (ReplicaLock held = ReplicaLock.acquire(dir, ownerOnly, "stop it before promoting the replica")) {
            TermHistory history = TermHistoryFile.read(dir); // again under the lock: a follower may have changed it
            long term = nextTerm(dir, history, requested);
            long end = endIndex(dir);
            long termStart = history.terms().getLast().firstIndex();
            if (end < termStart) {
                throw new IllegalStateException("replica " + dir + " ends at index " + end + ", before its term "
                        + history.currentTerm() + " begins (" + termStart + "): it cannot be promoted");
            }
            TermHistoryFile.write(dir, history.withTerm(term, end), ownerOnly, tag());
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment fence = mapFence(dir, arena);
                FenceFile.raise(fence, term);
                fence.force();
            }
            ReplicaMarker.remove(dir); // last: until now every appender is refused as on a replica
            return term;
        }
    }

    /**
     * {@return the term a promotion of the queue of {@code history} in {@code dir} begins: {@code requested}, or if
     * it is -1 one above the term and the fence}
     *
     * @throws IllegalArgumentException if {@code requested} is not above both, or the term is above {@link #MAX_TERM}
     */
    private static long nextTerm(Path dir, TermHistory history, long requested) {
        long current = history.currentTerm();
        long known = Math.max(current, FenceFile.read(dir));
        long term = requested == -1 ? known + 1 : requested;
        if (term <= known) {
            throw new IllegalArgumentException("cannot promote replica " + dir + " to term " + term + ": its term is "
                    + current + " and its fence " + known + "; give a higher term");
        }
        requireTerm(term);
        return term;
    }

    /**
     * Makes the primary in {@code dir} a replica of {@code source}, to rejoin the primary of a newer term: raises its
     * fence one term above its own, so that every appender open on it (in any process) stops at its next append, then
     * writes its {@code replica-of} marker, so that no appender opens. Its records stay; replication then sets aside
     * (quarantines) those the new primary's history does not hold. Nothing happens to a directory that is a replica
     * already. {@link #promote} reverses it.
     *
     * @param dir          the queue directory: a queue with an id (it was appended to, served or followed)
     * @param source       what the marker names (the source's endpoint)
     * @param privateFiles whether the marker (and a fence it creates) is owner-only
     * @return whether it was a primary and is a replica now
     * @throws IllegalArgumentException if {@code dir} is not a directory
     * @throws IllegalStateException    if the queue has no id (a queue of a build without ids: follow it into an
     *                                  empty directory instead), or its term is {@link #MAX_TERM}
     * @throws UncheckedIOException     if the files cannot be read or written
     */
    public static boolean demote(Path dir, String source, boolean privateFiles) {
        requireDirectory(dir);
        Objects.requireNonNull(source, "source");
        if (ReplicaMarker.sourceOf(dir) != null) {
            return false;
        }
        TermHistory history = TermHistoryFile.read(dir);
        if (history == null) {
            throw new IllegalStateException("queue " + dir + " has no queue id: it cannot rejoin a primary (replicate"
                    + " into an empty directory instead)");
        }
        if (history.currentTerm() >= MAX_TERM) {
            throw new IllegalStateException("queue " + dir + " is of the highest term " + MAX_TERM);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fence = mapFence(dir, arena);
            FenceFile.raise(fence, history.currentTerm() + 1);
            fence.force();
        }
        ReplicaMarker.mark(dir, source, privateFiles);
        return true;
    }

    /**
     * {@return the fence of the queue in {@code dir}: the highest term it knows of, or -1 if it has no fence file yet}
     * Reads the file (a few system calls): for a source that checks now and then whether its queue was promoted or
     * fenced, not for an append path.
     *
     * @throws IllegalArgumentException if {@code dir} is not a directory
     * @throws io.blit.queue.QueueCorruptedException if the fence file is invalid
     * @throws UncheckedIOException if it cannot be read
     */
    public static long fenceTerm(Path dir) {
        requireDirectory(dir);
        return FenceFile.read(dir);
    }

    /** The fence of {@code dir} mapped writable, created holding its current term if it has none. */
    private static MemorySegment mapFence(Path dir, Arena arena) {
        TermHistory history = TermHistoryFile.read(dir);
        FenceFile.createIfAbsent(dir, history == null ? 0 : history.currentTerm(), QueueIdentity.ownerOnly(dir),
                tag());
        MemorySegment fence = FenceFile.map(dir, true, arena);
        if (fence == null) {
            throw new IllegalStateException("the fence " + dir.resolve(FenceFile.NAME) + " was deleted while it was"
                    + " raised; it must stay while the queue exists");
        }
        return fence;
    }

    /** The index the next record of the queue in {@code dir} gets: 0 if it has no segment file yet. */
    private static long endIndex(Path dir) {
        if (SegmentFiles.list(dir).length == 0) {
            return 0;
        }
        try (BlitQueue<Void> queue = BlitQueue.openRaw(dir, QueueOptions.defaults().readOnly(true))) {
            return queue.endIndex();
        }
    }

    private static void requireTerm(long term) {
        if (term < 0 || term > MAX_TERM) {
            throw new IllegalArgumentException("a term is from 0 to " + MAX_TERM + ", not " + term);
        }
    }

    private static void requireDirectory(Path dir) {
        Objects.requireNonNull(dir, "dir");
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("no queue directory " + dir);
        }
    }

    private static String tag() {
        return ProcessHandle.current().pid() + "-" + Thread.currentThread().threadId();
    }
}
