package io.blit.tools.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

class ReportJsonTest {
    @TempDir
    Path dir;

    @Test
    void rootEntriesAndContainersInArraysGetALineEachTheRestStaysInline() {
        ObjectNode root = ReportJson.object().put("mode", "quick").put("cpus", 2);
        ArrayNode rows = root.putArray("rows");
        rows.addObject().put("a", 1).putArray("inner").add(1).add(2).add(3);
        rows.addObject().put("a", 2).putObject("nested").put("b", true);
        root.putObject("ratios").putObject("write").put("x", 0.5);
        root.putArray("empty");
        root.putObject("none");
        assertEquals("""
                {
                  "mode": "quick",
                  "cpus": 2,
                  "rows": [
                    {"a": 1, "inner": [1,2,3]},
                    {"a": 2, "nested": {"b": true}}
                  ],
                  "ratios": {"write": {"x": 0.5}},
                  "empty": [],
                  "none": {}
                }
                """, ReportJson.text(root));
    }

    @Test
    void arraysOfArraysIndentOncePerBreakingLevel() {
        ArrayNode root = ReportJson.array();
        root.addObject().put("k", "v").putArray("runs").addObject().put("p", 1);
        root.addArray().add(7);
        assertEquals("""
                [
                  {"k": "v", "runs": [
                    {"p": 1}
                  ]},
                  [7]
                ]
                """, ReportJson.text(root));
    }

    @Test
    void bigDecimalsArePlainAndTextIsEscaped() {
        ObjectNode root = ReportJson.object();
        root.put("n", new BigDecimal("1.3E+5")).put("s", "q\"b\\n\n\u0001");
        String text = ReportJson.text(root);
        assertTrue(text.contains("\"n\": 130000,"), text);
        assertTrue(text.contains("\"s\": \"q\\\"b\\\\n\\n\\u0001\""), text);
        JsonNode back = ReportJson.parse(text);
        assertEquals(130000, back.get("n").intValue());
        assertEquals("q\"b\\n\n\u0001", back.get("s").stringValue());
    }

    @Test
    void writesAndReadsFiles() throws Exception {
        Path file = dir.resolve("r.json");
        ObjectNode root = ReportJson.object().put("k", 5L);
        ReportJson.write(file, root);
        assertEquals("{\n  \"k\": 5\n}\n", Files.readString(file));
        JsonNode back = ReportJson.read(file);
        assertEquals(5, back.get("k").longValue());
        Files.writeString(file, "{\"k\": ");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReportJson.read(file));
        assertTrue(e.getMessage().startsWith(file + ": not JSON"), e.getMessage());
    }

    @Test
    void metadataGoesInInItsOrderAndIsValidated() {
        ObjectNode object = ReportJson.object().put("first", 0);
        new RunMetadata("25 (VM)", "CPU", 4, "2026-01-02", "x --y").putInto(object);
        assertEquals("{\"first\": 0, \"jdk\": \"25 (VM)\", \"cpu\": \"CPU\", \"cpus\": 4, \"date\": \"2026-01-02\","
                + " \"command\": \"x --y\"}", ReportJson.text(ReportJson.array().add(object)).lines().skip(1)
                .findFirst().orElseThrow().strip());
        assertThrows(IllegalArgumentException.class, () -> new RunMetadata("j", "c", 0, "d", "x"));
        assertThrows(NullPointerException.class, () -> new RunMetadata("j", null, 1, "d", "x"));
        RunMetadata now = RunMetadata.current();
        assertEquals(Runtime.getRuntime().availableProcessors(), now.cpus());
        assertTrue(now.date().matches("\\d{4}-\\d\\d-\\d\\d"), now.date());
        assertTrue(!now.command().isBlank() && !now.cpu().isBlank(), now.toString());
    }
}
