package io.blit.cli;

/**
 * The progress lines of {@code replicate follow} and {@code replicate serve}, in the words of {@code status}: an
 * {@code end} is the index the next record gets (0 for a copy that holds nothing), never a last index. Built from the
 * figures as sampled, which may move backwards (a rejoining replica sets records aside; a replica that never
 * acknowledged reports -1): the builders clamp them, so that a line never shows a negative rate, an end below 0 or a
 * lag above the queue's end. Stateless; thread-safe.
 */
final class ProgressLines {
    private ProgressLines() {
    }

    /**
     * {@code end E, R msg/s}: a replica's end {@code E} (below 0 read as 0) and the records it gained since the
     * previous sample {@code R} (0 if its end fell: records set aside are not a negative rate).
     *
     * @param end         the replica's next index now, or -1 if it holds no file yet
     * @param previousEnd its next index a second ago, or -1
     */
    static String follow(long end, long previousEnd) {
        long now = Math.max(0, end);
        return "end " + now + ", " + rate(now, previousEnd) + " msg/s";
    }

    /**
     * {@code replica PEER[ (disconnected)]: end E, R msg/s, lag L}: what a replica acknowledged holding, clamped to
     * 0 .. the queue's end, the records acknowledged since the previous sample (never negative), and how many of the
     * queue's records it has not acknowledged, 0 .. the queue's end.
     *
     * @param peer          the replica's address
     * @param serving       whether its session runs
     * @param acknowledged  the index below which it acknowledged holding every record, or -1 if it acknowledged none
     * @param previous      that index a second ago
     * @param queueEnd      the source queue's end now
     */
    static String serve(String peer, boolean serving, long acknowledged, long previous, long queueEnd) {
        long end = Math.clamp(acknowledged, 0, Math.max(0, queueEnd));
        return "replica " + peer + (serving ? "" : " (disconnected)") + ": end " + end + ", " + rate(end, previous)
                + " msg/s, lag " + (Math.max(0, queueEnd) - end);
    }

    /** {@code end E, no replica}: the source's queue end while no replica is served. */
    static String noReplica(long queueEnd) {
        return "end " + Math.max(0, queueEnd) + ", no replica";
    }

    private static long rate(long now, long previous) {
        return Math.max(0, now - Math.max(0, previous));
    }
}
