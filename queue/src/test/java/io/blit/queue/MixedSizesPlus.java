package io.blit.queue;

import io.blit.core.TriviallyCopyable;

/**
 * A later version of {@link MixedSizes} that gained a field ({@code sequence}, declared between the old
 * ones so that it moves them too): for {@link QueueLayoutEvolutionTest}. A class of another name stands
 * in for the new version of the same class, since fields are matched by name and class names are not compared.
 */
public final class MixedSizesPlus extends TriviallyCopyable {
    public long a;
    public int sequence;
    public double b;
    public int c;
    public byte d;

    public MixedSizesPlus() {
    }

    /** The fields as one line, as {@link MixedSizes#values()} plus the new field. */
    public String values() {
        return "a=" + a + " b=" + b + " c=" + c + " d=" + d + " sequence=" + sequence;
    }
}
