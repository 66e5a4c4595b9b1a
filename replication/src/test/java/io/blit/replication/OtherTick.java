package io.blit.replication;

import io.blit.core.TriviallyCopyable;

/** {@link Tick}'s fields with {@code price} a float: another layout. */
public final class OtherTick extends TriviallyCopyable {
    public long sequence;
    public long time;
    public float price;
    public int size;
    public short venue;
    public byte side;
}
