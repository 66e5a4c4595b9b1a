package io.blit.tools.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.BlitQueue;
import io.blit.queue.QueueOptions;
import io.blit.queue.WaitStrategy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The harness end to end in a small configuration: structure and integrity of the figures (every message
 * recorded once per run, positive and ordered percentiles), never speed.
 */
class HarnessTest {
    private static final long SEGMENT = 8L << 20;

    @TempDir
    Path dir;

    static RunPlan small(MessageKind kind, WaitStrategy wait) {
        return new RunPlan(kind, 20_000, 1_000, 1_500, 2, wait, SEGMENT);
    }

    @ParameterizedTest
    @EnumSource(MessageKind.class)
    void threadModeRecordsEveryMeasuredMessageOnce(MessageKind kind) throws Exception {
        LatencyResult result = ThreadMode.run(small(kind, WaitStrategy.BUSY_SPIN), dir.resolve("q"));
        assertSane(result, kind, "thread");
    }

    @Test
    void aRunThatFitsInOneFilePreparesNoSecondOne() {
        RunPlan fits = new RunPlan(MessageKind.TC, 100_000, 1_000, 1_000, 2, WaitStrategy.BUSY_SPIN, 1L << 20);
        assertTrue(fits.fitsOneFile(), "3,000 records of 200 bytes in 1 MiB");
        assertEquals(false, fits.queueOptions().prepareNextFile());
        RunPlan rolls = new RunPlan(MessageKind.TC, 100_000, 1_000, 1_000, 2, WaitStrategy.BUSY_SPIN, 64L << 10);
        assertEquals(false, rolls.fitsOneFile(), "3,000 records of 200 bytes in 64 KiB");
        assertTrue(rolls.queueOptions().prepareNextFile());
        assertEquals(1L << 20, fits.queueOptions().segmentSize());
    }

    @Test
    void threadModeWorksWithParkingConsumer() throws Exception {
        LatencyResult result = ThreadMode.run(small(MessageKind.TC, WaitStrategy.PARK), dir.resolve("q"));
        assertSane(result, MessageKind.TC, "thread");
        // Linux says where each side ran (elsewhere: "unknown"); the harness prints it beside the table
        String cpus = Files.exists(Path.of("/proc/thread-self/stat")) ? "[0-9,]+" : "unknown";
        assertTrue(result.placement().matches("placement: .+, clocksource \\S+; producer ran on CPU\\(s\\) " + cpus
                + ", consumer on CPU\\(s\\) " + cpus), result.placement());
    }

    @ParameterizedTest
    @EnumSource(value = MessageKind.class, names = {"TC", "NORMAL", "FLOOR", "REPLICATED"})
    void processModeRunsProducerAndConsumerJvms(MessageKind kind) throws Exception {
        List<Process> live = Collections.synchronizedList(new ArrayList<>());
        Path work = Files.createDirectories(dir.resolve("work"));
        LatencyResult result = ProcessMode.run(small(kind, WaitStrategy.BUSY_SPIN), dir.resolve("q"), work, false, live);
        assertSane(result, kind, "process");
        assertTrue(live.isEmpty(), "children removed once finished");
        assertTrue(Files.exists(work.resolve(kind.cliName() + "-consumer.log")));
    }

    @Test
    void aKindWithFlagsOfItsOwnRunsInJvmsWithThoseFlagsInBothModes() throws Exception {
        LatencyKind flagged = LatencyKind.parse("flagged-test"); // a service, like benchmarks.jar's chronicle
        assertEquals(null, System.getProperty(FlaggedTestKind.PROPERTY), "the flag stays off the harness's JVM");
        List<Process> live = Collections.synchronizedList(new ArrayList<>());
        Path work = Files.createDirectories(dir.resolve("work"));
        RunPlan plan = new RunPlan(flagged, 20_000, 1_000, 1_500, 2, WaitStrategy.BUSY_SPIN, SEGMENT);
        assertSaneRuns(ProcessMode.runThreadsInOwnJvm(plan, dir.resolve("threads"), work, live), flagged, "thread");
        LatencyResult processes = ProcessMode.run(plan, dir.resolve("processes"), work, false, live);
        assertSaneRuns(processes, flagged, "process");
        String cpus = Files.exists(Path.of("/proc/thread-self/stat")) ? "[0-9,]+" : "unknown";
        assertTrue(processes.placement().matches(".*producer ran on CPU\\(s\\) " + cpus + ", consumer on CPU\\(s\\) "
                + cpus), processes.placement());
        assertTrue(live.isEmpty(), "children removed once finished");
        IllegalStateException here = assertThrows(IllegalStateException.class, () -> ThreadMode.run(plan, dir.resolve("here")));
        assertTrue(here.getMessage().contains(FlaggedTestKind.PROPERTY), here.getMessage());
    }

