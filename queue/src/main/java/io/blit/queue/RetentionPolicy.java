package io.blit.queue;

import io.blit.queue.internal.QueueErrors;
import java.time.Duration;
import java.util.Objects;

/**
 * Which old segment files an {@link Appender} deletes each time it rolls to a new file
 * ({@link BlitQueue.Options#retention(RetentionPolicy)}); {@link BlitQueue#applyRetention()} applies it on demand.
 *
 * <p>Whatever the policy, only whole files are deleted, oldest first (so the files left are always the
 * newest, contiguous in index), and never the newest file, the one being appended to. Retention does not
 * know where the tailers of other processes are: a tailer that lags behind it finds its next file gone and
 * gets a {@link MessagesDeletedException} naming the missing indices, never a silent skip. A tailer inside a
 * deleted file keeps reading it to its end: on Linux the mapping stays valid until it is unmapped.
 * Immutable; thread-safe.
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
     * Delete a file once every message in it is older than {@code age}: once its successor (the next file)
     * was created more than {@code age} ago, by the creation time recorded in that file's header. A record
     * claimed before the roll and still uncommitted when the file is deleted is seen only by tailers that
     * have the file mapped.
     *
     * @throws IllegalArgumentException if {@code age} is negative
     */
    static RetentionPolicy keepFor(Duration age) {
        return new KeepFor(age);
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
