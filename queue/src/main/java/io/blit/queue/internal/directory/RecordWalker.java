package io.blit.queue.internal.directory;

import io.blit.queue.MessagesDeletedException;
import io.blit.queue.QueueCorruptedException;
import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.record.Checkpoints;
import io.blit.queue.internal.record.ClaimWatch;
import io.blit.queue.internal.record.RecordCursor;
import io.blit.queue.internal.record.RecordStep;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.SegmentFiles;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The reader's side of the record protocol for a tailer and a record stream: runs the record walk
 * ({@link RecordStep}) with its {@link RecordCursor} over the queue's files, to a start index when the tailer is
 * created ({@link #seek}) and then from one COMMITTED record to the next ({@link #advance}): over ABANDONED records,
 * across files (at a padding word or the end of a file, once the next file exists), passing the claims of dead
 * writers after the queue's abandon grace ({@link ClaimWatch}: marked ABANDONED, or stepped over in a read-only
 * queue). It keeps the state of the walk that is not the cursor's (the next file polled for, the claim watched);
 * the tailer passes its cursor to each call, so that a read reaches the cursor's fields with one load less.
 *
 * <p>Not thread-safe: it belongs to its tailer, and maps files in the thread that first advances it. Not API.
 */
public final class RecordWalker {
    private final SegmentDirectory files;
    /** The claim this walk waits on, and what it does once its writer is found dead. */
    private final ClaimWatch claims;
    /** The next file's path, named once per file: a tailer that has caught up polls for it at every read. */
    private Path nextFile;
    private long nextFileIndex = -1;
    /** The absent next file last checked for deletion, and when (System.nanoTime), to bound directory listings. */
    private long missingFile = -1;
    private long missingCheckedAt;
    /** Whether {@link #advance} verifies the checksum of each record in files with record checksums. */
    private final boolean verifyChecksums;

    public RecordWalker(SegmentDirectory files, long abandonGraceNanos) {
        this.files = files;
        this.verifyChecksums = files.verifyChecksums();
        this.claims = new ClaimWatch(files.writers(), abandonGraceNanos, files.readOnly());
    }

    /** A tailer's cursor at the first message of the queue. */
    public static RecordCursor atStart(SegmentDirectory files) {
        long first = files.firsts()[0];
        return RecordCursor.forTailer(first, SegmentFormat.RECORDS_START, 0);
    }

    /**
     * A tailer's cursor at index {@code target}, or, for {@code Long.MAX_VALUE}, at the first record of the newest
     * file that is empty or CLAIMED by a live writer (claims of dead writers are stepped over): walks from the nearest
     * checkpoint before {@code target} in the file holding it. Maps files in a temporary arena of this thread.
     *
     * @throws MessagesDeletedException if {@code target} was in a file deleted by retention
     * @throws IllegalArgumentException if {@code target} is negative
     */
    public static RecordCursor seek(SegmentDirectory files, long target) {
        return seek(files, target, ClaimWatch.stepOverDead(files.writers()));
    }

    /**
     * The index after the last record of the queue, committed or claimed, live or not: the first empty record word
     * of the newest file (the index the next claim gets).
     */
    public static long tail(SegmentDirectory files) {
        try (RecordCursor end = seek(files, Long.MAX_VALUE, ClaimWatch.STEP_OVER_ALL)) {
            return end.index();
        }
    }

    private static RecordCursor seek(SegmentDirectory files, long target, RecordStep.Claims atEnd) {
        long[] firsts = files.firsts();
        int at = target == Long.MAX_VALUE ? firsts.length - 1 : SegmentFiles.fileHolding(firsts, target);
        if (at < 0) {
            if (target >= 0) { // every queue starts at index 0: the files before the first were deleted
                throw QueueErrors.messagesDeleted(files.path(), target, firsts[0]);
            }
            throw QueueErrors.indexBeforeStart(files.path(), target, firsts[0]);
        }
        long first = firsts[at];
        while (true) {
            RecordCursor walk = RecordCursor.forTailer(first, SegmentFormat.RECORDS_START, 0);
            boolean nextFile;
            try (walk) {
                walk.attach(files.mapForReading(first, target == Long.MAX_VALUE ? first : target));
                nextFile = walkTo(walk, target, atEnd);
            }
            if (!nextFile || !Files.exists(SegmentFiles.path(files.path(), walk.index()))) {
                return walk;
            }
            first = walk.index();
        }
    }

    /**
     * Moves {@code walk} from the nearest checkpoint to {@code target} (over records of any state), or, for
     * {@code Long.MAX_VALUE}, to the end of the queue in its file: the first empty record or a claim {@code atEnd}
     * does not pass.
     *
     * @return true if the walk went on past the end of the file (the target is in a later file)
     */
    private static boolean walkTo(RecordCursor walk, long target, RecordStep.Claims atEnd) {
        MappedSegment file = walk.file();
        boolean toEnd = target == Long.MAX_VALUE;
        int checkpoint = Checkpoints.nearest(file.segment(), toEnd ? target : target - walk.firstIndex());
        walk.moveTo(Checkpoints.verifiedPosition(file, checkpoint), (long) checkpoint << SegmentFormat.CHECKPOINT_INTERVAL_SHIFT);
        while (walk.index() < target) {
            long word = RecordStep.next(walk, true, toEnd ? atEnd : RecordStep.STOP_AT_CLAIMS);
            if (word == 0) {
                return false;
            }
            if (RecordStep.endsFile(word)) {
                return true;
            }
            if (toEnd && RecordHeader.state(word) == RecordHeader.STATE_CLAIMED) {
                return false; // a claim the end-of-queue policy stops at
            }
            walk.skip(RecordHeader.length(word));
        }
        return false;
    }

    /**
     * Maps {@code cursor}'s file in this thread if it is not yet.
     *
     * @throws MessagesDeletedException if the file was deleted (by retention) before it was mapped
     */
    /** Maps the cursor's file in this thread if it is not yet. */
    public void ensureMapped(RecordCursor cursor) {
        if (!cursor.isMapped()) {
            cursor.attach(files.mapForReading(cursor.firstIndex(), cursor.index()));
        }
    }

    /**
     * Moves {@code cursor} to the next COMMITTED message record.
     *
     * @return its length field (its time included in format 2 and later), or -1 if there is none yet
     * @throws MessagesDeletedException if the next file was deleted (by retention)
     * @throws QueueCorruptedException  if a record header points past the end of its file, or has state bits 00 but is
     *                                  not 0 (no writer stores such a word: the file is corrupt, and left as it is), or
     *                                  the record's checksum does not match its bytes (format 5, unless the queue's
     *                                  options turned verification off)
     */
    public int advance(RecordCursor cursor) {
        ensureMapped(cursor);
        while (true) {
            long word = RecordStep.next(cursor, false, claims);
            if (word == 0) {
                return -1;
            }
            if (RecordStep.endsFile(word)) {
                if (!roll(cursor)) {
                    return -1;
                }
                continue;
            }
            if (RecordHeader.state(word) == RecordHeader.STATE_COMMITTED) {
                if (verifyChecksums) {
                    cursor.verifyChecksum(word); // format 5: a reader never returns a record whose bytes changed
                }
                return RecordHeader.length(word);
            }
            return -1; // a claim not passed (yet)
        }
    }

    /** What the walk does at a CLAIMED record: waits out the abandon grace, then passes a dead writer's claim. */
    public RecordStep.Claims claims() {
        return claims;
    }

    /** The claim watch of this walk (how long the claim at the cursor has stopped it). */
    public ClaimWatch watch() {
        return claims;
    }

    /**
     * Moves {@code cursor} to the file that starts at its index, if it exists yet.
     *
     * @throws MessagesDeletedException if that file was deleted (a later one exists); checked the first time
     *                                  the file is found absent, then at most once a millisecond (each check
     *                                  lists the directory), and on every call once it was found deleted
     * @throws QueueCorruptedException  if the cursor is at its file's first record (a padding word there: the file
     *                                  would continue in itself), or that file is absent while a later one and the
     *                                  cursor's file exist (the cursor's file ends at another index than its
     *                                  successor starts at)
     */
    public boolean roll(RecordCursor cursor) {
        long index = cursor.index();
        if (index == cursor.firstIndex()) {
            throw QueueErrors.paddingAtFirstRecord(cursor.file().info().file(), cursor.position());
        }
        if (nextFileIndex != index) {
            nextFile = SegmentFiles.path(files.path(), index);
            nextFileIndex = index;
        }
        if (!Files.exists(nextFile)) {
            long now = System.nanoTime();
            if (missingFile != index || now - missingCheckedAt >= 1_000_000L) {
                failIfDeleted(cursor, index);
                missingFile = index; // not created yet: look again in a millisecond at the earliest
                missingCheckedAt = now;
            }
            return false;
        }
        cursor.enter(files.mapForReading(index, index)); // mapped before the current file is unmapped
        return true;
    }

    /**
     * {@link Retention#failIfDeleted}, except that while the cursor's own file still exists, a missing next file was
     * not deleted (retention deletes the oldest files first): the cursor's file then ends (with a padding word, or its
     * end) at another index than the next file starts at, and is corrupt.
     */
    private void failIfDeleted(RecordCursor cursor, long index) {
        try {
            Retention.failIfDeleted(files.path(), index);
        } catch (MessagesDeletedException deleted) {
            Path current = cursor.file().info().file();
            if (Files.exists(current)) {
                QueueCorruptedException corrupt = QueueErrors.endsBeforeNextFile(current, cursor.position(), index,
                        deleted.firstAvailable());
                corrupt.initCause(deleted);
                throw corrupt;
            }
            throw deleted;
        }
    }
}
