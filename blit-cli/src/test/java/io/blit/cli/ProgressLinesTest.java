package io.blit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The progress lines of follow and serve speak of ends as status does (the index the next record gets) and never show
 * a negative rate, an end below 0 or a lag above the queue's end, whatever the sampled figures.
 */
class ProgressLinesTest {
    @Test
    void followShowsTheEndAsStatusDoesNotTheLastIndex() {
        assertEquals("end 600000, 1000 msg/s", ProgressLines.follow(600_000, 599_000));
    }

    @Test
    void aFollowerWhoseEndFellDuringARejoinShowsNoNegativeRate() {
        assertEquals("end 101525, 0 msg/s", ProgressLines.follow(101_525, 109_446));
    }

    @Test
    void aFollowerThatHoldsNoFileYetShowsEndZero() {
        assertEquals("end 0, 0 msg/s", ProgressLines.follow(-1, -1));
        assertEquals("end 5, 5 msg/s", ProgressLines.follow(5, -1));
    }

    @Test
    void aReplicaThatAcknowledgedNothingShowsEndZeroAndALagOfAtMostTheQueuesEnd() {
        assertEquals("replica 10.0.0.2:7001 (disconnected): end 0, 0 msg/s, lag 66873",
                ProgressLines.serve("10.0.0.2:7001", false, -1, -1, 66_873));
    }

    @Test
    void serveShowsTheAcknowledgedEndTheRateAndTheLag() {
        assertEquals("replica r:1: end 600000, 250 msg/s, lag 0", ProgressLines.serve("r:1", true, 600_000, 599_750,
                600_000));
        assertEquals("replica r:1: end 400, 0 msg/s, lag 600", ProgressLines.serve("r:1", true, 400, 500, 1_000));
    }

    @Test
    void anAcknowledgementAheadOfTheSampledEndIsClampedToIt() {
        assertEquals("replica r:1: end 1000, 0 msg/s, lag 0", ProgressLines.serve("r:1", true, 1_005, 1_005, 1_000));
    }

    @Test
    void noReplicaShowsTheQueuesEnd() {
        assertEquals("end 42, no replica", ProgressLines.noReplica(42));
    }
}
