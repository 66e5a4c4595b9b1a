package io.blit.replication;

import io.blit.core.TriviallyCopyable;

/** A small message for the replication tests: every field derived from its sequence number. */
public final class Tick extends TriviallyCopyable {
    public long sequence;
    public long time;
    public double price;
    public int size;
    public short venue;
    public byte side;

    public Tick fillFor(long n) {
        sequence = n;
        time = n * 1_000;
        price = n * 0.25;
        size = (int) (n % 1_000);
        venue = (short) (n % 7);
        side = (byte) (n & 1);
        return this;
    }

    public boolean isConsistentFor(long n) {
        return sequence == n && time == n * 1_000 && price == n * 0.25 && size == (int) (n % 1_000)
                && venue == (short) (n % 7) && side == (byte) (n & 1);
    }
}
