package io.blit.queue;

import io.blit.core.TriviallyCopyable;

/** The output message of the exactly-once recipe: what a processor made of message {@code sourceIndex} of its input. */
public final class Enriched extends TriviallyCopyable {
    public long sourceIndex;
    public double mid;
}
