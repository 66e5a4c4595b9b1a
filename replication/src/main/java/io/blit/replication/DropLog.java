package io.blit.replication;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts dropped messages by {@link DropReason} and logs a summary line at most once per {@link #INTERVAL_NANOS}
 * (warning level, with the counts since the previous line and the last peer seen), so that a flood costs a counter
 * increment per message and no log line of its own. Counting allocates nothing (the peer is kept as the reference
 * Aeron already holds).
 *
 * <p>{@link #count} and {@link #maybeLog} belong to the one thread that receives; {@link #total} may be read from any.
 */
final class DropLog {
    static final long INTERVAL_NANOS = 10_000_000_000L;
    private static final System.Logger LOG = System.getLogger("io.blit.replication");
    private static final DropReason[] REASONS = DropReason.values();

    private final String who;
    private final AtomicLongArray counts = new AtomicLongArray(REASONS.length);
    private final long[] logged = new long[REASONS.length];
    private long lastLog = System.nanoTime() - INTERVAL_NANOS;
    private String lastPeer;

    DropLog(String who) {
        this.who = who;
    }

    void count(DropReason reason, String peer) {
        counts.incrementAndGet(reason.ordinal());
        lastPeer = peer;
    }

    long total(DropReason reason) {
        return counts.get(reason.ordinal());
    }

    /** Logs what was dropped since the last line, if anything was and the interval has passed. */
    void maybeLog(long now) {
        if (now - lastLog < INTERVAL_NANOS) {
            return;
        }
        StringBuilder line = null;
        for (DropReason reason : REASONS) {
            long count = counts.get(reason.ordinal());
            long since = count - logged[reason.ordinal()];
            if (since > 0) {
                line = line == null ? new StringBuilder(who).append(" dropped ") : line.append(", ");
                line.append(since).append(' ').append(reason.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
                logged[reason.ordinal()] = count;
            }
        }
        if (line != null) {
            lastLog = now;
            LOG.log(System.Logger.Level.WARNING, line.append(" message(s) in the last ").append(INTERVAL_NANOS / 1_000_000_000L)
                    .append(" s; the last from ").append(lastPeer).toString());
        }
    }
}
