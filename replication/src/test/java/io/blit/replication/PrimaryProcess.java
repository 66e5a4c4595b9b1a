package io.blit.replication;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A {@link PartitionedPrimary} in a JVM of its own, talked to by its command lines, and every line it printed (its
 * log included). Not thread-safe, except that its lines are collected by a thread of its own.
 */
final class PrimaryProcess implements AutoCloseable {
    private final Process process;
    private final Writer commands;
    private final List<String> lines = new ArrayList<>();
    /** Whether its output ended (guarded by {@link #lines}). */
    private boolean ended;

    /**
     * Starts the primary of the queue in {@code dir}, serving it on {@code control}, and waits until it serves.
     *
     * @param launcher how its command line is run (as it is, or inside a network namespace)
     * @param driver   the directory of the media driver it launches and can cut off, or {@code -} for none
     */
    PrimaryProcess(UnaryOperator<List<String>> launcher, Path dir, String control, String driver) throws IOException {
        List<String> java = List.of(ProcessHandle.current().info().command().orElse("java"),
                "--sun-misc-unsafe-memory-access=allow", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), PartitionedPrimary.class.getName(), dir.toString(),
                control, driver);
        process = new ProcessBuilder(launcher.apply(java)).redirectErrorStream(true).start();
        commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread.ofPlatform().daemon().name("primary-output").start(this::collect);
        try {
            await("started", 60);
        } catch (AssertionError e) {
            process.destroyForcibly(); // a process left in a network namespace would keep the namespace alive
            throw e;
        }
    }

    /** Sends one command line. */
    void send(String command) {
        try {
            commands.write(command + "\n");
            commands.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("the primary took no command (" + command + "): " + output(), e);
        }
    }

    /** {@return the first line that starts with {@code prefix}, once there is one} */
    String await(String prefix, int seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        synchronized (lines) {
            while (true) {
                for (String line : lines) {
                    if (line.startsWith(prefix)) {
                        return line;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || ended) {
                    throw new AssertionError("the primary printed no line starting with '" + prefix + "' in "
                            + seconds + " s (output ended: " + ended + "):\n" + output());
                }
                try {
                    lines.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
            }
        }
    }

    /** {@return whether it printed a line starting with {@code prefix}} */
    boolean printed(String prefix) {
        synchronized (lines) {
            return lines.stream().anyMatch(line -> line.startsWith(prefix));
        }
    }

    /** {@return everything it printed so far} */
    String output() {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }

    /** Tells it to stop; {@return its exit code} */
    int stop() throws InterruptedException {
        send("stop");
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the primary did not stop in 30 s:\n" + output());
        }
        return process.exitValue();
    }

    /** Kills it, if it runs, and waits until it is gone. */
    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    private void collect() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                synchronized (lines) {
                    lines.add(line);
                    lines.notifyAll();
                }
            }
        } catch (IOException gone) {
            // the process is gone
        }
        synchronized (lines) {
            ended = true;
            lines.notifyAll();
        }
    }
}
