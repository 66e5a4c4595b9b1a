package io.blit.failover.zookeeper.node;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * {@code failover node} processes for the tests: each a JVM of its own running {@link FailoverMain} with this test
 * JVM's class path, its stdout collected line by line, its stderr into a file. Closing stops every one with SIGKILL.
 */
final class NodeProcesses implements AutoCloseable {
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    /** A started node: its process and the lines it printed so far. */
    record Node(String id, Process process, List<String> lines, Path err, Thread reader) {
        /** Waits until the process has exited and every line it printed is read; {@return whether it did in time} */
        boolean awaitExit(long timeoutMillis) throws InterruptedException {
            if (!process.waitFor(timeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                return false;
            }
            reader.join(timeoutMillis);
            return !reader.isAlive();
        }

        /** {@return the last line printed, or ""} */
        String last() {
            synchronized (lines) {
                return lines.isEmpty() ? "" : lines.getLast();
            }
        }

        String text() {
            synchronized (lines) {
                String printed = String.join("\n", lines) + (process.isAlive() ? "" : "\n(exit "
                        + process.exitValue() + ")");
                try {
                    return id + " printed:\n" + printed + "\n" + id + " stderr:\n" + Files.readString(err);
                } catch (IOException e) {
                    return printed;
                }
            }
        }
    }

    private final List<Node> nodes = new ArrayList<>();

    /** {@return the command that runs {@code failover} with {@code args} in a new JVM} */
    static List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of(JAVA, "--sun-misc-unsafe-memory-access=allow",
                "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), FailoverMain.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /** Starts node {@code id} with the configuration file {@code config}; its stderr goes to {@code <config>.err}. */
    Node start(String id, Path config) throws IOException {
        Path err = config.resolveSibling(config.getFileName() + ".err");
        Process process = new ProcessBuilder(command("node", "--config", config.toString()))
                .redirectError(err.toFile()).start();
        List<String> lines = new ArrayList<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> collect(process, lines));
        Node node = new Node(id, process, lines, err, reader);
        nodes.add(node);
        return node;
    }

    private static void collect(Process process, List<String> lines) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                synchronized (lines) {
                    lines.add(line);
                }
            }
        } catch (IOException ended) {
            // the process is gone
        }
    }

    /** {@return a loopback {@code host:port} that was free a moment ago} */
    static String loopback() {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return "127.0.0.1:" + socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits for {@code condition}, failing with {@code what} after {@code timeoutMillis}. */
    static void await(BooleanSupplier condition, long timeoutMillis, Supplier<String> what)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, () -> "waited " + timeoutMillis + " ms for " + what.get());
            Thread.sleep(20);
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (Node node : nodes) {
            node.process().destroyForcibly().waitFor();
        }
    }
}
