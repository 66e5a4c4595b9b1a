package io.blit.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryWriterTest {
    @Test
    void writesTheDocumentedShape() {
        String json = SummaryWriter.json(SummaryTestData.INFO, SummaryTestData.sample());
        assertTrue(json.startsWith("{\n  \"mode\": \"quick\",\n  \"jdk\": \"25.0.3 (OpenJDK \\\"64-Bit\\\" VM)\",\n"
                + "  \"cpu\": \"Test CPU\",\n  \"results\": [\n"), json);
        assertTrue(json.contains("{\"suite\": \"marketdata\", \"op\": \"write\", \"variant\": \"blit\", \"bytes\": 144,"
                + " \"ns_per_op\": 8, \"error\": 0.5}"), json);
        assertTrue(json.contains("{\"suite\": \"sweep\", \"op\": \"read\", \"variant\": \"floor\", \"bytes\": 4096,"
                + " \"ns_per_op\": 80, \"error\": 8, \"gb_per_s\": 51.2}"), json);
        assertTrue(json.contains("\"ratios\": {\n    \"write\": {\"blit_over_floor\": 2, \"default_over_blit\": 10,"
                + " \"sweep_4096_blit_over_floor_gbps\": 0.5},\n    \"read\": {"), json);
    }

    @Test
    void writesNullForNumbersJmhCouldNotProduce() {
        String json = SummaryWriter.json(SummaryTestData.INFO, SummaryTestData.sample());
        assertTrue(json.contains("\"variant\": \"blit\", \"bytes\": 144, \"ns_per_op\": 7, \"error\": null}"), json);
        assertTrue(json.contains("\"variant\": \"default\", \"bytes\": null, \"ns_per_op\": 80, \"error\": 3}"), json);
    }

    @Test
    void writesAnEmptyRunAsEmptyResultsAndRatios() {
        String json = SummaryWriter.json(SummaryTestData.INFO, List.of());
        assertTrue(json.contains("\"results\": [],\n  \"ratios\": {\n    \"write\": {},\n    \"read\": {}\n  }\n}"), json);
    }

    @Test
    void escapesStringsAndRoundsNumbers() {
        assertEquals("\"a\\\"b\\\\c\\n\\u0001\"", SummaryWriter.string("a\"b\\c\n\u0001"));
        assertEquals("130278", SummaryWriter.number(130277.9561));
        assertEquals("0.0314405", SummaryWriter.number(0.031440512));
        assertEquals("null", SummaryWriter.number(Double.NaN));
    }
}
