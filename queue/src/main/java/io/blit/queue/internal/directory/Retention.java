package io.blit.queue.internal.directory;

import io.blit.queue.MessagesDeletedException;
import io.blit.queue.RetentionPolicy;
import io.blit.queue.internal.error.QueueErrors;
import io.blit.queue.internal.record.RecordTimes;
import io.blit.queue.internal.segment.MappedSegment;
import io.blit.queue.internal.segment.SegmentFiles;
import io.blit.queue.internal.segment.SegmentHeader;
import io.blit.queue.internal.sidecar.ConsumerFile;
import io.blit.queue.internal.sidecar.ConsumerSlots;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Deleting old segment files, and telling a file that was deleted from one not created yet.
 *
 * <p>Files are deleted oldest first and the newest is never deleted, so at every moment (with any number of
 * deleting threads and processes) the files left are a contiguous run ending with the newest. Hence a file
 * that is absent while a later one exists was deleted: files are created in index order (a file's first index
 * is known only once the previous file is full). Stateless; thread-safe.
 */
public final class Retention {
    private Retention() {
    }

    /**
     * Deletes, oldest first, every file whose every index is below {@code index}: each file whose successor
     * starts at or below {@code index}. The newest file is never deleted. Files another deleter removed first
     * are not reported.
     *
     * @return the files this call deleted, oldest first
     * @throws UncheckedIOException if the file system refuses a deletion (the older files are deleted)
     */
    public static List<Path> deleteBefore(Path dir, long index) {
        long[] firsts = SegmentFiles.list(dir);
        List<Path> deleted = new ArrayList<>();
        for (int i = 0; i + 1 < firsts.length && firsts[i + 1] <= index; i++) {
            Path file = SegmentFiles.path(dir, firsts[i]);
            try {
                if (Files.deleteIfExists(file)) {
                    deleted.add(file);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete queue file " + file + " (retention)", e);
            }
        }
        return List.copyOf(deleted);
    }

    /**
     * Applies {@code policy}: deletes the files it no longer keeps, as {@link #deleteBefore}.
     *
     * @param nowEpochNanos the current time by the queue's clock, compared with the times the records carry
     * @return the files this call deleted, oldest first
     */
    public static List<Path> apply(Path dir, RetentionPolicy policy, long nowEpochNanos) {
        if (policy instanceof RetentionPolicy.KeepAll) {
            return List.of(); // the default: no directory listing on every roll
        }
        long[] firsts = SegmentFiles.list(dir);
        int delete = Math.min(deletable(dir, firsts, policy, nowEpochNanos), firsts.length - 1);
        return delete <= 0 ? List.of() : deleteBefore(dir, firsts[delete]);
    }

    /** How many of the oldest files {@code policy} deletes (may exceed what may be deleted: the caller caps it). */
    private static int deletable(Path dir, long[] firsts, RetentionPolicy policy, long nowEpochNanos) {
        return switch (policy) {
            case RetentionPolicy.KeepAll keepAll -> 0;
            case RetentionPolicy.KeepNewestFiles keep -> Math.max(0, firsts.length - keep.files());
            case RetentionPolicy.KeepFor keep -> expired(dir, firsts, nowEpochNanos, keep.age().toNanos());
            case RetentionPolicy.UntilConsumed spare -> {
                int base = deletable(dir, firsts, spare.base(), nowEpochNanos);
                yield base == 0 ? 0 : Math.min(base, Math.max(passed(firsts, slowestNext(dir)),
                        forced(dir, firsts, spare, nowEpochNanos)));
            }
        };
    }

    /** How many of the oldest files hold only indices below {@code next}. */
    private static int passed(long[] firsts, long next) {
        int count = 0;
        while (count + 1 < firsts.length && firsts[count + 1] <= next) {
            count++;
        }
        return count;
    }

    /** How many of the oldest files are past {@code spare}'s limits, consumers or not. */
    private static int forced(Path dir, long[] firsts, RetentionPolicy.UntilConsumed spare, long nowEpochNanos) {
        int byAge = spare.maxAge() == null ? 0 : expired(dir, firsts, nowEpochNanos, spare.maxAge().toNanos());
        int bySize = 0;
        if (spare.maxBytes() != Long.MAX_VALUE && firsts.length > 0) {
            long segmentSize = SegmentFiles.readHeader(dir, firsts[firsts.length - 1]).segmentSize();
            long keep = Math.max(1, spare.maxBytes() / segmentSize);
            bySize = (int) Math.max(0, firsts.length - keep);
        }
        return Math.max(byAge, bySize);
    }

    /**
     * The lowest next index (committed index + 1) of the named consumers in {@code dir}'s positions file, read now;
     * {@link Long#MAX_VALUE} if there is no consumer. A consumer that moves back below it afterwards
     * ({@code NamedTailer.seek}) may find files deleted: it gets a {@link MessagesDeletedException}.
     */
    public static long slowestNext(Path dir) {
        try (Arena arena = Arena.ofConfined()) {
            ConsumerSlots slots = ConsumerFile.mapExisting(dir, arena, false, null); // indices only: no liveness
            long slowest = Long.MAX_VALUE;
            if (slots != null) {
                for (ConsumerSlots.Entry entry : slots.entries()) {
                    slowest = Math.min(slowest, entry.committed() + 1);
                }
            }
            return slowest;
        }
    }

    /**
     * How many of the oldest files have a successor whose first message was appended at or before {@code ageNanos}
     * before {@code nowEpochNanos} (every message of such a file is older): the records' own times, not the files' creation
     * (a file prepared in the background is created before the queue reaches it) or modification times. A successor
     * without a message yet started at the latest now: it counts as starting now (so an age of 0 deletes every file
     * but the newest at once, and a longer age waits for the successor's first message).
     */
    private static int expired(Path dir, long[] firsts, long nowEpochNanos, long ageNanos) {
        long cutoffEpochNanos = nowEpochNanos - ageNanos;
        int count = 0;
        while (count + 1 < firsts.length) {
            long successorStart;
            try (MappedSegment successor = new MappedSegment(SegmentFiles.readHeader(dir, firsts[count + 1]), true)) {
                successorStart = RecordTimes.firstMessageTime(successor);
            } catch (UncheckedIOException e) {
                if (e.getCause() instanceof NoSuchFileException) {
                    break; // deleted meanwhile by another deleter: stop here, it deletes the rest
                }
                throw e;
            }
            if ((successorStart == Long.MIN_VALUE ? nowEpochNanos : successorStart) > cutoffEpochNanos) {
                break;
            }
            count++;
        }
        return count;
    }

    /**
     * Called when the file starting at {@code index} was found absent: throws if it was deleted (absent from
     * a fresh listing that holds a later file), returns normally if it is not created yet or was created since
     * (other appenders may even have filled it and created its successor in between).
     *
     * @throws MessagesDeletedException naming {@code [index, first index of the oldest file left)}
     */
    public static void failIfDeleted(Path dir, long index) {
        long[] firsts = SegmentFiles.list(dir);
        int at = SegmentFiles.fileHolding(firsts, index);
        if (at >= 0 && firsts[at] == index) {
            return; // created (and maybe already followed by others) since the caller found it absent
        }
        if (at + 1 < firsts.length && !Files.exists(SegmentFiles.path(dir, index))) {
            // a later file exists, so this one was created before it; absent now (checked after the listing,
            // which may miss files created while it runs): deleted
            throw QueueErrors.messagesDeleted(dir, index, firsts[at + 1]);
        }
    }

    /**
     * The exception for a wanted {@code index} whose file vanished, found through {@code failure} (a
     * {@link NoSuchFileException} while opening or mapping it), or {@code failure} itself for other causes.
     */
    public static RuntimeException deletedOr(UncheckedIOException failure, Path dir, long index) {
        if (!(failure.getCause() instanceof NoSuchFileException)) {
            return failure;
        }
        long[] firsts = SegmentFiles.list(dir);
        for (long first : firsts) {
            if (first > index) {
                MessagesDeletedException deleted = QueueErrors.messagesDeleted(dir, index, first);
                deleted.initCause(failure);
                return deleted;
            }
        }
        return failure; // cannot happen: the newest file is never deleted
    }

    /**
     * The headers of the files {@code firsts}, skipping those deleted since they were listed (by retention in
     * another process).
     */
    public static List<SegmentHeader.Info> readExisting(Path dir, long[] firsts) {
        List<SegmentHeader.Info> infos = new ArrayList<>(firsts.length);
        for (long first : firsts) {
            try {
                infos.add(SegmentFiles.readHeader(dir, first));
            } catch (UncheckedIOException e) {
                if (!(e.getCause() instanceof NoSuchFileException)) {
                    throw e;
                }
            }
        }
        return infos;
    }
}
