package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One live holder per name across processes: a live holder is refused naming its pid, a killed one taken over. */
class NamedTailerProcessTest {
    @TempDir
    Path dir;

    private Process holder(String name, int count) throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--sun-misc-unsafe-memory-access=allow", "-cp", System.getProperty("java.class.path"),
                ConsumerHolder.class.getName(), dir.toString(), name, Integer.toString(count))
                .redirectErrorStream(true).start();
        String line = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertEquals("held " + (count - 1), line, "the child holds the name with its commit");
        return child;
    }

    @Test
    void aLiveHolderInAnotherProcessIsRefusedNamingItsPidAndAKilledOneIsTakenOver() throws Exception {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            NamedTailerTest.append(queue, 0, 20);
            Process child = holder("risk", 5);
            try {
                ConsumerHeldException e = assertThrows(ConsumerHeldException.class, () -> queue.tailer("risk"));
                assertEquals(child.pid(), e.holderPid());
                assertTrue(e.getMessage().contains("held by live process " + child.pid()), e.getMessage());
                assertThrows(ConsumerHeldException.class, () -> queue.removeConsumer("risk"));
                ConsumerPosition held = queue.consumers().getFirst();
                assertEquals(OptionalLong.of(child.pid()), held.holderPid());
                assertEquals(4, held.committedIndex());
                assertEquals(15, held.lag());
            } finally {
                child.destroyForcibly();
            }
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            assertEquals(137, child.exitValue(), "killed by SIGKILL");

            ConsumerPosition orphan = queue.consumers().getFirst();
            assertEquals(OptionalLong.empty(), orphan.holderPid(), "a dead process holds nothing");
            assertEquals(4, orphan.committedIndex(), "its last commit survived the kill");
            try (NamedTailer<MarketData> risk = queue.tailer("risk")) {
                assertEquals(5, risk.index(), "taken over, resuming after the dead holder's commit");
                NamedTailerTest.read(risk, 5, 15);
                assertEquals(OptionalLong.of(ProcessHandle.current().pid()), queue.consumers().getFirst().holderPid());
            }
        }
    }

    @Test
    void aHolderThatClosesReleasesTheName() throws Exception {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            NamedTailerTest.append(queue, 0, 10);
            Process child = holder("audit", 3);
            child.getOutputStream().close();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, child.exitValue());
            assertEquals(OptionalLong.empty(), queue.consumers().getFirst().holderPid());
            try (NamedTailer<MarketData> audit = queue.tailer("audit")) {
                assertEquals(2, audit.committedIndex());
                NamedTailerTest.read(audit, 3, 7);
            }
        }
    }
}
