package io.blit.queue;

import io.blit.core.TriviallyCopyable;

/** A message class whose fields differ from {@link MarketData}'s: for the layout guard tests. */
public final class Quote extends TriviallyCopyable {
    public long securityId;
    public int time;
    public double bidPrice0;
    public double spread;
}
