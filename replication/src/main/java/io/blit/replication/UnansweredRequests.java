package io.blit.replication;

/**
 * A replica's count of the handshake requests its source has not answered, and the one warning it logs about them
 * every {@link #LOG_INTERVAL_NANOS}: whether the source's media driver takes the requests at all (Aeron's connection)
 * and how many were sent; never a guess at the cause. Used by the replica's thread only; not thread-safe.
 */
final class UnansweredRequests {
    /** How long a handshake goes unanswered before the warning, and between two warnings. */
    static final long LOG_INTERVAL_NANOS = 10_000_000_000L;
    private static final System.Logger LOG = System.getLogger("io.blit.replication");

    private final String replica;
    private final String source;
    private final String endpoint;
    private long since;
    private int sent;

    /**
     * @param replica  the replica's directory, as the warning names it
     * @param source   the source's control endpoint
     * @param endpoint the replica's data endpoint, where the source's challenge would arrive
     */
    UnansweredRequests(String replica, String source, String endpoint) {
        this.replica = replica;
        this.source = source;
        this.endpoint = endpoint;
        this.since = System.nanoTime();
    }

    /** Starts counting again: a new handshake, or an answer came. */
    void restart(long now) {
        since = now;
        sent = 0;
    }

    /** Counts one more request sent. */
    void sent() {
        sent++;
    }

    /**
     * Logs the warning if the requests have gone unanswered for {@link #LOG_INTERVAL_NANOS}, then counts again.
     *
     * @param connected whether the source's media driver takes the requests (the control publication is connected)
     */
    void warnIfDue(long now, boolean connected) {
        if (now - since <= LOG_INTERVAL_NANOS) {
            return;
        }
        String seconds = LOG_INTERVAL_NANOS / 1_000_000_000L + " s";
        LOG.log(System.Logger.Level.WARNING, "replica " + replica + ": no answer from source " + source
                + " within " + seconds + (connected
                ? ": its media driver takes the requests (" + sent + " sent) but no challenge reached "
                        + endpoint + " (a source answers only requests signed with its own secret)"
                : ": no media driver takes requests on " + source + " (" + sent + " sent)")
                + "; asking on");
        restart(now);
    }
}
