package io.blit.tools.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ReportTableTest {
    @Test
    void variationIsThePublishedFormulaWithItsPrecedence() {
        // 100 * (max - min) / (max + min / 2): 100 * 100 / (200 + 50) = 40
        assertEquals(40.0, ReportTable.variation(100, 200, 150), 1e-12);
        assertEquals(0.0, ReportTable.variation(7, 7, 7), 1e-12);
        assertEquals(0.0, ReportTable.variation(5), 1e-12);
        assertEquals(0.0, ReportTable.variation(0, 0), 1e-12);
        // a published normal-object p50 row: 18.53 .. 19.36 -> 100*0.83/(19.36+9.265)
        assertEquals(2.8996, ReportTable.variation(18530, 18590, 18910, 19360, 19300), 1e-3);
        assertThrows(IllegalArgumentException.class, ReportTable::variation);
    }

    @Test
    void formatsMicrosecondsWithThreeSignificantDigits() {
        assertEquals("0.181", ReportTable.micros(181));
        assertEquals("3.41", ReportTable.micros(3_410));
        assertEquals("18.5", ReportTable.micros(18_530));
        assertEquals("8118", ReportTable.micros(8_118_000));
        assertEquals("0.000", ReportTable.micros(0));
    }

    @Test
    void tableHasAColumnPerRunAVariationColumnAndTheSevenRows() {
        Percentiles run1 = new Percentiles(180, 230, 1_000, 2_000, 5_000, 20_000, 90_000);
        Percentiles run2 = new Percentiles(200, 250, 1_100, 2_100, 5_500, 21_000, 95_000);
        String table = ReportTable.format("tc, thread mode", List.of(run1, run2));
        List<String> lines = table.lines().toList();
        assertEquals("tc, thread mode (end to end, microseconds)", lines.get(0));
        assertEquals(List.of("Percentile", "run1", "run2", "%", "Variation"), List.of(lines.get(1).trim().split("\\s+")));
        assertEquals(9, lines.size());
        List<String> labels = lines.subList(2, 9).stream().map(l -> l.trim().split("\\s+")[0]).toList();
        assertEquals(Percentiles.LABELS, labels);
        assertEquals(List.of("50.0", "0.180", "0.200", "6.90"), List.of(lines.get(2).trim().split("\\s+")));
        assertEquals(List.of("worst", "90.0", "95.0", "3.57"), List.of(lines.get(8).trim().split("\\s+")));
    }

    @Test
    void percentilesComeFromTheHistogramInOrder() {
        Histogram histogram = ReceiveLoop.newHistogram();
        for (long v = 1; v <= 10_000; v++) {
            histogram.recordValue(v * 100);
        }
        Percentiles p = Percentiles.of(histogram);
        assertEquals(500_000, p.p50(), 500);
        assertEquals(990_000, p.p99(), 1_000);
        assertEquals(999_900, p.p99_99(), 1_000);
        assertEquals(1_000_000, p.max(), 1_000);
        long[] values = p.values();
        for (int i = 1; i < values.length; i++) {
            assertTrue(values[i] >= values[i - 1]);
        }
    }

    @Test
    void refusesDecreasingOrNegativeFiguresAndEmptyRuns() {
        assertThrows(IllegalArgumentException.class, () -> new Percentiles(5, 4, 6, 7, 8, 9, 10));
        assertThrows(IllegalArgumentException.class, () -> new Percentiles(-1, 4, 6, 7, 8, 9, 10));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Percentiles.of(ReceiveLoop.newHistogram()));
        assertTrue(e.getMessage().contains("no latencies"), e.getMessage());
    }
}
