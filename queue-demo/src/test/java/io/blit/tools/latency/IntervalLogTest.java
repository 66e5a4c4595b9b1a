package io.blit.tools.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.queue.WaitStrategy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The .hlog beside the JSON: read back with HdrHistogram's own reader, it holds exactly what was recorded. */
class IntervalLogTest {
    /** Some instant of 2026, epoch milliseconds. */
    private static final long T0 = 1_780_000_000_123L;

    @TempDir
    Path dir;

    static Histogram stamped(long base, long startMillis, long endMillis) {
        Histogram histogram = LatencyOutputTest.ramp(base);
        histogram.setStartTimeStamp(startMillis);
        histogram.setEndTimeStamp(endMillis);
        return histogram;
    }

    @Test
    void logReadsBackWithHistogramLogReaderAsRecorded() throws Exception {
        LatencyResult tc = new LatencyResult(MessageKind.TC, "thread", 100_000,
                List.of(stamped(3, T0, T0 + 2_000), stamped(7, T0 + 2_000, T0 + 4_000)));
        LatencyResult floor = new LatencyResult(MessageKind.FLOOR, "thread", 100_000,
                List.of(stamped(1_000, T0 + 5_000, T0 + 7_500)));
        Path file = dir.resolve("lat.hlog");
        IntervalLog.write(file, List.of(tc, floor));

        List<Histogram> read = new ArrayList<>();
        try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
            for (EncodableHistogram next = reader.nextIntervalHistogram(); next != null;
                 next = reader.nextIntervalHistogram()) {
                read.add((Histogram) next);
            }
        }
        List<Histogram> written = List.of(tc.runs().get(0), tc.runs().get(1), floor.runs().get(0));
        assertEquals(List.of("tc", "tc", "floor"), read.stream().map(Histogram::getTag).toList());
        for (int i = 0; i < written.size(); i++) {
            Histogram expected = written.get(i);
            Histogram actual = read.get(i);
            assertEquals(expected.getTotalCount(), actual.getTotalCount(), "interval " + i);
            for (double p : Percentiles.PERCENTILES) {
                assertEquals(expected.getValueAtPercentile(p), actual.getValueAtPercentile(p), "p" + p + " of " + i);
            }
            assertEquals(expected.getMaxValue(), actual.getMaxValue());
            assertEquals(expected, actual, "same counts in every bucket");
            // The log holds seconds with three decimals; reading back multiplies a double by 1000 and truncates.
            assertEquals(expected.getStartTimeStamp(), actual.getStartTimeStamp(), 1, "start of " + i);
            assertEquals(expected.getEndTimeStamp(), actual.getEndTimeStamp(), 1, "end of " + i);
        }
        assertEquals(null, tc.runs().getFirst().getTag(), "the result's own histograms are not tagged");
        List<String> lines = Files.readAllLines(file);
        assertTrue(lines.contains("#" + IntervalLog.UNITS), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("#[BaseTime: ")), lines.toString());
        assertEquals(3, lines.stream().filter(l -> l.startsWith("Tag=")).count(), lines.toString());
    }

    @Test
    void runsWithoutTimeStampsAreRejected() {
        LatencyResult unstamped = new LatencyResult(MessageKind.TC, "thread", 1, List.of(LatencyOutputTest.ramp(1)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IntervalLog.write(dir.resolve("x.hlog"), List.of(unstamped)));
        assertTrue(e.getMessage().contains("run 1 of tc"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> IntervalLog.write(dir.resolve("y.hlog"), List.of()));
    }

    @Test
    void logSitsBesideTheJson() {
        assertEquals(Path.of("a/b.hlog"), IntervalLog.fileFor(Path.of("a/b.json")));
        assertEquals(Path.of("b.txt.hlog"), IntervalLog.fileFor(Path.of("b.txt")));
    }

    @Test
    void consumerHandOffKeepsCountsAndTimeStamps() {
        Path file = dir.resolve("tc.histograms");
        Histogram[] runs = {stamped(2, T0, T0 + 1_000), stamped(9, T0 + 1_000, T0 + 2_000)};
        HistogramFiles.write(file, runs);
        List<Histogram> back = HistogramFiles.read(file);
        assertEquals(2, back.size());
        for (int i = 0; i < runs.length; i++) {
            assertEquals(runs[i], back.get(i));
            assertEquals(runs[i].getStartTimeStamp(), back.get(i).getStartTimeStamp(), 1);
            assertEquals(runs[i].getEndTimeStamp(), back.get(i).getEndTimeStamp(), 1);
        }
    }

    @Test
    void aHandOffThatIsNotALogNamesTheFile() throws Exception {
        Path file = dir.resolve("bad.histograms");
        Files.writeString(file, "0.000,1.000,2.0,not base64 at all\n");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> HistogramFiles.read(file));
        assertTrue(e.getMessage().contains("bad.histograms"), e.getMessage());
    }

    /** The receive loop stamps each run with its slot of the schedule: count / rate long, back to back. */
    @Test
    void harnessRunsCarryTheirScheduleSlots() throws Exception {
        long before = System.currentTimeMillis();
        RunPlan plan = new RunPlan(MessageKind.FLOOR, 20_000, 1_000, 2_000, 2, WaitStrategy.BUSY_SPIN, 8L << 20);
        LatencyResult result = ThreadMode.run(plan, dir.resolve("q"));
        long after = System.currentTimeMillis();
        Histogram first = result.runs().get(0);
        Histogram second = result.runs().get(1);
        long slotMillis = plan.count() * 1000 / plan.rate();
        assertEquals(slotMillis, first.getEndTimeStamp() - first.getStartTimeStamp(), 1);
        assertEquals(first.getEndTimeStamp(), second.getStartTimeStamp(), 1);
        assertTrue(first.getStartTimeStamp() >= before && second.getEndTimeStamp() <= after,
                before + " <= " + first.getStartTimeStamp() + ", " + second.getEndTimeStamp() + " <= " + after);
        Path file = dir.resolve("floor.hlog");
        IntervalLog.write(file, List.of(result));
        List<Histogram> read = IntervalLog.read(Files.readString(file));
        assertEquals(result.runs(), read);
        assertEquals(List.of("floor", "floor"), read.stream().map(Histogram::getTag).toList());
    }
}
