package io.blit.maven;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs layout-verifier's command line, {@value #MAIN_CLASS}, in a JVM of its own: the given JDK 25 {@code java},
 * layout-verifier's and picocli's jars as class path. Nothing of layout-verifier is loaded in Maven's JVM, which
 * may be older than the release layout-verifier is compiled for. Stateless apart from its fields; one instance
 * per run.
 */
final class LayoutCliFork {
    /** The command line's main class (layout-verifier), run in the forked JVM only. */
    static final String MAIN_CLASS = "io.blit.layout.baseline.LayoutCli";
    /** The oldest Java feature release that can run layout-verifier. */
    static final int REQUIRED_FEATURE = 25;

    /** The CLI's exit codes (see LayoutCli). */
    static final int OK = 0;
    static final int FAILED = 1;
    static final int BAD_INPUT = 2;

    private final String java;
    private final List<File> toolClassPath;

    /**
     * @param java          the {@code java} executable to fork
     * @param toolClassPath layout-verifier's jar and picocli's jar
     */
    LayoutCliFork(String java, List<File> toolClassPath) {
        this.java = java;
        this.toolClassPath = List.copyOf(toolClassPath);
    }

    /** What the forked command line printed (stdout and stderr, in order) and its exit code. */
    record Result(int exitCode, String output) {
    }

    /** The full command that runs the CLI with {@code arguments}. */
    List<String> command(List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.add("-cp");
        command.add(String.join(File.pathSeparator, toolClassPath.stream().map(File::getPath).toList()));
        command.add(MAIN_CLASS);
        command.addAll(arguments);
        return command;
    }

    /** Runs the CLI with {@code arguments} in {@code workingDirectory} and waits for it. */
    Result run(List<String> arguments, File workingDirectory) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command(arguments)).directory(workingDirectory).redirectErrorStream(true);
        Process process = builder.start();
        process.getOutputStream().close();
        String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return new Result(process.waitFor(), output.strip());
    }

    /**
     * The Java feature release of the JDK that {@code java} belongs to: from the {@code release} file of its home
     * ({@code JAVA_VERSION="25.0.1"}), else from what {@code java -version} prints.
     *
     * @throws IOException if neither tells
     */
    static int featureRelease(String java) throws IOException, InterruptedException {
        Path bin = Path.of(java).toAbsolutePath().getParent();
        Path release = bin == null || bin.getParent() == null ? null : bin.getParent().resolve("release");
        if (release != null && Files.isRegularFile(release)) {
            for (String line : Files.readAllLines(release, StandardCharsets.UTF_8)) {
                if (line.startsWith("JAVA_VERSION=")) {
                    return feature(line.substring("JAVA_VERSION=".length()).replace("\"", "").strip());
                }
            }
        }
        Process process = new ProcessBuilder(java, "-version").redirectErrorStream(true).start();
        process.getOutputStream().close();
        String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        process.waitFor();
        Matcher version = Pattern.compile("version \"([^\"]+)\"").matcher(output);
        if (!version.find()) {
            throw new IOException("cannot tell the Java version of " + java + "; `" + java + " -version` printed: " + output.strip());
        }
        return feature(version.group(1));
    }

    /** {@code "25.0.1"} is 25, {@code "1.8.0_402"} is 8, {@code "26-ea"} is 26. */
    static int feature(String version) {
        String[] parts = version.toLowerCase(Locale.ROOT).split("[.\\-+_]");
        int first = Integer.parseInt(parts[0]);
        return first == 1 && parts.length > 1 ? Integer.parseInt(parts[1]) : first;
    }
}
