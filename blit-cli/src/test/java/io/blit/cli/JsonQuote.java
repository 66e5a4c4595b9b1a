package io.blit.cli;

import io.blit.core.TriviallyCopyable;

/** A message of every primitive field type, for the JSON lines of dump and tail. */
public final class JsonQuote extends TriviallyCopyable {
    public long id;
    public double price;
    public float ratio;
    public int count;
    public short level;
    public byte flags;
    public char side;
    public boolean live;

    public JsonQuote() {
    }
}
