package io.blit.layout.baseline;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * What {@code --version} prints: {@code layout-verifier VERSION}, the project version Maven wrote into
 * {@code version.properties} (a filtered resource) at build time, so it is right both in the jars and when
 * run from {@code target/classes}. Stateless; thread-safe.
 */
final class CliVersion implements IVersionProvider {
    /**
     * @throws IllegalStateException if the build did not put a filtered {@code version.properties} beside this class
     */
    @Override
    public String[] getVersion() {
        return new String[] {"layout-verifier " + version()};
    }

    static String version() {
        Properties properties = new Properties();
        try (InputStream in = CliVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("version.properties is missing beside " + CliVersion.class.getName());
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read version.properties", e);
        }
        String version = properties.getProperty("version", "");
        if (version.isEmpty() || version.contains("${")) {
            throw new IllegalStateException("version.properties was not filtered by the build: version=" + version);
        }
        return version;
    }
}
