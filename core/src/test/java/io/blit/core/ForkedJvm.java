package io.blit.core;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class of the test sources in a fresh JVM: the same java binary and class path as this
 * JVM, {@code --sun-misc-unsafe-memory-access=allow}, and every {@code -XX:} flag of this JVM (so
 * that it lays objects out the same way). Waits at most {@link #TIMEOUT_SECONDS}.
 */
final class ForkedJvm {
    static final long TIMEOUT_SECONDS = 60;

    /** What the child did: its exit code, its standard output lines and its standard error. */
    record Result(List<String> command, int exitCode, List<String> stdout, String stderr) {
        /** The stdout lines that start with {@code prefix}, without the prefix (HotSpot warnings can go to stdout). */
        List<String> linesStartingWith(String prefix) {
            return stdout.stream().filter(line -> line.startsWith(prefix)).map(line -> line.substring(prefix.length())).toList();
        }

        String describe() {
            return "command " + command + "\nexit " + exitCode + "\nstdout:\n" + String.join("\n", stdout) + "\nstderr:\n" + stderr;
        }
    }

    private ForkedJvm() {
    }

    /** This JVM's {@code -XX:} flags, which every child gets. */
    static List<String> inheritedFlags() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream().filter(arg -> arg.startsWith("-XX:")).toList();
    }

    static Result run(Path workDirectory, Class<?> mainClass, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow(() -> new AssertionError("this JVM's command is unknown")));
        command.add("--sun-misc-unsafe-memory-access=allow");
        command.addAll(inheritedFlags());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));

        Path out = Files.createTempFile(workDirectory, "child", ".out");
        Path err = Files.createTempFile(workDirectory, "child", ".err");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("child JVM did not finish in " + TIMEOUT_SECONDS + " s: " + command);
            }
        } finally {
            if (process.isAlive()) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        return new Result(command, process.exitValue(), Files.readAllLines(out), Files.readString(err));
    }
}
