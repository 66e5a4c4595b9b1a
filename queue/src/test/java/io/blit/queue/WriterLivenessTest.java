package io.blit.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.internal.format.RecordHeader;
import io.blit.queue.internal.format.SegmentFormat;
import io.blit.queue.internal.writer.WriterRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writer liveness by writer ids (docs/queue-design.md, "Writer liveness"): a writer that died between claim and commit
 * is stepped over in any pid namespace, after pid reuse, and when reader and writer share a pid number; a live
 * writer holds readers back.
 */
class WriterLivenessTest {
    /**
     * The default abandon grace: a reader gets past a dead claim once it has seen it for this long. The bound below
     * adds 20 s for a second JVM's scheduling on a loaded machine: it bounds a hang, it does not time the grace.
     */
    private static final long GRACE_NANOS = QueueOptions.defaults().abandonGrace().toNanos();
    private static final long BOUND_NANOS = GRACE_NANOS + TimeUnit.SECONDS.toNanos(20);

    @TempDir
    Path dir;

    @Test
    void aWriterKilledAsPidOneOfAPidNamespaceIsSteppedOverByTailersOnTheHostAndInANewNamespace() throws Exception {
        requirePidNamespaces();
        Process producer = namespaced(ClaimingChild.class, dir.toString(), "3");
        BufferedReader producerOut = reader(producer);
        assertEquals("pid 1", producerOut.readLine(), "the writer runs as pid 1, as in a container");
        assertEquals("claimed 3", producerOut.readLine());
        ProcessHandle producerJvm = producer.toHandle().descendants().findFirst().orElseThrow();

        Process nsTailer = namespaced(TailingChild.class, dir.toString(), "6");
        BufferedReader nsOut = reader(nsTailer);
        assertEquals("pid 1", nsOut.readLine(), "the reader is pid 1 of its own namespace: the writer's pid number");
        assertEquals("ready", nsOut.readLine());
        CompletableFuture<List<long[]>> nsReads = CompletableFuture.supplyAsync(() -> readLines(nsOut));

        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class)) {
            CompletableFuture<List<long[]>> hostReads = CompletableFuture.supplyAsync(() -> tail(queue, 6));
            Thread.sleep(200); // both tailers wait at the live claim
            try (Tailer<MarketData> atClaim = queue.tailerFrom(3)) {
                PendingClaim claim = atClaim.pendingClaim().orElseThrow();
                assertTrue(claim.writerAlive(), "the claim of the live namespaced writer holds readers back: " + claim);
                assertEquals("writer 1 (pid 1)", claim.writer(), "its writer id, and its pid in its namespace");
            }

            assertTrue(producerJvm.destroyForcibly(), "SIGKILL to the writer, pid 1 of its namespace");
            assertTrue(producer.waitFor(30, TimeUnit.SECONDS), "unshare ends once its child, the writer, is gone");
            long appended;
            try (Appender<MarketData> appender = queue.appender()) {
                MarketData md = new MarketData();
                for (int n = 4; n <= 6; n++) {
                    assertEquals(n, appender.append(md.fillFor(n, 0)), "appenders step over the claimed index 3");
                }
                appended = System.nanoTime();
            }
            assertReadsWithinBound("host tailer", hostReads.get(30, TimeUnit.SECONDS), appended);
            assertReadsWithinBound("tailer in a new pid namespace", nsReads.get(30, TimeUnit.SECONDS), appended);
        } finally {
            producer.descendants().forEach(ProcessHandle::destroyForcibly);
            nsTailer.descendants().forEach(ProcessHandle::destroyForcibly);
            producer.destroyForcibly();
            nsTailer.destroyForcibly();
        }
    }

    @Test
    void aClaimNamingALiveProcessesPidButNoLiveWriterIsSteppedOver() throws Exception {
        long ownPid = ProcessHandle.current().pid() & RecordHeader.WRITER_MASK;
        long parentPid = ProcessHandle.current().parent().orElseThrow().pid() & RecordHeader.WRITER_MASK;
        QueueOptions quick = QueueOptions.defaults().abandonGrace(Duration.ofMillis(20));
        try (BlitQueue<MarketData> queue = BlitQueue.open(dir, MarketData.class, quick);
             Appender<MarketData> appender = queue.appender()) {
            long me = queue.files().writerId();
            assertNotEquals(ownPid, me, "this process's writer id is not its pid");
            assertNotEquals(parentPid, me);
            MarketData md = new MarketData();
            long record = RecordHeader.messageRecordLength(md.byteSize());
            // a record claimed under this JVM's pid number (a reader sharing the writer's pid), then one under its
            // parent's (a dead writer's pid now used by another live process): neither is a writer id held now
            RecordWords.write(dir, SegmentFormat.RECORDS_START, claimed(ownPid, md));
            RecordWords.write(dir, SegmentFormat.RECORDS_START + record, claimed(parentPid, md));
            assertEquals(2, appender.append(md.fillFor(2, 0)));

            try (Tailer<MarketData> tailer = queue.tailer()) {
                assertFalse(tailer.readNext(md));
                PendingClaim claim = tailer.pendingClaim().orElseThrow();
                assertEquals(0, claim.index());
                assertFalse(claim.writerAlive(), "writer " + ownPid + " holds no lock: dead, whatever pid it names");
                assertTrue(claim.writer().startsWith("writer " + ownPid), claim.writer());
                assertTrue(tailer.next(md, WaitStrategy.PARK, TimeUnit.SECONDS.toNanos(5)));
                assertEquals(2, md.securityId, "both dead claims stepped over");
                assertEquals(Optional.empty(), tailer.pendingClaim());
            }
            assertEquals(RecordHeader.STATE_ABANDONED, RecordHeader.state(RecordWords.read(dir, SegmentFormat.RECORDS_START)));
            assertEquals(RecordHeader.STATE_ABANDONED, RecordHeader.state(RecordWords.read(dir, SegmentFormat.RECORDS_START + record)));
        }
    }

    @Test
    void aWriterIdIsAliveExactlyWhileItsProcessHoldsItAndIsNeverReusedMeanwhile() throws Exception {
        Process child = new ProcessBuilder(KillDashNineTest.javaCommand(), "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"), ClaimingChild.class.getName(), dir.toString(), "0")
                .redirectErrorStream(true).start();
        try {
            BufferedReader out = reader(child);
            out.readLine(); // pid
            assertEquals("claimed 0", out.readLine());
            WriterRegistry writers = WriterRegistry.acquire(dir);
            try {
                long mine = writers.lease(false);
                assertTrue(writers.isAlive(1), "the child created the queue: writer 1, alive");
                assertEquals(2, mine, "ids are handed out in sequence");
                assertEquals("writer 1 (pid " + child.pid() + ")", writers.describe(1));
                child.destroyForcibly();
                assertTrue(child.waitFor(30, TimeUnit.SECONDS));
                assertFalse(writers.isAlive(1), "the kernel released the killed writer's lock");
                assertTrue(writers.isAlive(mine));
                assertFalse(writers.isAlive(3), "never handed out");
            } finally {
                writers.release();
            }
        } finally {
            child.destroyForcibly();
        }
    }

    /** A tailer on {@code queue} reading {@code count} messages: (index, System.nanoTime when read) each. */
    private static List<long[]> tail(BlitQueue<MarketData> queue, int count) {
        List<long[]> reads = new ArrayList<>();
        try (Tailer<MarketData> tailer = queue.tailer()) {
            MarketData md = new MarketData();
            for (int n = 0; n < count; n++) {
                if (!tailer.next(md, WaitStrategy.PARK, TimeUnit.SECONDS.toNanos(30))) {
                    break;
                }
                assertTrue(md.isConsistentFor(tailer.index() - 1));
                reads.add(new long[] {tailer.index() - 1, System.nanoTime()});
            }
        }
        return reads;
    }

    /** The "read I" lines of a {@link TailingChild}: (index, System.nanoTime when the line came) each. */
    private static List<long[]> readLines(BufferedReader out) {
        List<long[]> reads = new ArrayList<>();
        try {
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith("read ")) {
                    reads.add(new long[] {Long.parseLong(line.substring(5)), System.nanoTime()});
                } else {
                    reads.add(new long[] {-1, System.nanoTime()}); // "timeout at I" or an error: fails the check
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return reads;
    }

    private static void assertReadsWithinBound(String who, List<long[]> reads, long appended) {
        assertEquals(List.of(0L, 1L, 2L, 4L, 5L, 6L), reads.stream().map(read -> read[0]).toList(),
                who + ": every message, index 3 (the dead writer's claim) stepped over");
        long late = reads.getLast()[1] - appended;
        assertTrue(late <= BOUND_NANOS, who + ": the last message came " + TimeUnit.NANOSECONDS.toMillis(late)
                + " ms after it was appended, more than the abandon grace plus 20 s");
    }

    private static void requirePidNamespaces() throws Exception {
        Process probe = new ProcessBuilder("unshare", "--pid", "--fork", "--mount-proc", "--kill-child", "true")
                .redirectErrorStream(true).start();
        String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        boolean available = probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0;
        if (!available) {
            System.err.println("WriterLivenessTest: SKIPPED, pid namespaces unavailable here (unshare --pid needs root"
                    + " or user namespaces): " + output);
        }
        Assumptions.assumeTrue(available, "pid namespaces unavailable: " + output);
    }

    /**
     * A child JVM running {@code main} as pid 1 of a new pid namespace (--kill-child: a SIGTERM to unshare when the
     * test ends takes it down too).
     */
    private static Process namespaced(Class<?> main, String... args) throws IOException {
        // -XX:-UsePerfData: JVMs that are each pid 1 of their namespace would share /tmp/hsperfdata_<user>/1
        List<String> command = new ArrayList<>(List.of("unshare", "--pid", "--fork", "--mount-proc", "--kill-child=SIGTERM",
                KillDashNineTest.javaCommand(), "-XX:-UsePerfData", "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static BufferedReader reader(Process process) {
        return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    private static long claimed(long claimer, MarketData md) {
        return RecordHeader.claimed(claimer, (int) md.byteSize() + RecordHeader.TIME_LENGTH);
    }
}
