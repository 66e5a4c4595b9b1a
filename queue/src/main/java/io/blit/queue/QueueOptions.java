package io.blit.queue;

import io.blit.core.LayoutPolicy;
import io.blit.queue.internal.QueueErrors;
import io.blit.queue.internal.SegmentHeader;
import io.blit.queue.internal.TimeRolls;
import java.time.Duration;
import java.util.Objects;

/**
 * Options of a {@link BlitQueue}; immutable. {@code QueueOptions.defaults().segmentSize(64 << 10)}.
 *
 * @param segmentSize     bytes of each new segment file (an existing queue keeps its own), a multiple of 4096 from
 *                        12 KiB to 4 GiB (checkpoints hold u32 positions); 256 MiB or more for the highest
 *                        sustained rates (docs/queue-performance.md)
 * @param abandonGrace    how long a CLAIMED record may stay so before a tailer checks whether its claimer died
 * @param layoutPolicy    how tailers read files written under another layout than the message class's
 * @param retention       which old files appenders of this queue object delete when they roll ({@link RetentionPolicy})
 * @param prepareNextFile whether an appender of a message-class queue has the next file created and zero-filled in
 *                        the background (default true; turn it off where no roll may happen in a latency-critical
 *                        session: docs/queue.md, "Latency-critical use")
 * @param privateFiles    whether every file this queue object creates is {@code rw-------} and every directory it
 *                        creates {@code rwx------}, whatever the umask (default false; existing files keep their
 *                        modes; ignored without POSIX permissions: docs/queue.md, "File modes")
 * @param readOnly        whether this queue object only reads (default false): it creates, writes and deletes nothing
 *                        and has no appenders or named consumers, for read-only mounts (docs/queue.md, "Read-only")
 * @param clock           the clock appenders read each record's time from (default {@link QueueClock#cached()})
 * @param rollEvery       whether appenders also start a new file at every UTC boundary of this period (a divisor of
 *                        a day from 1 s: {@code Duration.ofHours(1)} rolls at each full hour); {@link Duration#ZERO}
 *                        (default): by size only
 */
public record QueueOptions(long segmentSize, Duration abandonGrace, LayoutPolicy layoutPolicy,
                      RetentionPolicy retention, boolean prepareNextFile, boolean privateFiles, boolean readOnly,
                      QueueClock clock, Duration rollEvery) {
    /**
     * Checks the options.
     *
     * @throws IllegalArgumentException if the segment size is not a multiple of 4096 from
     *                                  {@link SegmentHeader#MIN_SEGMENT_SIZE} (12 KiB) to
     *                                  {@link SegmentHeader#MAX_SEGMENT_SIZE} (4 GiB), the grace is negative, or
     *                                  the roll period is neither zero nor a divisor of a day from 1 s
     * @throws NullPointerException     if the grace, a policy, the clock or the roll period is null
     */
    public QueueOptions {
        Objects.requireNonNull(abandonGrace, "abandonGrace");
        Objects.requireNonNull(layoutPolicy, "layoutPolicy");
        if (!SegmentHeader.isValidSegmentSize(segmentSize)) {
            throw QueueErrors.badSegmentSize(segmentSize);
        }
        if (abandonGrace.isNegative()) {
            throw QueueErrors.negativeGrace(abandonGrace);
        }
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(clock, "clock");
        TimeRolls.checkPeriod(Objects.requireNonNull(rollEvery, "rollEvery"));
    }

    /**
     * {@return the default options} 64 MiB segments; a CLAIMED record is checked for a dead claimer after 1 s; other
     * layouts translated; every file kept; the next file prepared in the background; files with the process's default
     * modes; the cached clock; rolls by size only.
     */
    public static QueueOptions defaults() {
        return new QueueOptions(BlitQueue.DEFAULT_SEGMENT_SIZE, Duration.ofSeconds(1), LayoutPolicy.TRANSLATE,
                RetentionPolicy.keepAll(), true, false, false, QueueClock.cached(), Duration.ZERO);
    }

    /**
     * {@return these options with another segment size (for a new queue)}
     *
     * @param bytes the size of each new segment file, as {@link #segmentSize()} says
     */
    public QueueOptions segmentSize(long bytes) {
        return new QueueOptions(bytes, abandonGrace, layoutPolicy, retention, prepareNextFile, privateFiles, readOnly,
                clock, rollEvery);
    }

    /**
     * {@return these options with another grace period before a tailer checks whether a claimer died}
     *
     * @param grace how long a record may stay CLAIMED before the check, zero or more
     */
    public QueueOptions abandonGrace(Duration grace) {
        return new QueueOptions(segmentSize, grace, layoutPolicy, retention, prepareNextFile, privateFiles, readOnly,
                clock, rollEvery);
    }

    /**
     * {@return these options with another policy for reading files written under another layout}
     *
     * @param policy STRICT refuses another layout; TRANSLATE reads it field by field
     */
    public QueueOptions layoutPolicy(LayoutPolicy policy) {
        return new QueueOptions(segmentSize, abandonGrace, policy, retention, prepareNextFile, privateFiles, readOnly,
                clock, rollEvery);
    }

    /**
     * {@return these options with another retention policy (applied by appenders when they roll)}
     *
     * @param policy which old files go
     */
    public QueueOptions retention(RetentionPolicy policy) {
        return new QueueOptions(segmentSize, abandonGrace, layoutPolicy, policy, prepareNextFile, privateFiles, readOnly,
                clock, rollEvery);
    }

    /**
     * {@return these options with the background preparation of the next file turned on or off}
     *
     * @param prepare whether the next file is prepared in the background ({@link #prepareNextFile()})
     */
    public QueueOptions prepareNextFile(boolean prepare) {
        return new QueueOptions(segmentSize, abandonGrace, layoutPolicy, retention, prepare, privateFiles, readOnly,
                clock, rollEvery);
    }

    /**
     * {@return these options with read-only opening turned on or off}
     *
     * @param onlyRead whether the queue object only reads ({@link #readOnly()})
     */
    public QueueOptions readOnly(boolean onlyRead) {
        return new QueueOptions(segmentSize, abandonGrace, layoutPolicy, retention, prepareNextFile, privateFiles, onlyRead,
                clock, rollEvery);
    }

    /**
     * {@return these options with owner-only files and directories turned on or off}
     *
     * @param ownerOnly whether what the queue object creates is owner-only ({@link #privateFiles()})
     */
    public QueueOptions privateFiles(boolean ownerOnly) {
        return new QueueOptions(segmentSize, abandonGrace, layoutPolicy, retention, prepareNextFile, ownerOnly, readOnly,
                clock, rollEvery);
    }

    /**
     * {@return these options with another clock for the records' times and the rolls by time}
     *
     * @param queueClock the clock appenders read
     */
    public QueueOptions clock(QueueClock queueClock) {
        return new QueueOptions(segmentSize, abandonGrace, layoutPolicy, retention, prepareNextFile, privateFiles, readOnly,
                queueClock, rollEvery);
    }

    /**
     * {@return these options with another roll period}
     *
     * @param period a divisor of a day from 1 s ({@link #rollEvery()}), or {@link Duration#ZERO}: by size only
     */
    public QueueOptions rollEvery(Duration period) {
        return new QueueOptions(segmentSize, abandonGrace, layoutPolicy, retention, prepareNextFile, privateFiles, readOnly,
                clock, period);
    }
}
