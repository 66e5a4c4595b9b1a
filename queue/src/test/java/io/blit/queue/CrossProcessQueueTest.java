package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrossProcessQueueTest {
    private static final long BASE = 1_000_000L;

    @TempDir
    Path dir;

    /**
     * Two child JVMs and this one append to one queue at once, racing for records and for creating each
     * next file (link-published); this JVM's tailer reads every index once, each source's messages in order.
     */
    @Test
    void appendersInThreeProcessesShareOneContiguousSequence() throws Exception {
        int perProcess = 20_000;
        long segmentSize = QueueRoundTripTest.SMALL.segmentSize();
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, QueueRoundTripTest.SMALL)) {
            List<Process> children = new ArrayList<>();
            for (int c = 1; c <= 2; c++) {
                children.add(new ProcessBuilder(javaCommand(), "--sun-misc-unsafe-memory-access=allow",
                        "-cp", System.getProperty("java.class.path"), ChildAppender.class.getName(),
                        dir.toString(), Long.toString(segmentSize), Long.toString(c * BASE), Integer.toString(perProcess))
                        .redirectErrorStream(true).start());
            }
            try (Appender<MarketData> appender = queue.appender();
                 Tailer<MarketData> tailer = queue.tailer()) {
                MarketData md = new MarketData();
                try (Tailer<MarketData> first = queue.tailer()) { // append while the children do
                    assertTrue(first.next(md, WaitStrategy.PARK, TimeUnit.SECONDS.toNanos(60)), "no child appended");
                }
                for (int i = 0; i < perProcess; i++) {
                    appender.append(md.fillFor(3 * BASE + i, 0));
                }
                long[] next = {BASE, 2 * BASE, 3 * BASE};
                for (int i = 0; i < 3 * perProcess; i++) {
                    assertEquals(i, tailer.index());
                    assertTrue(tailer.next(md, WaitStrategy.PARK, TimeUnit.SECONDS.toNanos(60)), "timed out at " + i);
                    assertTrue(md.isConsistentFor(md.securityId), "message " + i);
                    int source = (int) (md.securityId / BASE) - 1;
                    assertEquals(next[source], md.securityId, "source " + source + " in order, each once");
                    next[source]++;
                }
                assertEquals(-1, tailer.readNextBytes(MemorySegment.ofArray(new byte[256])), "nothing beyond");
            }
            for (Process child : children) {
                assertTrue(child.waitFor(60, TimeUnit.SECONDS));
                String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertEquals(0, child.exitValue(), output);
                assertTrue(output.contains("done"), output);
            }
        }
    }

    private static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
