package io.blit.queue.internal.file;

import io.blit.queue.internal.sidecar.ConsumerSlots;
import io.blit.queue.internal.writer.WriterRegistry;
import java.time.Instant;
import java.util.Optional;

/**
 * A process as a format-1 positions file names its consumers' holders, kept only to read such legacy files (format 2
 * names a writer id of the {@link WriterRegistry} instead: {@link ConsumerSlots}): its pid and its start time, in one
 * 62-bit word, so that a pid reused by another process is not taken for the process that wrote it — in a container,
 * a restarted consumer often gets the very pid its killed predecessor had.
 *
 * <pre>
 *  63 62 61                             32 31                              0
 * +-----+---------------------------------+---------------------------------+
 * | 0 0 | start stamp (30): start time in |             pid (32)            |
 * |     | epoch seconds mod 2^30; 0 = n/a |                                 |
 * +-----+---------------------------------+---------------------------------+
 * </pre>
 *
 * <p>Liveness ({@link #isAlive}): a word of this process's pid is alive exactly when it is this process's word (two
 * live processes never share a pid, so an equal pid with another stamp is an earlier process). A word of another pid
 * is alive when {@link ProcessHandle#of} finds a live process of that pid whose start stamp is within
 * {@value #STAMP_TOLERANCE_SECONDS} s of the stored one (the JDK computes start times from the boot time and clock
 * ticks; the tolerance keeps a rounding or an adjustment of the boot time from making a live process look dead), or
 * whose start time is unknown. Limits: a pid reused within that
 * tolerance, and processes in different pid namespaces sharing one directory, are not told apart — the same limits
 * as the queue's dead-writer detection. Stateless; thread-safe.
 */
public final class ProcessIdentity {
    /** Bits of the start stamp. */
    static final int STAMP_BITS = 30;
    public static final long STAMP_MASK = (1L << STAMP_BITS) - 1;
    static final long PID_MASK = 0xFFFF_FFFFL;
    /** How far two start stamps of one process may lie apart, in seconds. */
    static final long STAMP_TOLERANCE_SECONDS = 2;
    private static final long CURRENT = of(ProcessHandle.current().pid(), ProcessHandle.current().info().startInstant());

    private ProcessIdentity() {
    }

    /** This process's word: never 0. */
    public static long current() {
        return CURRENT;
    }

    /** The word of process {@code pid} started at {@code start} (stamp 0 when unknown). */
    public static long of(long pid, Optional<Instant> start) {
        long stamp = start.map(instant -> instant.getEpochSecond() & STAMP_MASK).orElse(0L);
        return stamp << 32 | (pid & PID_MASK);
    }

    /** The pid of a word. */
    public static long pid(long identity) {
        return identity & PID_MASK;
    }

    /** The start stamp of a word (0: unknown). */
    public static long stamp(long identity) {
        return (identity >>> 32) & STAMP_MASK;
    }

    /** Whether the process a non-zero word names is alive (see the class comment); checks {@code /proc} for another pid. */
    public static boolean isAlive(long identity) {
        if (identity == CURRENT) {
            return true;
        }
        long pid = pid(identity);
        if (pid == pid(CURRENT)) {
            return false; // this pid is this process, and the word is not this process's: an earlier one's
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return false;
        }
        long stored = stamp(identity);
        long actual = stamp(of(pid, handle.get().info().startInstant()));
        if (stored == 0 || actual == 0) {
            return true; // start time unknown: the pid alone decides, as for the queue's writers
        }
        long distance = Math.abs(stored - actual);
        return Math.min(distance, (1L << STAMP_BITS) - distance) <= STAMP_TOLERANCE_SECONDS;
    }
}
