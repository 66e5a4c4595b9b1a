package io.blit.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.tools.report.ReportJson;
import io.blit.tools.report.RunMetadata;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class SummaryWriterTest {
    @Test
    void writesTheDocumentedShape() {
        String json = SummaryWriter.json(SummaryTestData.INFO, SummaryTestData.sample());
        assertTrue(json.startsWith("{\n  \"mode\": \"quick\",\n  \"jdk\": \"25.0.3 (OpenJDK \\\"64-Bit\\\" VM)\",\n"
                + "  \"cpu\": \"Test CPU\",\n  \"cpus\": 2,\n  \"date\": \"2026-01-02\",\n"
                + "  \"command\": \"BenchmarkSuite --quick\",\n  \"results\": [\n"), json);
        assertTrue(json.contains("\n    {\"suite\": \"marketdata\", \"op\": \"write\", \"variant\": \"blit\", \"bytes\": 144,"
                + " \"ns_per_op\": 8, \"error\": 0.5},\n"), json);
        assertTrue(json.contains("{\"suite\": \"sweep\", \"op\": \"read\", \"variant\": \"floor\", \"bytes\": 4096,"
                + " \"ns_per_op\": 80, \"error\": 8, \"gb_per_s\": 51.2}\n  ],\n"), json);
        assertTrue(json.endsWith("  \"ratios\": {\"write\": {\"blit_over_floor\": 2, \"default_over_blit\": 10,"
                + " \"sweep_4096_blit_over_floor_gbps\": 0.5}, \"read\": {\"blit_over_floor\": 2,"
                + " \"default_over_blit\": 10, \"sweep_4096_blit_over_floor_gbps\": 0.5}}\n}\n"), json);
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
        assertTrue(json.endsWith("\"results\": [],\n  \"ratios\": {\"write\": {}, \"read\": {}}\n}\n"), json);
    }

    @Test
    void roundsNumbersToSixDigitsInPlainNotation() {
        assertEquals("130278", text(SummaryWriter.number(130277.9561)));
        assertEquals("130000", text(SummaryWriter.number(130000.04)));
        assertEquals("0.0314405", text(SummaryWriter.number(0.031440512)));
        assertEquals("null", text(SummaryWriter.number(Double.NaN)));
        assertEquals("null", text(SummaryWriter.number(Double.POSITIVE_INFINITY)));
    }

    /**
     * The committed summary keeps its schema: its results, read back as scores and written again with the same run
     * information, give the same document: the same keys in the same order everywhere, the same texts, and numbers
     * equal to their six digits (ratios and GB/s are recomputed from the six-digit scores, so they may differ in the
     * sixth).
     */
    @Test
    void committedSummaryWritesAgainAsTheSameDocument() throws Exception {
        JsonNode committed = ReportJson.read(Path.of("results/summary.json"));
        List<Score> scores = new ArrayList<>();
        for (JsonNode row : committed.get("results")) {
            String suite = row.get("suite").stringValue();
            int bytes = row.get("bytes").isNull() ? 0 : row.get("bytes").intValue();
            scores.add(new Score(new BenchmarkId(suite, row.get("variant").stringValue(), row.get("op").stringValue()),
                    suite.equals(BenchmarkId.SWEEP) ? bytes : 0, bytes, number(row.get("ns_per_op")),
                    number(row.get("error"))));
        }
        assertTrue(scores.size() > 40, "a full run: " + scores.size());
        RunInfo info = new RunInfo(committed.get("mode").stringValue(), new RunMetadata(
                committed.get("jdk").stringValue(), committed.get("cpu").stringValue(), committed.get("cpus").intValue(),
                committed.get("date").stringValue(), committed.get("command").stringValue()));
        assertSameDocument(committed, ReportJson.parse(SummaryWriter.json(info, scores)), "$");
    }

    private static void assertSameDocument(JsonNode expected, JsonNode actual, String at) {
        assertEquals(expected.getNodeType(), actual.getNodeType(), at);
        if (expected.isObject()) {
            assertEquals(List.copyOf(expected.propertyNames()), List.copyOf(actual.propertyNames()), at);
            expected.propertyNames().forEach(key -> assertSameDocument(expected.get(key), actual.get(key), at + "." + key));
        } else if (expected.isArray()) {
            assertEquals(expected.size(), actual.size(), at);
            for (int i = 0; i < expected.size(); i++) {
                assertSameDocument(expected.get(i), actual.get(i), at + "[" + i + "]");
            }
        } else if (expected.isNumber()) {
            assertEquals(expected.doubleValue(), actual.doubleValue(), Math.abs(expected.doubleValue()) * 2e-5, at);
        } else {
            assertEquals(expected, actual, at);
        }
    }

    private static double number(JsonNode node) {
        return node.isNull() ? Double.NaN : node.doubleValue();
    }

    private static String text(JsonNode node) {
        return ReportJson.text(node).strip();
    }
}
