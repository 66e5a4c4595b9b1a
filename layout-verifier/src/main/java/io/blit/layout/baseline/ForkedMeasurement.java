package io.blit.layout.baseline;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Measures layouts in a JVM forked with a {@link JvmMode}'s flags: the same {@code java} as the
 * running JVM, the verifier's own code location as class path, {@link MeasurementChild} as main. The
 * child loads the classes from the user's class path in a class loader of its own and prints a
 * {@link Measurement}; the class names go through its standard input, so that no command line grows
 * with their number.
 *
 * <p>The child gets {@code --sun-misc-unsafe-memory-access=allow} (the verifier reads field offsets
 * with Unsafe), its JVM warnings are sent to stderr (stdout carries the measurement), and none of the {@code JAVA_TOOL_OPTIONS}-style variables, which could change its
 * flags. It is killed after {@link #TIMEOUT_SECONDS}. Stateless; thread-safe.
 */
final class ForkedMeasurement {
    /** How long one child JVM may take. Loading and verifying thousands of classes takes seconds. */
    static final long TIMEOUT_SECONDS = 300;

    private ForkedMeasurement() {
    }

    /**
     * Measures {@code classNames}, loaded from {@code classPath}, in a JVM of {@code mode}.
     *
     * @throws IllegalStateException if the child fails (cannot start, a flag is not supported, a class
     *                               cannot be loaded, times out); the message holds its output
     */
    static Measurement inMode(JvmMode mode, String classPath, List<String> classNames) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--sun-misc-unsafe-memory-access=allow");
        // JVM warnings (e.g. CDS's "Unable to use shared archive file" without compressed class
        // pointers) go to stdout by default, where they would corrupt the measurement.
        command.add("-Xlog:disable");
        command.add("-Xlog:all=warning:stderr");
        command.addAll(mode.flags());
        command.add("-cp");
        command.add(verifierLocation());
        command.add(MeasurementChild.class.getName());
        command.add("--mode");
        command.add(mode.id());
        command.add("--classpath");
        command.add(classPath);
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("blit-layout-" + mode.id(), ".out");
            err = Files.createTempFile("blit-layout-" + mode.id(), ".err");
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().remove("JAVA_TOOL_OPTIONS");
            builder.environment().remove("JDK_JAVA_OPTIONS");
            builder.environment().remove("_JAVA_OPTIONS");
            Process process = builder.start();
            try (OutputStream stdin = process.getOutputStream()) {
                stdin.write(String.join("\n", classNames).concat("\n").getBytes(StandardCharsets.UTF_8));
            }
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                throw failure(mode, command, "did not end within " + TIMEOUT_SECONDS + " s", out, err);
            }
            if (process.exitValue() != 0) {
                throw failure(mode, command, "exited with code " + process.exitValue(), out, err);
            }
            return Measurement.fromText(Files.readString(out), "the output of the JVM forked for mode " + mode.id());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run a JVM for mode " + mode.id() + " (" + String.join(" ", command) + "): " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring layouts in mode " + mode.id(), e);
        } finally {
            deleteQuietly(out);
            deleteQuietly(err);
        }
    }

    private static IllegalStateException failure(JvmMode mode, List<String> command, String what, Path out, Path err) throws IOException {
        return new IllegalStateException("the JVM forked for mode " + mode.id() + " " + what + ": " + String.join(" ", command)
                + "\n" + Files.readString(err).strip() + (Files.size(out) > 0 ? "\n" + Files.readString(out).strip() : ""));
    }

    /** The jar or directory this class was loaded from: the child's class path. */
    static String verifierLocation() {
        try {
            return Path.of(ForkedMeasurement.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("cannot tell where the layout verifier was loaded from, to fork a JVM with it", e);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // A temporary file left behind is harmless; the measurement's outcome matters more.
            }
        }
    }
}
