package io.blit.maven.violation;

import io.blit.layout.LayoutVerifier;

/** Fixture violating "the Maven plugin uses no other Blit module": a class in io.blit.maven.. uses layout-verifier. */
public final class PluginUsesLayoutVerifier {
    private PluginUsesLayoutVerifier() {
    }

    public static boolean copyable(Class<?> type) {
        return LayoutVerifier.isTriviallyCopyable(type);
    }
}
