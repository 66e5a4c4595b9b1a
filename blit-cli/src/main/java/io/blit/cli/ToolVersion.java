package io.blit.cli;

import io.blit.layout.BlitVersion;
import picocli.CommandLine.IVersionProvider;

/**
 * What {@code --version} prints for the Blit tools: {@code Blit VERSION}, the project version
 * ({@link BlitVersion}). Stateless; thread-safe.
 */
public final class ToolVersion implements IVersionProvider {
    /**
     * @throws IllegalStateException as {@link BlitVersion#current()}
     */
    @Override
    public String[] getVersion() {
        return new String[] {"Blit " + version()};
    }

    /** The project version, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String version() {
        return BlitVersion.current();
    }
}
