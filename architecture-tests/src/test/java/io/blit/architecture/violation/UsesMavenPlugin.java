package io.blit.architecture.violation;

import io.blit.maven.violation.PluginUsesLayoutVerifier;

/** Fixture violating "nothing depends on the Maven plugin": a class outside io.blit.maven uses a class of it. */
public final class UsesMavenPlugin {
    private UsesMavenPlugin() {
    }

    public static boolean copyable(Class<?> type) {
        return PluginUsesLayoutVerifier.copyable(type);
    }
}
