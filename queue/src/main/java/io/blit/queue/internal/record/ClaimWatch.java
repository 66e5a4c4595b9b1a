package io.blit.queue.internal.record;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.writer.WriterLiveness;
import io.blit.queue.internal.writer.WriterRegistry;

/**
 * How a reader that waits on records treats a CLAIMED one ({@link RecordStep.Claims}): a claim is normally committed
 * within microseconds, so its writer's liveness ({@link WriterLiveness}, a system call) is checked only once the
 * same claim has stayed unchanged for the abandon grace, and again at most once per grace after that. A claim whose
 * writer is dead is marked ABANDONED by a compare-and-set from exactly the word seen (of several readers, one marks
 * it), or, by a reader that may not write (a read-only queue), stepped over with the file left unchanged.
 *
 * <p>{@link #stepOverDead} is the policy of one-shot walks (the time lookup, the end of the queue): no grace, the
 * writer's liveness checked at once, a dead claim stepped over without marking.
 *
 * <p>Not thread-safe: one per tailer or record stream.
 */
public final class ClaimWatch implements RecordStep.Claims {
    private final WriterRegistry writers;
    private final long graceNanos;
    private final boolean readOnly;
    /**
     * The CLAIMED word last seen stopping the walk, at which index, since when, and when its writer was last checked
     * (System.nanoTime).
     */
    private long watchedWord;
    private long watchedIndex = -1;
    private long watchedSince;
    private long checkedAt;

    /**
     * @param writers    the queue directory's registry
     * @param graceNanos how long a claim must stay unchanged before its writer's liveness is checked
     * @param readOnly   step over a dead claim instead of marking it ABANDONED
     */
    public ClaimWatch(WriterRegistry writers, long graceNanos, boolean readOnly) {
        this.writers = writers;
        this.graceNanos = graceNanos;
        this.readOnly = readOnly;
    }

    @Override
    public boolean pass(RecordCursor cursor, long word) {
        long now = System.nanoTime();
        long index = cursor.index();
        if (word != watchedWord || index != watchedIndex) {
            watchedWord = word;
            watchedIndex = index;
            watchedSince = now;
            checkedAt = now;
            return false;
        }
        if (now - checkedAt < graceNanos) {
            return false;
        }
        checkedAt = now;
        if (WriterLiveness.claimerAlive(writers, cursor.file().info().version(), word)) {
            return false;
        }
        if (readOnly) {
            cursor.skip(RecordHeader.length(word));
        } else {
            RecordProtocol.abandonDead(cursor.segment(), cursor.position(), word);
        }
        return true;
    }

    /** {@return how long, in nanoseconds, the claim at {@code index} with {@code word} has been watched; 0 if it is not} */
    public long watchedFor(long index, long word) {
        return index == watchedIndex && word == watchedWord ? System.nanoTime() - watchedSince : 0;
    }

    /** The policy of one-shot walks: a claim whose writer is dead now is stepped over, the file unchanged. */
    public static RecordStep.Claims stepOverDead(WriterRegistry writers) {
        return (cursor, word) -> {
            if (WriterLiveness.claimerAlive(writers, cursor.file().info().version(), word)) {
                return false;
            }
            cursor.skip(RecordHeader.length(word));
            return true;
        };
    }

    /** The policy of walks that count every record, claimed or not (the tail a claimer looks for). */
    public static final RecordStep.Claims STEP_OVER_ALL = (cursor, word) -> {
        cursor.skip(RecordHeader.length(word));
        return true;
    };
}
