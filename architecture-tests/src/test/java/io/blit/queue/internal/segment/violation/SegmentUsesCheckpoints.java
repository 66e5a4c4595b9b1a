package io.blit.queue.internal.segment.violation;

import io.blit.queue.internal.record.Checkpoints;

/** Fixture violating the engine's layers: a class of the segment package uses the record package above it. */
public final class SegmentUsesCheckpoints {
    private SegmentUsesCheckpoints() {
    }

    public static String name() {
        return Checkpoints.class.getName();
    }
}
