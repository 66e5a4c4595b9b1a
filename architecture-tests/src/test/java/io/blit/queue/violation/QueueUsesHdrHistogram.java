package io.blit.queue.violation;

import org.HdrHistogram.Histogram;

/** Fixture violating "the queue uses no third-party library": a queue class records into an HdrHistogram. */
public final class QueueUsesHdrHistogram {
    private QueueUsesHdrHistogram() {
    }

    public static Histogram histogram() {
        return new Histogram(3);
    }
}
