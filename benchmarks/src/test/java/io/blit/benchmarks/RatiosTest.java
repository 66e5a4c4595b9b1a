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
    void aResultWithoutANumberCountsAsMissing() {
        Map<String, Map<String, Double>> ratios = Ratios.of(List.of(
                SummaryTestData.marketData("blit", "write", 144, Double.NaN, Double.NaN),
                SummaryTestData.marketData("floor", "write", 144, 4, 0.1)));
        assertTrue(ratios.get("write").isEmpty());
        assertTrue(ratios.get("read").isEmpty());
    }
}