    @Test
    void processModeReportsAFailedChildWithItsOutput() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        List<Process> live = Collections.synchronizedList(new ArrayList<>());
        Path work = Files.createDirectories(dir.resolve("work"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ProcessMode.run(
                small(MessageKind.TC, WaitStrategy.BUSY_SPIN), notADirectory.resolve("q"), work, false, live));
        assertTrue(e.getMessage().contains("process failed with exit code 1"), e.getMessage());
        assertTrue(live.isEmpty());
    }

    @Test
    void threadModeReportsAConsumerFailure() throws Exception {
        Path queue = dir.resolve("q");
        try (MessageSender sender = MessageKind.TC.sender(queue, QueueOptions.defaults().segmentSize(SEGMENT))) {
            sender.send(0, 0); // the queue is not new: the consumer must refuse it
        }
        RunPlan long1 = new RunPlan(MessageKind.TC, 1_000, 0, 1_000_000, 1, WaitStrategy.BUSY_SPIN, SEGMENT);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ThreadMode.run(long1, queue));
        assertTrue(e.getMessage().contains("the consumer failed") && e.getMessage().contains("not new"), e.getMessage());
    }

    @Test
    void sendLoopSendsInOrderWithIntendedTimesAndStopsWhenTold() {
        List<long[]> sent = new ArrayList<>();
        MessageSender recorder = new MessageSender() {
            @Override
            public void send(long sequence, long intendedNanos) {
                sent.add(new long[] {sequence, intendedNanos});
            }

            @Override
            public void pretouch(long bytes) {
            }

            @Override
            public void close() {
            }
        };
        RunPlan plan = new RunPlan(MessageKind.TC, 1_000_000_000L, 0, 5_000, 1, WaitStrategy.BUSY_SPIN, SEGMENT);
        int[] asked = {0};
        SendLoop.run(recorder, plan, 1_000, () -> ++asked[0] > 2);
        assertEquals(2048, sent.size(), "stops at the third check (every 1024 messages)");
        for (int i = 0; i < sent.size(); i++) {
            assertEquals(i, sent.get(i)[0]);
            assertEquals(1_000 + i, sent.get(i)[1], "intended time = start + sequence * 1e9 / rate");
        }
    }

    @Test
    void prefaultLeavesTheQueueContentAlone() {
        Path queue = dir.resolve("q");
        QueueOptions options = QueueOptions.defaults().segmentSize(SEGMENT);
        try (MessageSender sender = MessageKind.TC.sender(queue, options);
             MessageReceiver receiver = MessageKind.TC.receiver(queue, options)) {
            sender.send(0, 5);
            QueuePrefault.prefault(queue, Long.MAX_VALUE); // clamped to the file size
            sender.send(1, 6);
            for (long s = 0; s < 2; s++) {
                assertTrue(receiver.poll());
                receiver.verify(s);
                assertEquals(5 + s, receiver.intendedNanos());
            }
        }
        // two 208-byte records: header word, time, 192-byte block
        assertEquals(8192 + 2 * 208, QueuePrefault.bytesNeeded(new RunPlan(MessageKind.TC, 1, 1, 1, 1, WaitStrategy.PARK, SEGMENT)));
    }

    @Test
    void planArgumentsRoundTripForTheChildProcess() {
        RunPlan plan = new RunPlan(MessageKind.NORMAL, 12_345, 7, 8, 9, WaitStrategy.YIELD, 1 << 20);
        assertEquals(plan, RunPlan.parseArgs(plan.toArgs(), 0));
        assertEquals(RunPlan.ARG_COUNT, plan.toArgs().size());
    }

    @Test
    void planScheduleAndBounds() {
        RunPlan plan = new RunPlan(MessageKind.TC, 100_000, 50_000, 20_000, 5, WaitStrategy.BUSY_SPIN, 1 << 20);
        assertEquals(150_000, plan.total());
        assertEquals(10_000, plan.offsetNanos(1));
        assertEquals(1_500_000_000L, plan.durationNanos());
        assertThrows(IllegalArgumentException.class, () -> new RunPlan(MessageKind.TC, 0, 0, 1, 1, WaitStrategy.PARK, 1 << 20));
        assertThrows(IllegalArgumentException.class, () -> new RunPlan(MessageKind.TC, 1, -1, 1, 1, WaitStrategy.PARK, 1 << 20));
        assertThrows(IllegalArgumentException.class, () -> new RunPlan(MessageKind.TC, 1, 0, 0, 1, WaitStrategy.PARK, 1 << 20));
        assertThrows(IllegalArgumentException.class, () -> new RunPlan(MessageKind.TC, 1, 0, 1, 0, WaitStrategy.PARK, 1 << 20));
        assertThrows(IllegalArgumentException.class, () -> new RunPlan(MessageKind.TC, 1, 0, 1, 1, WaitStrategy.PARK, 5000));
        assertThrows(IllegalArgumentException.class,
                () -> new RunPlan(MessageKind.TC, 1, 0, 1_000_000_000L, 2, WaitStrategy.PARK, 1 << 20));
    }

    @Test
    void receiveLoopRefusesAMessageOutOfOrder() {
        FakeReceiver receiver = new FakeReceiver(new long[] {0, 2}, -1_000);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ReceiveLoop.run(receiver, new RunPlan(MessageKind.TC, 1000, 0, 2, 1, WaitStrategy.BUSY_SPIN, 1 << 20),
                        () -> false));
        assertEquals("expected message 1, got 2", e.getMessage());
    }

    @Test
    void receiveLoopRefusesAMessageFromTheFuture() {
        FakeReceiver receiver = new FakeReceiver(new long[] {0}, 60_000_000_000L);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ReceiveLoop.run(receiver, new RunPlan(MessageKind.TC, 1000, 0, 1, 1, WaitStrategy.BUSY_SPIN, 1 << 20),
                        () -> false));
        assertTrue(e.getMessage().contains("not comparable"), e.getMessage());
    }

    @Test
    void receiveLoopGivesUpWhenTold() {
        FakeReceiver receiver = new FakeReceiver(new long[] {0}, -1_000);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ReceiveLoop.run(receiver, new RunPlan(MessageKind.TC, 1000, 0, 5, 1, WaitStrategy.BUSY_SPIN, 1 << 20),
                        () -> true));
        assertTrue(e.getMessage().contains("gave up after 1 of 5"), e.getMessage());
    }

    @Test
    void warmUpIsNotRecordedAndRunsSplitBySequence() {
        FakeReceiver receiver = new FakeReceiver(new long[] {0, 1, 2, 3, 4, 5, 6}, -1_000);
        Histogram[] runs = ReceiveLoop.run(receiver,
                new RunPlan(MessageKind.TC, 1000, 3, 2, 2, WaitStrategy.BUSY_SPIN, 1 << 20), () -> false);
        assertEquals(2, runs.length);
        assertEquals(2, runs[0].getTotalCount());
        assertEquals(2, runs[1].getTotalCount());
    }

    static void assertSane(LatencyResult result, MessageKind kind, String mode) {
        assertSaneRuns(result, kind, mode);
    }

    static void assertSaneRuns(LatencyResult result, LatencyKind kind, String mode) {
        assertEquals(kind, result.kind());
        assertEquals(mode, result.mode());
        assertEquals(20_000, result.rate());
        assertEquals(2, result.runs().size());
        for (Histogram run : result.runs()) {
            assertEquals(1_500, run.getTotalCount(), "every measured message recorded once");
        }
        for (Percentiles p : result.percentiles()) { // the constructor checks non-negative and ordered
            assertTrue(p.p50() > 0, "positive latency: " + p);
            assertTrue(p.max() >= p.p50() && p.max() < ReceiveLoop.HIGHEST_TRACKABLE_SECONDS * 1_000_000_000L, p.toString());
        }
    }

    /** Returns the given sequences, each intended {@code offset} ns after the time it is polled, then nothing. */
    private static final class FakeReceiver implements MessageReceiver {
        private final long[] sequences;
        private final long offset;
        private long intended;
        private int next;

        FakeReceiver(long[] sequences, long offset) {
            this.sequences = sequences;
            this.offset = offset;
        }

        @Override
        public void pretouch(long bytes) {
        }

        @Override
        public boolean poll() {
            if (next >= sequences.length) {
                return false;
            }
            next++;
            intended = System.nanoTime() + offset;
            return true;
        }

        @Override
        public long sequence() {
            return sequences[next - 1];
        }

        @Override
        public long intendedNanos() {
            return intended;
        }

        @Override
        public void verify(long sequence) {
        }

        @Override
        public void close() {
        }
    }
}
