package io.blit.failover.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.replica.QueueTerms;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node's JVM stopped with SIGTERM ({@link Process#destroy()}), as a service manager stops it: the node's shutdown
 * hook fences its directory before the JVM leaves, and another node becomes the primary.
 */
class ShutdownTest {
    private static final Duration SESSION = Duration.ofSeconds(3);
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path root;

    @Test
    void aPrimarysJvmStoppedWithSigtermFencesItsDirectoryAndAnotherNodeTakesOver() throws Exception {
        try (Group group = new Group(root, SESSION, "a", "b")) {
            group.seed("a", 10);
            String[] endpoints = group.endpoints("a");
            List<String> command = List.of(ProcessHandle.current().info().command().orElse("java"),
                    "--sun-misc-unsafe-memory-access=allow", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"), NodeProcess.class.getName(),
                    group.dir("a").toString(), "a", group.zookeeper.getConnectString(), endpoints[0], endpoints[1],
                    Long.toString(SESSION.toMillis()));
            Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
            List<String> lines = new ArrayList<>();
            Thread.ofPlatform().daemon().start(() -> collect(child, lines));
            try {
                Group.await(() -> has(lines, "state PRIMARY"), WAIT, () -> "the child's node is the primary: "
                        + text(lines));
                group.start("b");
                Group.awaitEnd(group.dir("b"), 10, WAIT);
                assertEquals(QueueTerms.Role.PRIMARY, QueueTerms.status(group.dir("a")).role());

                child.destroy(); // SIGTERM
                assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child exits: " + text(lines));
                QueueTerms.Status status = QueueTerms.status(group.dir("a"));
                assertEquals(QueueTerms.Role.FENCED, status.role(), "the directory of a node stopped by SIGTERM: "
                        + status + "\n" + text(lines));
                assertTrue(status.fenceTerm() > status.term());

                FailoverNode next = group.awaitPrimary(SESSION.plusSeconds(10));
                assertEquals("b", next.nodeId());
                assertTrue(next.state().term() > status.term());
            } finally {
                child.destroyForcibly();
            }
        }
    }

    private static void collect(Process child, List<String> lines) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                synchronized (lines) {
                    lines.add(line);
                }
            }
        } catch (IOException ended) {
            // the child is gone
        }
    }

    private static boolean has(List<String> lines, String prefix) {
        synchronized (lines) {
            return lines.stream().anyMatch(line -> line.startsWith(prefix));
        }
    }

    private static String text(List<String> lines) {
        synchronized (lines) {
            return String.join("\n", lines);
        }
    }
}
