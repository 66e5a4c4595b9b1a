package io.blit.queue.violation;

import io.blit.tools.messages.MarketData;

/** Fixture violating "the queue depends only on core and layout-verifier": a queue class uses a demo message. */
public final class QueueUsesTools {
    private QueueUsesTools() {
    }

    public static MarketData first() {
        return new MarketData().fillFor(0, 0);
    }
}
