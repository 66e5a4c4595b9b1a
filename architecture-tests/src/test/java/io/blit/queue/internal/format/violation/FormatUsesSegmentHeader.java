package io.blit.queue.internal.format.violation;

import io.blit.queue.internal.segment.SegmentHeader;

/** Fixture violating the format's place at the bottom: a format class uses the segment header's encoder. */
public final class FormatUsesSegmentHeader {
    private FormatUsesSegmentHeader() {
    }

    public static long firstIndex(byte[] header) {
        return SegmentHeader.firstIndexOf(header);
    }
}
