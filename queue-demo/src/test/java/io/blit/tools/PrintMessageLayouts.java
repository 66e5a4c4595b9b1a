package io.blit.tools;

import io.blit.tools.messages.BookUpdate;
import io.blit.tools.messages.MarketData;

import io.blit.layout.LayoutVerifier;

/** Child JVM main for {@link DenyModeDemoTest}: prints the layout of every message class of the tools. */
public final class PrintMessageLayouts {
    static final java.util.List<Class<?>> MESSAGES = java.util.List.of(MarketData.class, BookUpdate.class);

    private PrintMessageLayouts() {
    }

    public static void main(String[] args) {
        for (Class<?> message : MESSAGES) {
            System.out.print(LayoutVerifier.verify(message).describe());
        }
    }
}
