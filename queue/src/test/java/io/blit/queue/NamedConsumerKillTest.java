package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety of named consumers: a consumer in a child JVM is killed with SIGKILL ({@code destroyForcibly}) at 10
 * seeded random points while this JVM appends a mixed stream (MarketData and Quote, {@link TypedQueueTest#message}),
 * which the consumer reads by type with {@link NamedTailer#read(MessageHandler)}; each life logs every index it processed (one write per line) and every
 * commit. After each kill the committed index in the positions file is the child's last commit (the page cache kept
 * it) and the next life starts right after it; across all lives, and a last one in this JVM, every index is processed,
 * and an index is processed more than once only if it lay after the last commit before a kill.
 */
class NamedConsumerKillTest {
    static final QueueOptions OPTIONS = QueueOptions.defaults().segmentSize(1 << 20);
    private static final int KILLS = 10;

    @TempDir
    Path dir;

    /** What one life of the consumer did: where it started, what it processed and committed, where the file says. */
    private record Life(long start, List<Long> processed, List<Long> commits, long committedAfter, int commitEvery) {
        /** The indices processed after the last commit that survived: processed again by the next life. */
        long windowEnd() {
            return processed.isEmpty() ? committedAfter : processed.getLast();
        }
    }

    @Test
    void aConsumerKilledAtRandomPointsProcessesEveryIndexWithDuplicatesOnlyAfterItsLastCommit() throws Exception {
        Random random = new Random(0x6e616d6564L);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong produced = new AtomicLong();
        List<Life> lives = new ArrayList<>();
        try (BlitQueue<Object> queue = BlitQueue.open(dir, TypedQueueTest.TWO, OPTIONS)) {
            Thread producer = Thread.ofPlatform().name("producer").start(() -> {
                try (Appender<Object> appender = queue.appender()) {
                    for (long n = 0; !stop.get(); ) {
                        for (int burst = 0; burst < 20; burst++, n++) {
                            assertEquals(n, appender.append(TypedQueueTest.message(n)));
                        }
                        produced.set(n);
                        LockSupport.parkNanos(1_000_000); // about 20,000 messages a second
                    }
                }
            });
            try {
                long committed = -1;
                for (int kill = 0; kill < KILLS; kill++) {
                    int commitEvery = 1 + random.nextInt(50);
                    Life life = killedLife(kill, committed, commitEvery, 50 + random.nextInt(350), queue);
                    lives.add(life);
                    committed = life.committedAfter();
                }
            } finally {
                stop.set(true);
                producer.join();
            }
            lives.add(lastLife(queue, lives.getLast().committedAfter()));
        }

        long end = produced.get();
        int[] times = new int[(int) end];
        for (Life life : lives) {
            for (long index : life.processed()) {
                times[(int) index]++;
            }
        }
        long duplicates = 0;
        for (int index = 0; index < end; index++) {
            int again = 0;
            for (Life life : lives) {
                again += index > life.committedAfter() && index <= life.windowEnd() ? 1 : 0;
            }
            assertEquals(1 + again, times[index], "index " + index + ": processed once, plus once per kill it lay after"
                    + " the last commit of");
            duplicates += again;
        }
        System.out.println("NamedConsumerKillTest: " + KILLS + " kills, " + end + " messages, " + duplicates
                + " processed twice (after the last commit before a kill)");
    }

    /** Starts a consumer, lets it run {@code runMillis} after it has processed something, kills it, checks its life. */
    private Life killedLife(int kill, long committedBefore, int commitEvery, int runMillis, BlitQueue<Object> queue)
            throws Exception {
        Path log = dir.resolve("life-" + kill + ".log");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--sun-misc-unsafe-memory-access=allow", "-cp", System.getProperty("java.class.path"),
                KilledConsumer.class.getName(), dir.toString(), log.toString(), Integer.toString(commitEvery))
                .redirectErrorStream(true).start();
        BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String started = output.readLine();
        assertEquals("started " + (committedBefore + 1), started, "life " + kill + " resumes after the last commit");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!Files.exists(log) || Files.size(log) == 0) { // processing has begun
            assertTrue(System.nanoTime() < deadline && child.isAlive(), "life " + kill + " processed nothing: " + rest(output));
            Thread.onSpinWait();
        }
        Thread.sleep(runMillis); // the random kill point, not a synchronisation
        assertTrue(child.isAlive(), "life " + kill + " exited before the kill: " + rest(output));
        child.destroyForcibly();
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        assertEquals(137, child.exitValue(), "life " + kill + " killed by SIGKILL");
        assertTrue(!rest(output).contains("MISMATCH"), "life " + kill + " read a wrong message");

        List<Long> processed = new ArrayList<>();
        List<Long> commits = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            if (line.startsWith("c ")) {
                commits.add(Long.parseLong(line.substring(2)));
            } else if (!line.isEmpty()) {
                processed.add(Long.parseLong(line));
            }
        }
        for (int i = 0; i < processed.size(); i++) {
            assertEquals(committedBefore + 1 + i, processed.get(i), "life " + kill + " processes in order, no gap");
        }
        ConsumerPosition position = queue.consumers().getFirst();
        long committed = position.committedIndex();
        assertEquals(OptionalLong.empty(), position.holderPid(), "life " + kill + ": a killed holder holds nothing");
        long lastLogged = commits.isEmpty() ? committedBefore : commits.getLast();
        long lastProcessed = processed.isEmpty() ? committedBefore : processed.getLast();
        assertTrue(committed >= lastLogged && committed <= lastProcessed, "life " + kill + ": committed " + committed
                + " is the last commit (last logged " + lastLogged + ", last processed " + lastProcessed + ")");
        assertTrue(committed == committedBefore || (committed - committedBefore) % commitEvery == 0,
                "life " + kill + ": committed " + committed + " is a commit point (every " + commitEvery + ")");
        return new Life(committedBefore + 1, processed, commits, committed, commitEvery);
    }

    /** Reads the rest of the queue in this JVM as the consumer's last life. */
    private static Life lastLife(BlitQueue<Object> queue, long committedBefore) {
        List<Long> processed = new ArrayList<>();
        try (NamedTailer<Object> tailer = queue.tailer("crash")) {
            assertEquals(committedBefore + 1, tailer.index(), "the last life resumes after the last commit");
            while (tailer.read((index, message) -> assertTrue(TypedQueueTest.isMessage(message, index)))) {
                processed.add(tailer.lastReadIndex());
            }
            tailer.commit();
        }
        long last = processed.isEmpty() ? committedBefore : processed.getLast();
        return new Life(committedBefore + 1, processed, List.of(), last, 1);
    }

    private static String rest(BufferedReader output) {
        try {
            StringBuilder text = new StringBuilder();
            while (output.ready()) {
                text.append((char) output.read());
            }
            return text.toString();
        } catch (IOException e) {
            return " (output unreadable: " + e + ")";
        }
    }
}
