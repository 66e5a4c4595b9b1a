package io.blit.queue;

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
    /** {@return the policy that keeps every file (the default)} */
    static RetentionPolicy keepAll() {
        return KeepAll.INSTANCE;
    }

    /**
     * {@return the policy that keeps the newest {@code files} files and deletes the older ones}
     *
     * @param files how many files to keep, at least 1 (the newest file is always kept)
     * @throws IllegalArgumentException if {@code files} is below 1
     */
    static RetentionPolicy keepNewestFiles(int files) {
        return new KeepNewestFiles(files);
    }

    /**
     * {@return the policy that deletes a file once every message in it is older than {@code age}} That is once the
     * first message of its successor (the next file) was appended more than {@code age} ago, by the time that message
     * carries (the queue's clock, not a file's creation or modification time; a file of format 1, whose records carry
     * none: its creation time). A record claimed before the roll and still uncommitted when the file is deleted is
     * seen only by tailers that have the file mapped.
     *
     * @param age how long a file is kept after its successor's first message, zero or more
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
     * @param maxAge how long a file is spared at most, counted as {@link #keepFor} counts; zero or more
     * @return the policy, an {@link UntilConsumed} of this one
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
     * @param maxBytes the most bytes the segment files may take before spared files go anyway, positive
     * @return the policy, an {@link UntilConsumed} of this one
     * @throws IllegalArgumentException if {@code maxBytes} is not positive, or this policy is an {@code untilConsumed} one
     */
    default RetentionPolicy untilConsumed(long maxBytes) {
        return new UntilConsumed(this, null, maxBytes);
    }

    /** Keeps everything. */
    enum KeepAll implements RetentionPolicy {
        /** The one instance. */
        INSTANCE
    }

    /**
     * Keeps the newest {@code files} files.
     *
     * @param files how many files to keep, at least 1
     */
    record KeepNewestFiles(int files) implements RetentionPolicy {
        /**
         * Checks the number of files.
         *
         * @throws IllegalArgumentException if {@code files} is below 1
         */
        public KeepNewestFiles {
            if (files < 1) {
                throw badRetention("keep at least one file, not " + files);
            }
        }
    }

    /**
     * Deletes what {@code base} deletes, but only files every named consumer has passed, or files past a limit: whose
     * successor's first message is older than {@code maxAge}, or the oldest while the files take more than
     * {@code maxBytes}. At least one limit is given.
     *
     * @param base     the policy whose deletions are held back; not an {@code UntilConsumed} itself
     * @param maxAge   the age limit, zero or more (null: no age limit)
     * @param maxBytes the size limit in bytes of segment files, positive ({@link Long#MAX_VALUE}: no size limit)
     */
    record UntilConsumed(RetentionPolicy base, Duration maxAge, long maxBytes) implements RetentionPolicy {
        /**
         * Checks the base policy and the limits.
         *
         * @throws NullPointerException     if {@code base} is null
         * @throws IllegalArgumentException if {@code base} is an {@code UntilConsumed}, no limit is given, or a limit
         *                                  is out of range
         */
        public UntilConsumed {
            Objects.requireNonNull(base, "base");
            if (base instanceof UntilConsumed) {
                throw badRetention("untilConsumed of an untilConsumed policy; new UntilConsumed(base, maxAge, maxBytes) takes both limits");
            }
            if (maxAge == null && maxBytes == Long.MAX_VALUE) {
                throw badRetention("untilConsumed needs a limit (an age or a size)");
            }
            if (maxAge != null && maxAge.isNegative()) {
                throw badRetention("negative age " + maxAge);
            }
            if (maxBytes <= 0) {
                throw badRetention("size limit " + maxBytes + " is not positive");
            }
        }
    }

    /**
     * Keeps the files holding a message younger than {@code age}.
     *
     * @param age how long a file is kept after its successor's first message, zero or more
     */
    record KeepFor(Duration age) implements RetentionPolicy {
        /**
         * Checks the age.
         *
         * @throws NullPointerException     if {@code age} is null
         * @throws IllegalArgumentException if {@code age} is negative
         */
        public KeepFor {
            Objects.requireNonNull(age, "age");
            if (age.isNegative()) {
                throw badRetention("negative age " + age);
            }
        }
    }

    private static IllegalArgumentException badRetention(String problem) {
        return new IllegalArgumentException("retention policy: " + problem);
    }
}
