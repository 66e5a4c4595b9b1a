package io.blit.queue;

import io.blit.core.TriviallyCopyable;

/** A later version of {@link MixedSizes} that dropped fields {@code a} and {@code b}: for {@link QueueLayoutEvolutionTest}. */
public final class MixedSizesMinus extends TriviallyCopyable {
    public int c;
    public byte d;

    public MixedSizesMinus() {
    }
}
