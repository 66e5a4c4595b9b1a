package io.blit.layout.baseline;

import io.blit.layout.BlitVersion;
import picocli.CommandLine.IVersionProvider;

/**
 * What {@code --version} prints: {@code layout-verifier VERSION}, the project version ({@link BlitVersion}).
 * Stateless; thread-safe.
 */
final class CliVersion implements IVersionProvider {
    /**
     * @throws IllegalStateException as {@link BlitVersion#current()}
     */
    @Override
    public String[] getVersion() {
        return new String[] {"layout-verifier " + version()};
    }

    static String version() {
        return BlitVersion.current();
    }
}
