package io.blit.architecture.violation;

import io.blit.tools.messages.MarketData;

/** Fixture violating "nothing depends on the tools": a class outside io.blit.tools, io.blit.benchmarks and io.blit.stress uses its MarketData. */
public final class UsesTools {
    private UsesTools() {
    }

    public static MarketData first() {
        return new MarketData().fillFor(0, 0);
    }
}
