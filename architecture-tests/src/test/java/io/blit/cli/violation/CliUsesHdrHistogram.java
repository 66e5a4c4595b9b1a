package io.blit.cli.violation;

import org.HdrHistogram.Histogram;

/** Fixture violating "the operations tool carries no harness library": a blit-cli class records into an HdrHistogram. */
public final class CliUsesHdrHistogram {
    private CliUsesHdrHistogram() {
    }

    public static Histogram histogram() {
        return new Histogram(3);
    }
}
