package io.blit.layout;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of Blit these classes were built as: the project version Maven writes into
 * {@code io/blit/layout/version.properties} (a filtered resource) at build time, so it is right in the jars and when
 * run from {@code target/classes}. Every Blit module is built with the same version; the command lines print it.
 * Stateless; thread-safe.
 */
public final class BlitVersion {
    private BlitVersion() {
    }

    /**
     * The project version, e.g. {@code 0.1.0-SNAPSHOT}.
     *
     * @return the version Maven wrote into {@code version.properties}
     * @throws IllegalStateException if the build did not put a filtered {@code version.properties} beside this class
     * @throws UncheckedIOException  if it cannot be read
     */
    public static String current() {
        Properties properties = new Properties();
        try (InputStream in = BlitVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("version.properties is missing beside " + BlitVersion.class.getName());
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
