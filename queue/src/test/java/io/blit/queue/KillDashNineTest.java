package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.segment.SegmentFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety: producers in child JVMs are killed with SIGKILL ({@code destroyForcibly}) at
 * random moments while appending as fast as they can to one queue directory; after every kill a tailer in this
 * JVM reads the whole queue and checks that nothing committed was lost or torn.
 */
class KillDashNineTest {
    private static final int ROUNDS = 24;
    private static final long SEGMENT_SIZE = 256 << 10;
    private static final QueueOptions OPTIONS = QueueOptions.defaults()
            .segmentSize(SEGMENT_SIZE).abandonGrace(Duration.ofMillis(50));
    /** Bound on passing one dead writer's CLAIMED record (grace 50 ms): far more than enough, far less than a hang. */
    private static final long PASS_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);

    @TempDir
    Path dir;

    @Test
    void producersKilledWithSigkillLoseNothingCommittedAndLeaveNoTornRecord() throws Exception {
        Random random = new Random(0x6b696c6cL);
        long next = 0;                            // the index the next producer writes first
        long previousCommitted = 0;
        long previousEnd = 0;
        TreeSet<Long> previousGaps = new TreeSet<>();
        int midClaimKills = 0;
        long maxRead = -1;
        for (int round = 0; round < ROUNDS; round++) {
            Process child = new ProcessBuilder(javaCommand(), "--sun-misc-unsafe-memory-access=allow",
                    "-cp", System.getProperty("java.class.path"), KilledProducer.class.getName(),
                    dir.toString(), Long.toString(SEGMENT_SIZE), Long.toString(next))
                    .redirectErrorStream(true).start();
            BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line = output.readLine();
            int r = round;
            assertEquals("started", line, () -> "round " + r + ": producer did not start: " + line + rest(output));
            Thread.sleep(20 + random.nextInt(281));
            assertTrue(child.isAlive(), () -> "round " + r + ": producer exited before the kill: " + rest(output));
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "round " + round + ": killed producer did not exit");
            assertEquals(137, child.exitValue(), "round " + round + ": killed by SIGKILL (128 + 9)");
            String printed = rest(output);
            assertTrue(!printed.contains("MISMATCH"), "round " + round + ": " + printed);

            Scan before = Scan.of(dir);
            assertTrue(before.claimed.size() <= 1,
                    "round " + round + ": a killed writer leaves at most one CLAIMED record: " + before.claimed);
            midClaimKills += before.claimed.size();

            long committed = 0;
            long end;
            TreeSet<Long> gaps = new TreeSet<>();
            try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, OPTIONS);
                 Tailer<MarketData> tailer = queue.tailer()) {
                assertEquals(List.of(), temporaries(dir), "round " + round + ": opening deletes a dead creator's temporaries");
                MarketData md = new MarketData();
                long last = -1;
                while (tailer.index() < before.end) {
                    long waitStart = System.nanoTime();
                    if (!tailer.next(md, WaitStrategy.PARK, PASS_TIMEOUT_NANOS)) {
                        if (tailer.index() >= before.end) {
                            break;                // the last records were abandoned: nothing more to read
                        }
                        fail("round " + round + ": tailer stuck at index " + tailer.index() + " for "
                                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - waitStart) + " ms; raw scan " + before);
                    }
                    long index = tailer.index() - 1;
                    assertEquals(index, md.securityId, "round " + round + ": message at index " + index);
                    assertTrue(md.isConsistentFor(index), "round " + round + ": torn message at index " + index);
                    assertTrue(index > last, "indices strictly increase");
                    for (long gap = last + 1; gap < index; gap++) {
                        gaps.add(gap);
                    }
                    last = index;
                    committed++;
                    maxRead = Math.max(maxRead, index);
                }
                end = tailer.index();
                for (long gap = last + 1; gap < end; gap++) {
                    gaps.add(gap);            // abandoned records at the very end
                }
                assertEquals(before.end, end, "round " + round + ": the tailer reached the end of the records");
                assertEquals(end, committed + gaps.size(), "round " + round + ": messages read and abandoned indices"
                        + " make up the end");
                assertEquals(end, queue.endIndex(), "round " + round + ": endIndex() is that end");
                assertTrue(!tailer.readNext(md), "round " + round + ": nothing beyond the end");

                // seeks land on the right message, with or without a checkpoint written by the killed writer
                for (int probe = 0; probe < 5; probe++) {
                    long target = random.nextLong(end);
                    if (gaps.contains(target)) {
                        continue;
                    }
                    try (Tailer<MarketData> seeker = queue.tailerFrom(target)) {
                        assertTrue(seeker.readNext(md), "round " + round + ": seek to " + target);
                        assertTrue(md.isConsistentFor(target), "round " + round + ": seek to " + target + " read " + md.securityId);
                    }
                }
            }
            Scan after = Scan.of(dir);
            assertEquals(List.of(), after.claimed, "round " + round + ": the dead writer's claim was abandoned");
            assertEquals(after.abandoned, gaps, "round " + round + ": gaps only where records were abandoned");
            assertEquals(before.committed, committed, "round " + round + ": every committed record read");

            assertTrue(committed > previousCommitted,
                    "round " + round + ": the count grows (the producer committed one before 'started'): "
                            + committed + " after " + previousCommitted);
            assertEquals(previousGaps, gaps.headSet(previousEnd),
                    "round " + round + ": nothing published earlier disappeared");
            assertTrue(gaps.tailSet(previousEnd).size() <= 1,
                    "round " + round + ": at most one gap per kill: " + gaps.tailSet(previousEnd));
            previousCommitted = committed;
            previousEnd = end;
            previousGaps = gaps;
            next = end;
        }

        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, OPTIONS);
             Appender<MarketData> appender = queue.appender();
             Tailer<MarketData> tailer = queue.tailerFrom(previousEnd)) {
            MarketData md = new MarketData();
            long first = appender.append(md.fillFor(previousEnd, 0));
            assertEquals(previousEnd, first, "a new appender continues the sequence");
            assertTrue(first > maxRead, "its index follows every index read");
            assertTrue(tailer.next(md, WaitStrategy.PARK, PASS_TIMEOUT_NANOS));
            assertTrue(md.isConsistentFor(first));
        }
        assertTrue(SegmentFiles.list(dir).length > 1, "segments rolled during the rounds");
        System.out.println("KillDashNineTest: " + ROUNDS + " kills, " + midClaimKills + " between claim and commit, "
                + previousCommitted + " messages, " + previousGaps.size() + " abandoned, "
                + SegmentFiles.list(dir).length + " files");
    }

    private static String rest(BufferedReader output) {
        try {
            StringBuilder text = new StringBuilder();
            for (String line; (line = output.readLine()) != null; ) {
                text.append('\n').append(line);
            }
            return text.toString();
        } catch (IOException e) {
            return " (output unreadable: " + e + ")";
        }
    }

    private static List<String> temporaries(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(name -> name.contains(".tmp-")).toList();
        }
    }

    static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The record headers of every file, walked with plain file reads (independently of {@link Tailer}). */
    private record Scan(long end, long committed, TreeSet<Long> abandoned, List<Long> claimed) {
        static Scan of(Path dir) throws IOException {
            long[] firsts = SegmentFiles.list(dir);
            long index = firsts[0];
            long committed = 0;
            TreeSet<Long> abandoned = new TreeSet<>();
            List<Long> claimed = new ArrayList<>();
            for (int f = 0; f < firsts.length; f++) {
                assertEquals(index, firsts[f], "file " + f + " starts where the previous one ended");
                ByteBuffer bytes;
                try (FileChannel channel = FileChannel.open(SegmentFiles.path(dir, firsts[f]), StandardOpenOption.READ)) {
                    bytes = ByteBuffer.allocate((int) channel.size()).order(ByteOrder.nativeOrder());
                    while (bytes.hasRemaining() && channel.read(bytes) >= 0) {
                        // read it all
                    }
                }
                long position = SegmentFormat.RECORDS_START;
                boolean rolled = false;
                while (position + RecordHeader.LENGTH <= bytes.capacity()) {
                    long word = bytes.getLong((int) position);
                    if (word == 0) {
                        break;
                    }
                    if (RecordHeader.isPadding(word)) {
                        rolled = true;
                        break;
                    }
                    long state = RecordHeader.state(word);
                    if (state == RecordHeader.STATE_COMMITTED) {
                        committed++;
                    } else if (state == RecordHeader.STATE_ABANDONED) {
                        abandoned.add(index);
                    } else {
                        assertEquals(RecordHeader.STATE_CLAIMED, state);
                        claimed.add(index);
                    }
                    index++;
                    position += RecordHeader.recordLength(RecordHeader.length(word));
                }
                if (!rolled && position + RecordHeader.LENGTH <= bytes.capacity()) {
                    assertEquals(firsts.length - 1, f, "only the last file has an empty tail; file " + firsts[f]);
                }
            }
            assertNotNull(claimed);
            return new Scan(index, committed, abandoned, claimed);
        }
    }
}
