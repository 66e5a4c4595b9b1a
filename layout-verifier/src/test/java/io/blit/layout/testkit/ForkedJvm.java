package io.blit.layout.testkit;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class of the test class path in a fresh JVM of the same JDK and returns its exit code,
 * stdout and stderr. Shared by the tests that need a JVM with other flags than their own, in this
 * module and (through the test jar) in core; in its own package because test classes in
 * {@code io.blit.layout} would be a split package when core's tests run against the module.
 *
 * <p>The child inherits no {@code JAVA_TOOL_OPTIONS}, {@code JDK_JAVA_OPTIONS} or {@code _JAVA_OPTIONS}
 * (the launcher would echo them on stderr), reads an empty stdin, and is killed if it runs longer than
 * {@link #TIMEOUT_SECONDS}.
 */
public final class ForkedJvm {
    /** How long a child JVM may run before it is killed and the calling test fails. */
    public static final long TIMEOUT_SECONDS = 60;

    private ForkedJvm() {
    }

    /** What a child JVM did. */
    public record Result(List<String> command, int exitCode, String stdout, String stderr) {
        /** Everything about the run, for assertion messages. */
        public String describe() {
            return "command: " + String.join(" ", command) + "\nexit code: " + exitCode
                    + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr;
        }
    }

    /** The {@code java} executable of this JVM. */
    public static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElseThrow(() -> new IllegalStateException("the command of the current JVM is unknown"));
    }

    /** The {@code -XX:} options this JVM was started with, e.g. {@code -XX:+UseCompactObjectHeaders}. */
    public static List<String> currentXxFlags() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(argument -> argument.startsWith("-XX:"))
                .toList();
    }

    /**
     * Runs {@code mainClass} with this JVM's class path.
     *
     * @param jvmOptions options placed before {@code -cp}, e.g. {@code --sun-misc-unsafe-memory-access=allow}
     * @throws AssertionError if the child does not end within {@link #TIMEOUT_SECONDS}
     */
    public static Result run(List<String> jvmOptions, Class<?> mainClass, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(javaBinary());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        return run(command);
    }

    /**
     * Runs {@code java -jar jar args} with no JVM option: what the jar's manifest says (main class, class path,
     * {@code Add-Exports}) is all the child gets.
     *
     * @throws AssertionError if the child does not end within {@link #TIMEOUT_SECONDS}
     */
    public static Result runJar(Path jar, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(javaBinary(), "-jar", jar.toString()));
        command.addAll(List.of(args));
        return run(command);
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        Path out = Files.createTempFile("blit-forked-jvm", ".out");
        Path err = Files.createTempFile("blit-forked-jvm", ".err");
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            builder.environment().remove("JAVA_TOOL_OPTIONS");
            builder.environment().remove("JDK_JAVA_OPTIONS");
            builder.environment().remove("_JAVA_OPTIONS");
            Process process = builder.start();
            process.getOutputStream().close();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("forked JVM did not end within " + TIMEOUT_SECONDS + " s: "
                        + String.join(" ", command) + "\n--- stdout ---\n" + Files.readString(out)
                        + "\n--- stderr ---\n" + Files.readString(err));
            }
            return new Result(List.copyOf(command), process.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
