package io.blit.core.violation;

import io.blit.tools.messages.MarketData;

/** Fixture violating "core depends only on layout-verifier": a class in io.blit.core.. uses the tools module (queue-demo). */
public final class CoreUsesTools {
    private CoreUsesTools() {
    }

    public static boolean isFirst(MarketData message) {
        return message.isConsistentFor(0);
    }
}
