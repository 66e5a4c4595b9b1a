package io.blit.architecture.violation;

import io.blit.tools.messages.MarketData;

/** Fixture violating "nothing depends on queue-demo": a class outside io.blit.queue uses its MarketData. */
public final class UsesQueueDemo {
    private UsesQueueDemo() {
    }

    public static MarketData first() {
        return new MarketData().fillFor(0, 0);
    }
}
