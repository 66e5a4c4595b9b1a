package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.replica.QueueTerms;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fence: an appender writes in its queue's term and, once the directory learns of a newer one (another copy was
 * promoted), refuses every append, appends nothing, and says which terms and what to do; in any process.
 */
class QueueFencingTest {
    @TempDir
    Path dir;

    @Test
    void anAppenderOpenAcrossAFenceRefusesEveryAppendAndAppendsNothing() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData().fillFor(1, 2);
            for (int i = 0; i < 3; i++) {
                appender.append(md);
            }
            assertTrue(QueueTerms.fence(dir, 1));

            QueueFencedException typed = assertThrows(QueueFencedException.class, () -> appender.append(md));
            assertEquals(0, typed.term());
            assertEquals(1, typed.newTerm());
            assertTrue(typed.getMessage().contains("queue " + dir + " is fenced"), typed.getMessage());
            assertTrue(typed.getMessage().contains("term 0") && typed.getMessage().contains("term 1"),
                    typed.getMessage());
            assertTrue(typed.getMessage().contains("follow the new primary"), typed.getMessage());
            boolean[] filled = {false};
            assertThrows(QueueFencedException.class, () -> appender.append(md, (m, index) -> filled[0] = true));
            assertFalse(filled[0], "the filler runs only after a claim, and there is none");
            MemorySegment payload = MemorySegment.ofArray(new byte[(int) md.byteSize()]);
            assertThrows(QueueFencedException.class, () -> appender.append(payload));
            assertThrows(QueueFencedException.class, () -> appender.append(0, payload));
            assertEquals(3, queue.endIndex(), "nothing was appended");
        }
    }

    @Test
    void anAppenderOfAQueueOfSeveralTypesIsFencedToo() {
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO);
             Appender<Object> appender = queue.appender()) {
            appender.append(new Quote());
            QueueTerms.fence(dir, 3);
            QueueFencedException e = assertThrows(QueueFencedException.class, () -> appender.append(new Quote()));
            assertEquals(3, e.newTerm());
            assertEquals(1, queue.endIndex());
        }
    }

    @Test
    void aChildJvmThatFencesTheDirectoryStopsAnAppenderOpenHere() throws Exception {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Appender<MarketData> appender = queue.appender()) {
            MarketData md = new MarketData().fillFor(1, 2);
            appender.append(md);
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--sun-misc-unsafe-memory-access=allow", "-cp", System.getProperty("java.class.path"),
                    ChildFencer.class.getName(), dir.toString(), "7").redirectErrorStream(true).start();
            try {
                String line = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))
                        .readLine();
                assertTrue(child.waitFor(60, TimeUnit.SECONDS));
                assertEquals(0, child.exitValue(), line);
                assertEquals("raised", line);
            } finally {
                child.destroyForcibly();
            }
            QueueFencedException e = assertThrows(QueueFencedException.class, () -> appender.append(md));
            assertEquals(7, e.newTerm(), "the word is in a mapping every process shares: no reopen needed");
            assertEquals(1, queue.endIndex());
        }
    }

    @Test
    void openingAnAppenderOnAFencedDirectoryThrowsAndWritesNothing() throws Exception {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Appender<MarketData> appender = queue.appender()) {
            appender.append(new MarketData().fillFor(1, 2));
        }
        QueueTerms.fence(dir, 2);
        List<String> before = names(dir);
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            QueueFencedException e = assertThrows(QueueFencedException.class, queue::appender);
            assertEquals(0, e.term());
            assertEquals(2, e.newTerm());
            assertEquals(1, queue.endIndex());
        }
        assertEquals(before, names(dir));
        assertEquals(QueueTerms.Role.FENCED, QueueTerms.status(dir).role());
    }

    @Test
    void theFenceNeverLowers() {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Appender<MarketData> appender = queue.appender()) {
            appender.append(new MarketData());
        }
        assertEquals(QueueTerms.Role.PRIMARY, QueueTerms.status(dir).role());
        assertFalse(QueueTerms.fence(dir, 0), "at the current term already");
        assertTrue(QueueTerms.fence(dir, 5));
        assertFalse(QueueTerms.fence(dir, 3));
        assertFalse(QueueTerms.fence(dir, 5));
        QueueTerms.Status status = QueueTerms.status(dir);
        assertEquals(5, status.fenceTerm());
        assertEquals(0, status.term());
        assertEquals(1, status.endIndex());
        assertEquals(QueueTerms.Role.FENCED, status.role());
        assertThrows(IllegalArgumentException.class, () -> QueueTerms.fence(dir, -1));
        assertThrows(IllegalArgumentException.class, () -> QueueTerms.fence(dir, QueueTerms.MAX_TERM + 1));
    }

    @Test
    void aQueueOfABuildBeforeFencesGetsItsFenceAtItsNextAppender() throws Exception {
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Appender<MarketData> appender = queue.appender()) {
            appender.append(new MarketData());
        }
        Files.delete(dir.resolve("fence.blitf"));
        assertEquals(0, QueueTerms.status(dir).fenceTerm(), "no fence: the current term");
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class);
             Appender<MarketData> appender = queue.appender()) {
            assertEquals(1, appender.append(new MarketData()));
            assertTrue(Files.isRegularFile(dir.resolve("fence.blitf")));
            QueueTerms.fence(dir, 1);
            assertThrows(QueueFencedException.class, () -> appender.append(new MarketData()));
        }
    }

    private static List<String> names(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
