package io.blit.tools.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * What {@code --version} prints for the Blit tools: {@code Blit VERSION}, the project version that Maven wrote
 * into {@code version.properties} (a filtered resource beside this class) at build time, so it is right in
 * {@code queue-demo.jar}, in the benchmarks jar and when run from {@code target/classes}. Stateless; thread-safe.
 */
public final class ToolVersion implements IVersionProvider {
    /**
     * @throws IllegalStateException if the build did not put a filtered {@code version.properties} beside this class
     */
    @Override
    public String[] getVersion() {
        return new String[] {"Blit " + version()};
    }

    /** The project version, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String version() {
        Properties properties = new Properties();
        try (InputStream in = ToolVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("version.properties is missing beside " + ToolVersion.class.getName());
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
