package io.blit.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RatiosTest {
    @Test
    void computesRatiosWhoseInputsExistAndOmitsTheOthers() {
        Map<String, Map<String, Double>> ratios = Ratios.of(SummaryTestData.sample());
        assertEquals(List.of("write", "read"), List.copyOf(ratios.keySet()));
        assertEquals(Map.of("blit_over_floor", 2.0, "default_over_blit", 10.0, "sweep_4096_blit_over_floor_gbps", 0.5),
                ratios.get("write"));
        assertEquals(2.0, ratios.get("read").get("blit_over_floor"));
        assertEquals(0.5, ratios.get("read").get("sweep_4096_blit_over_floor_gbps"));
    }

    @Test
    void crossLayoutRatiosCompareEachTranslatedReadWithTheBulkReadOfItsSuite() {
        Map<String, Map<String, Double>> ratios = Ratios.of(List.of(
                crossLayout(BenchmarkId.CROSS_LAYOUT, "mixed_bulk", 4),
                crossLayout(BenchmarkId.CROSS_LAYOUT, "mixed_translated", 5),
                crossLayout(BenchmarkId.CROSS_LAYOUT, "market_data_bulk", 8),
                crossLayout(BenchmarkId.CROSS_LAYOUT, "market_data_translated_moved_field", 10),
                crossLayout(BenchmarkId.CROSS_LAYOUT_FFM, "mixed_bulk", 10),
                crossLayout(BenchmarkId.CROSS_LAYOUT_FFM, "mixed_translated", 30),
                crossLayout(BenchmarkId.CROSS_LAYOUT_FFM, "market_data_translated_moved_field", 9)));
        assertEquals(Map.of("cross_layout_mixed_over_bulk", 1.25, "cross_layout_market_data_moved_field_over_bulk", 1.25,
                "cross_layout_mixed_over_bulk_ffm", 3.0), ratios.get("read"), "FFM MarketData has no bulk read: no ratio");
        assertTrue(ratios.get("write").isEmpty());
    }

    private static Score crossLayout(String suite, String variant, double ns) {
        return new Score(new BenchmarkId(suite, variant, BenchmarkId.READ), 0, 0, ns, ns / 10);
    }

    @Test
    void aResultWithoutANumberCountsAsMissing() {
        Map<String, Map<String, Double>> ratios = Ratios.of(List.of(
                SummaryTestData.marketData("blit", "write", 144, Double.NaN, Double.NaN),
                SummaryTestData.marketData("floor", "write", 144, 4, 0.1)));
        assertTrue(ratios.get("write").isEmpty());
        assertTrue(ratios.get("read").isEmpty());
    }
}
