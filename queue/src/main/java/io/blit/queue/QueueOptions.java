package io.blit.queue;

import io.blit.core.LayoutPolicy;
import io.blit.queue.internal.format.SegmentFormat;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Options of a {@link BlitQueue}. The one way to configure a queue: start from {@link #defaults()} and change what
 * differs, each method returning new options with that one option changed:
 *
 * <pre>{@code
 * QueueOptions options = QueueOptions.defaults()
 *         .segmentSize(256L << 20)
 *         .retention(RetentionPolicy.keepNewestFiles(3));
 * }</pre>
 *
 * <p>An option added later comes with a default that keeps the behaviour of the options without it, so code written
 * against these methods keeps compiling and linking: there is no public constructor whose parameter list would grow.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li><b>Immutable and thread-safe.</b> No method changes an instance; each option method returns a new one and
 *       leaves its receiver as it was. An instance may be shared between threads without synchronisation, even
 *       published by a data race: its state is reachable only through a final field and never written after
 *       construction.</li>
 *   <li><b>Checked when set.</b> An option method throws on a value out of its bounds, naming the value, so an instance
 *       always holds valid options.</li>
 *   <li><b>Values.</b> Two instances are {@link #equals equal} when every option is; {@link #toString()} names
 *       each.</li>
 * </ul>
 */
public final class QueueOptions {
    /** The smallest segment size, 12 KiB: a file's header and checkpoint areas (8 KiB) and one page of records. */
    public static final long MIN_SEGMENT_SIZE = SegmentFormat.MIN_SEGMENT_SIZE;
    /** The largest segment size, 4 GiB: a file's checkpoints hold record positions as unsigned 32-bit numbers. */
    public static final long MAX_SEGMENT_SIZE = SegmentFormat.MAX_SEGMENT_SIZE;
    /** The default segment size, 64 MiB ({@link BlitQueue#DEFAULT_SEGMENT_SIZE}). */
    static final long DEFAULT_SEGMENT_SIZE = 64L << 20;
    private static final long DAY_NANOS = Duration.ofDays(1).toNanos();

    private final Values values;

    private QueueOptions(Values values) {
        check(values);
        this.values = values;
    }

    /**
     * {@return the default options} 64 MiB segments; a CLAIMED record is checked for a dead claimer after 1 s; other
     * layouts translated; every file kept; the next file prepared in the background; files with the process's default
     * modes; not read-only; the cached clock; rolls by size only; no record checksums written, those of files that
     * have them verified by tailers.
     */
    public static QueueOptions defaults() {
        return new QueueOptions(new Values());
    }

    /**
     * {@return the bytes of each new segment file} An existing queue keeps its own. A multiple of 4096 from 12 KiB to
     * 4 GiB (checkpoints hold u32 positions); 256 MiB or more for the highest sustained rates
     * (docs/queue-performance.md). Default {@value BlitQueue#DEFAULT_SEGMENT_SIZE} (64 MiB).
     */
    public long segmentSize() {
        return values.segmentSize;
    }

    /**
     * {@return these options with another segment size (for a new queue)}
     *
     * @param bytes the size of each new segment file, as {@link #segmentSize()} says
     * @throws IllegalArgumentException if {@code bytes} is not a multiple of 4096 from
     *                                  {@link #MIN_SEGMENT_SIZE} (12 KiB) to {@link #MAX_SEGMENT_SIZE} (4 GiB)
     */
    public QueueOptions segmentSize(long bytes) {
        return with(v -> v.segmentSize = bytes);
    }

    /** {@return how long a CLAIMED record may stay so before a tailer checks whether its claimer died} Default 1 s. */
    public Duration abandonGrace() {
        return values.abandonGrace;
    }

    /**
     * {@return these options with another grace period before a tailer checks whether a claimer died}
     *
     * @param grace how long a record may stay CLAIMED before the check, zero or more
     * @throws IllegalArgumentException if {@code grace} is negative
     * @throws NullPointerException     if {@code grace} is null
     */
    public QueueOptions abandonGrace(Duration grace) {
        return with(v -> v.abandonGrace = grace);
    }

    /** {@return how tailers read files written under another layout than the message class's} Default TRANSLATE. */
    public LayoutPolicy layoutPolicy() {
        return values.layoutPolicy;
    }

    /**
     * {@return these options with another policy for reading files written under another layout}
     *
     * @param policy STRICT refuses another layout; TRANSLATE reads it field by field
     * @throws NullPointerException if {@code policy} is null
     */
    public QueueOptions layoutPolicy(LayoutPolicy policy) {
        return with(v -> v.layoutPolicy = policy);
    }

    /**
     * {@return which old files appenders of this queue object delete when they roll ({@link RetentionPolicy})}
     * Default {@link RetentionPolicy#keepAll()}.
     */
    public RetentionPolicy retention() {
        return values.retention;
    }

    /**
     * {@return these options with another retention policy (applied by appenders when they roll)}
     *
     * @param policy which old files go
     * @throws NullPointerException if {@code policy} is null
     */
    public QueueOptions retention(RetentionPolicy policy) {
        return with(v -> v.retention = policy);
    }

    /**
     * {@return whether an appender of a message-class queue has the next file created and zero-filled in the
     * background} Default true; turn it off where no roll may happen in a latency-critical session (docs/queue.md,
     * "Latency-critical use").
     */
    public boolean prepareNextFile() {
        return values.prepareNextFile;
    }

    /**
     * {@return these options with the background preparation of the next file turned on or off}
     *
     * @param prepare whether the next file is prepared in the background ({@link #prepareNextFile()})
     */
    public QueueOptions prepareNextFile(boolean prepare) {
        return with(v -> v.prepareNextFile = prepare);
    }

    /**
     * {@return whether the files this queue object's appenders create carry a CRC32C in every message record} (segment
     * format 5; docs/format.md, "Records"). Readers verify the checksum of every record they return in such a file, and
     * throw {@link QueueCorruptedException} naming the file, offset and index where it does not match; {@code blit
     * check} verifies every record's. Default false (docs/queue-performance.md, "Record checksums", has the cost). Every
     * appender of a queue needs the same setting: an appender continues the queue in a new file of its own format when
     * it opens, and one that meets a file of the other format at a roll throws {@link LayoutMismatchException}. Files
     * of either format are read whatever this option says; a reader of a build before format 5 refuses format-5 files.
     */
    public boolean recordChecksums() {
        return values.recordChecksums;
    }

    /**
     * {@return these options with record checksums turned on or off}
     *
     * @param on whether the files this queue object's appenders create carry record checksums
     *           ({@link #recordChecksums()})
     */
    public QueueOptions recordChecksums(boolean on) {
        return with(v -> v.recordChecksums = on);
    }

    /**
     * {@return whether this queue object's tailers verify the checksum of every record they return in files with record
     * checksums} Default true. Turned off, a tailer returns a damaged record as it finds it: for a consumer that cannot
     * afford the cost (about 40 ns of tailer CPU a 144-byte message: docs/queue-performance.md, "Record checksums") and
     * leaves verification to {@code blit check} or to the replica. No effect on files without record checksums, on
     * appenders (which write checksums as {@link #recordChecksums()} says) or on replicas (which always verify).
     */
    public boolean verifyRecordChecksums() {
        return values.verifyRecordChecksums;
    }

    /**
     * {@return these options with the tailers' verification of record checksums turned on or off}
     *
     * @param verify whether tailers verify record checksums ({@link #verifyRecordChecksums()})
     */
    public QueueOptions verifyRecordChecksums(boolean verify) {
        return with(v -> v.verifyRecordChecksums = verify);
    }

    /**
     * {@return whether every file this queue object creates is {@code rw-------} and every directory it creates
     * {@code rwx------}, whatever the umask} Default false; existing files keep their modes; ignored without POSIX
     * permissions (docs/queue.md, "File modes").
     */
    public boolean privateFiles() {
        return values.privateFiles;
    }

    /**
     * {@return these options with owner-only files and directories turned on or off}
     *
     * @param ownerOnly whether what the queue object creates is owner-only ({@link #privateFiles()})
     */
    public QueueOptions privateFiles(boolean ownerOnly) {
        return with(v -> v.privateFiles = ownerOnly);
    }

    /**
     * {@return whether this queue object only reads} Default false. A read-only queue object creates, writes and
     * deletes nothing and has no appenders or named consumers, for read-only mounts (docs/queue.md, "Read-only").
     */
    public boolean readOnly() {
        return values.readOnly;
    }

    /**
     * {@return these options with read-only opening turned on or off}
     *
     * @param onlyRead whether the queue object only reads ({@link #readOnly()})
     */
    public QueueOptions readOnly(boolean onlyRead) {
        return with(v -> v.readOnly = onlyRead);
    }

    /** {@return the clock appenders read each record's time from} Default {@link QueueClock#cached()}. */
    public QueueClock clock() {
        return values.clock;
    }

    /**
     * {@return these options with another clock for the records' times and the rolls by time}
     *
     * @param queueClock the clock appenders read
     * @throws NullPointerException if {@code queueClock} is null
     */
    public QueueOptions clock(QueueClock queueClock) {
        return with(v -> v.clock = queueClock);
    }

    /**
     * {@return the period at whose every UTC boundary appenders also start a new file} A divisor of a day from 1 s:
     * {@code Duration.ofHours(1)} rolls at each full hour; {@link Duration#ZERO} (default): by size only.
     */
    public Duration rollEvery() {
        return values.rollEvery;
    }

    /**
     * {@return these options with another roll period}
     *
     * @param period a divisor of a day from 1 s ({@link #rollEvery()}), or {@link Duration#ZERO}: by size only
     * @throws IllegalArgumentException if {@code period} is neither zero nor a divisor of a day from 1 s
     * @throws NullPointerException     if {@code period} is null
     */
    public QueueOptions rollEvery(Duration period) {
        return with(v -> v.rollEvery = period);
    }

    /** {@return whether {@code other} is options of a queue with every option equal to this one's} */
    @Override
    public boolean equals(Object other) {
        if (!(other instanceof QueueOptions that)) {
            return false;
        }
        Values a = values;
        Values b = that.values;
        return a.segmentSize == b.segmentSize && a.abandonGrace.equals(b.abandonGrace)
                && a.layoutPolicy == b.layoutPolicy && a.retention.equals(b.retention)
                && a.prepareNextFile == b.prepareNextFile && a.privateFiles == b.privateFiles
                && a.recordChecksums == b.recordChecksums && a.verifyRecordChecksums == b.verifyRecordChecksums
                && a.readOnly == b.readOnly && a.clock.equals(b.clock) && a.rollEvery.equals(b.rollEvery);
    }

    @Override
    public int hashCode() {
        return Objects.hash(values.segmentSize, values.abandonGrace, values.layoutPolicy, values.retention,
                values.prepareNextFile, values.privateFiles, values.readOnly, values.clock, values.rollEvery,
                values.recordChecksums, values.verifyRecordChecksums);
    }

    /** {@return every option by name, as {@code QueueOptions[segmentSize=67108864, abandonGrace=PT1S, ...]}} */
    @Override
    public String toString() {
        return "QueueOptions[segmentSize=" + values.segmentSize + ", abandonGrace=" + values.abandonGrace
                + ", layoutPolicy=" + values.layoutPolicy + ", retention=" + values.retention
                + ", prepareNextFile=" + values.prepareNextFile + ", privateFiles=" + values.privateFiles
                + ", readOnly=" + values.readOnly + ", clock=" + values.clock + ", rollEvery=" + values.rollEvery
                + ", recordChecksums=" + values.recordChecksums + ", verifyRecordChecksums="
                + values.verifyRecordChecksums + "]";
    }

    /** New options: a copy of these values, changed by {@code change}, then checked. */
    private QueueOptions with(Consumer<Values> change) {
        Values copy = values.copy();
        change.accept(copy);
        return new QueueOptions(copy);
    }

    /**
     * Every check of every option, in one place: an option method changes one value of valid options, so what it
     * throws is about that value.
     */
    private static void check(Values values) {
        Objects.requireNonNull(values.abandonGrace, "abandonGrace");
        Objects.requireNonNull(values.layoutPolicy, "layoutPolicy");
        if (values.segmentSize < MIN_SEGMENT_SIZE || values.segmentSize > MAX_SEGMENT_SIZE
                || values.segmentSize % 4096 != 0) {
            throw new IllegalArgumentException("segment size " + values.segmentSize + " must be a multiple of 4096 from "
                    + MIN_SEGMENT_SIZE + " (12 KiB) to " + MAX_SEGMENT_SIZE
                    + " (4 GiB: checkpoints hold u32 record positions)");
        }
        if (values.abandonGrace.isNegative()) {
            throw new IllegalArgumentException("abandon grace " + values.abandonGrace + " is negative");
        }
        Objects.requireNonNull(values.retention, "retention");
        Objects.requireNonNull(values.clock, "clock");
        checkRollPeriod(Objects.requireNonNull(values.rollEvery, "rollEvery"));
    }

    /**
     * A roll period is zero (no rolls by time) or a divisor of a day of at least 1 s, so that its boundaries fall at
     * the same times of every UTC day, midnight among them.
     */
    private static void checkRollPeriod(Duration period) {
        if (period.isZero()) {
            return;
        }
        if (period.isNegative() || period.compareTo(Duration.ofSeconds(1)) < 0 || period.compareTo(Duration.ofDays(1)) > 0
                || DAY_NANOS % period.toNanos() != 0) {
            throw new IllegalArgumentException("rollEvery must be zero (roll by size only) or a period from 1 s to 1 day "
                    + "that divides a day (e.g. PT1H, PT15M, P1D), got " + period);
        }
    }

    /**
     * The options' state, initialised to the defaults. Mutable so that an option method changes one field of a copy
     * instead of repeating every option; written only before it is handed to the constructor, never after.
     */
    private static final class Values implements Cloneable {
        long segmentSize = DEFAULT_SEGMENT_SIZE;
        Duration abandonGrace = Duration.ofSeconds(1);
        LayoutPolicy layoutPolicy = LayoutPolicy.TRANSLATE;
        RetentionPolicy retention = RetentionPolicy.keepAll();
        boolean prepareNextFile = true;
        boolean privateFiles;
        boolean readOnly;
        QueueClock clock = QueueClock.cached();
        Duration rollEvery = Duration.ZERO;
        boolean recordChecksums;
        boolean verifyRecordChecksums = true;

        /** A field-by-field copy: the copy refers to the same policies, durations and clock, which it only reads. */
        Values copy() {
            try {
                return (Values) clone();
            } catch (CloneNotSupportedException impossible) {
                throw new AssertionError(impossible);
            }
        }
    }
}
