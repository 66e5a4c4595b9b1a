package io.blit.queue;

import io.blit.queue.internal.QueueErrors;
import java.time.Duration;
import java.util.Objects;

/**
 * Which old segment files an {@link Appender} deletes each time it rolls to a new file
 * ({@link QueueOptions#retention(RetentionPolicy)}); {@link BlitQueue#applyRetention()} applies it on demand.
 *
 * <p>Whatever the policy, only whole files are deleted, oldest first (so the files left are always the
 * newest, contiguous in index), and never the newest file, the one being appended to. Retention does not
 * know where the tailers of other processes are: a tailer that lags behind it finds its next file gone and
 * gets a {@link MessagesDeletedException} naming the missing indices, never a silent skip. A tailer inside a
 * deleted file keeps reading it to its end: on Linux the mapping stays valid until it is unmapped.
 * {@link #untilConsumed(Duration)} and {@link #untilConsumed(long)} make a policy spare the files that named consumers
 * ({@link NamedTailer}) have not passed yet, up to a limit. Immutable; thread-safe.
 */
public sealed interface RetentionPolicy {
    /** Keep every file (the default). */
    static RetentionPolicy keepAll() {
        return KeepAll.INSTANCE;
    }

    /**
     * Keep the newest {@code files} files, delete the older ones.
     *
     * @throws IllegalArgumentException if {@code files} is below 1
     */
    static RetentionPolicy keepNewestFiles(int files) {
        return new KeepNewestFiles(files);
    }

    /**
     * Delete a file once every message in it is older than {@code age}: once the first message of its successor (the
     * next file) was appended more than {@code age} ago, by the time that message carries (the queue's clock, not a
     * file's creation or modification time; a file of format 1, whose records carry none: its creation time). A record
     * claimed before the roll and still uncommitted when the file is deleted is seen only by tailers that
     * have the file mapped.
     *
     * @throws IllegalArgumentException if {@code age} is negative
     */
    static RetentionPolicy keepFor(Duration age) {
        return new KeepFor(age);
    }

    /**
     * This policy, sparing every file that some named consumer has not passed, up to an age: of the files this policy
     * would delete, a file is deleted only once every named consumer in the queue's positions file has committed its
     * last index (the consumer's next index is in a later file), or anyway once its successor's first message is more than
     * {@code maxAge} old (as {@link #keepFor}). A consumer counts whether or not a process holds it — a crashed or
     * stopped consumer holds files back up to the limit; {@link BlitQueue#removeConsumer(String)} lets them go. A
     * consumer whose next index is deleted anyway gets {@link MessagesDeletedException} naming what was lost.
     * {@code keepNewestFiles(1).untilConsumed(Duration.ofDays(7))} deletes files as soon as every consumer has passed
     * them, and files a week old whatever the consumers.
     *
     * @throws IllegalArgumentException if {@code maxAge} is negative, or this policy is an {@code untilConsumed} one
     * @throws NullPointerException     if {@code maxAge} is null
     */
    default RetentionPolicy untilConsumed(Duration maxAge) {
        return new UntilConsumed(this, Objects.requireNonNull(maxAge, "maxAge"), Long.MAX_VALUE);
    }

    /**
     * This policy, sparing every file that some named consumer has not passed, up to a size: as
     * {@link #untilConsumed(Duration)}, except that the spared files are deleted anyway, oldest first, while the
     * queue's segment files take more than {@code maxBytes} (files × segment size; the newest file is always kept).
     *
     * @throws IllegalArgumentException if {@code maxBytes} is not positive, or this policy is an {@code untilConsumed} one
     */
    default RetentionPolicy untilConsumed(long maxBytes) {
        return new UntilConsumed(this, null, maxBytes);
    }

    /** Keeps everything. */
    enum KeepAll implements RetentionPolicy {
        INSTANCE
    }

    /** Keeps the newest {@code files} files; {@code files >= 1}. */
    record KeepNewestFiles(int files) implements RetentionPolicy {
        public KeepNewestFiles {
            if (files < 1) {
                throw QueueErrors.badRetention("keep at least one file, not " + files);
            }
        }
    }

    /**
     * Deletes what {@code base} deletes, but only files every named consumer has passed, or files past a limit: whose
     * successor's first message is older than {@code maxAge} (null: no age limit), or the oldest while the files take more than
     * {@code maxBytes} ({@link Long#MAX_VALUE}: no size limit). At least one limit is given.
     */
    record UntilConsumed(RetentionPolicy base, Duration maxAge, long maxBytes) implements RetentionPolicy {
        public UntilConsumed {
            Objects.requireNonNull(base, "base");
            if (base instanceof UntilConsumed) {
                throw QueueErrors.badRetention("untilConsumed of an untilConsumed policy; new UntilConsumed(base, maxAge, maxBytes) takes both limits");
            }
            if (maxAge == null && maxBytes == Long.MAX_VALUE) {
                throw QueueErrors.badRetention("untilConsumed needs a limit (an age or a size)");
            }
            if (maxAge != null && maxAge.isNegative()) {
                throw QueueErrors.badRetention("negative age " + maxAge);
            }
            if (maxBytes <= 0) {
                throw QueueErrors.badRetention("size limit " + maxBytes + " is not positive");
            }
        }
    }

    /** Keeps the files holding a message younger than {@code age}. */
    record KeepFor(Duration age) implements RetentionPolicy {
        public KeepFor {
            Objects.requireNonNull(age, "age");
            if (age.isNegative()) {
                throw QueueErrors.badRetention("negative age " + age);
            }
        }
    }
}
