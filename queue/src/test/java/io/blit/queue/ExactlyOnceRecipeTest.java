package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exactly-once recipe of docs/queue.md: a processor reads queue A as a named consumer and appends to queue B,
 * recording the source index in each output message; on restart it resumes after the source index of B's last
 * message, not after A's committed position. The processor "crashes" many times — dropped without committing, after
 * any number of outputs, sometimes in the middle of an append — and B must hold every index of A exactly once, in order.
 */
class ExactlyOnceRecipeTest {
    private static final int MESSAGES = 5_000;

    @TempDir
    Path dir;

    /** The recipe's restart step: the source index recorded in B's last message, or -1 if B has none. */
    static long lastSourceIndex(BlitQueue<Enriched> b) {
        Enriched last = new Enriched();
        for (long index = b.endIndex() - 1; index >= 0; index--) { // back over records a crashed writer abandoned
            try (Tailer<Enriched> tailer = b.tailerFrom(index)) {
                if (tailer.readNext(last)) {
                    return last.sourceIndex;
                }
            }
        }
        return -1;
    }

    /** The recipe's processor: input A as named consumer "enricher", output B. */
    private static final class Processor implements AutoCloseable {
        private final NamedTailer<MarketData> in;
        private final Appender<Enriched> out;
        private final MarketData md = new MarketData();
        private final Enriched enriched = new Enriched();

        Processor(BlitQueue<MarketData> a, BlitQueue<Enriched> b) {
            long done = lastSourceIndex(b);
            in = a.tailer("enricher");
            in.seek(done + 1); // B is the truth: its last output's source, whatever A's committed position says
            out = b.appender();
        }

        /** Processes one message; false if A has none left. */
        boolean step() {
            if (!in.readNext(md)) {
                return false;
            }
            enriched.sourceIndex = in.lastReadIndex();
            enriched.mid = (md.bidPrice0 + md.askPrice0) / 2;
            out.append(enriched);
            return true;
        }

        /** A crash in the middle of an append: the record is claimed, then its writer fails before committing it. */
        void crashWhileAppending() {
            assertTrue(in.readNext(md));
            assertThrows(IllegalStateException.class, () -> out.append(enriched, (m, index) -> {
                throw new IllegalStateException("crash");
            }));
        }

        @Override
        public void close() { // no commit: what a crash leaves
            in.close();
            out.close();
        }
    }

    @Test
    void aProcessorRestartedAfterCrashesWritesEveryInputIndexExactlyOnce() {
        Random random = new Random(0x6f6e6365L);
        int lives = 0;
        int behindCommits = 0; // lives whose restart would have duplicated outputs had it resumed after A's commit
        try (BlitQueue<MarketData> a = BlitQueue.open(dir.resolve("a"), MarketData.class);
             BlitQueue<Enriched> b = BlitQueue.open(dir.resolve("b"), Enriched.class)) {
            NamedTailerTest.append(a, 0, MESSAGES);
            for (boolean more = true; more; lives++) {
                try (Processor processor = new Processor(a, b)) {
                    int steps = 1 + random.nextInt(700);
                    int commitEvery = 1 + random.nextInt(100);
                    for (int step = 1; step <= steps && more; step++) {
                        more = processor.step();
                        if (step % commitEvery == 0) {
                            processor.in.commit();
                        }
                    }
                    if (more && random.nextInt(4) == 0) {
                        processor.crashWhileAppending();
                    }
                    long committed = processor.in.committedIndex();
                    behindCommits += committed < lastSourceIndex(b) ? 1 : 0;
                    if (!more) {
                        processor.in.commit(); // done: A's position catches up
                    }
                }
            }
            assertTrue(lives > 10 && behindCommits > 5, lives + " lives, " + behindCommits + " behind A's commit");

            try (Tailer<Enriched> outputs = b.tailer()) {
                Enriched e = new Enriched();
                for (long n = 0; n < MESSAGES; n++) {
                    assertTrue(outputs.readNext(e), "output for input " + n);
                    assertEquals(n, e.sourceIndex, "every input exactly once, in order");
                    assertEquals(n + 10 / 16.0, e.mid);
                }
                assertTrue(!outputs.readNext(e), "nothing more");
            }
            assertEquals(0, a.consumers().getFirst().lag());
        }
    }
}
