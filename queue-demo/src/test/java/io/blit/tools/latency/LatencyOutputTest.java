package io.blit.tools.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.tools.report.ReportJson;
import io.blit.tools.report.RunMetadata;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The JSON and SVG outputs of a bench: shape and validity, from histograms with known contents. */
class LatencyOutputTest {
    @TempDir
    Path dir;

    /** A histogram holding {@code base}, 2*base, ..., 1000*base. */
    static Histogram ramp(long base) {
        Histogram histogram = ReceiveLoop.newHistogram();
        for (long i = 1; i <= 1000; i++) {
            histogram.recordValue(i * base);
        }
        return histogram;
    }

    @Test
    void oneResultIsOneObjectWithItsRunsAndMetadata() {
        LatencyResult result = new LatencyResult(MessageKind.TC, "thread", 100_000, List.of(ramp(1), ramp(2)));
        String json = LatencyJson.json(List.of(result));
        assertTrue(json.startsWith("{\n  \"kind\": \"tc\",\n  \"mode\": \"thread\",\n  \"rate\": 100000,\n"), json);
        Percentiles first = result.percentiles().get(0);
        assertEquals(500, first.p50());
        assertEquals(1000, first.max());
        assertTrue(json.contains("\n    {\"p50_ns\": 500, \"p90_ns\": " + first.p90() + ", \"p99_ns\": " + first.p99()
                + ", \"p99_7_ns\": " + first.p99_7() + ", \"p99_9_ns\": " + first.p99_9() + ", \"p99_99_ns\": "
                + first.p99_99() + ", \"max_ns\": 1000},\n"), json);
        assertTrue(json.endsWith("\n  ]\n}\n"), json);
        JsonNode object = ReportJson.parse(json);
        assertEquals(List.of("kind", "mode", "rate", "jdk", "cpu", "cpus", "date", "command", "runs"), keys(object));
        assertEquals(Runtime.getRuntime().availableProcessors(), object.get("cpus").intValue());
        assertTrue(object.get("date").stringValue().matches("\\d{4}-\\d\\d-\\d\\d"), object.toString());
        assertTrue(object.get("jdk").stringValue().startsWith(System.getProperty("java.version") + " ("), object.toString());
        assertEquals(2, object.get("runs").size());
        for (int r = 0; r < 2; r++) {
            JsonNode run = object.get("runs").get(r);
            assertEquals(Percentiles.JSON_NAMES, keys(run));
            long[] expected = result.percentiles().get(r).values();
            for (int i = 0; i < expected.length; i++) {
                assertEquals(expected[i], run.get(Percentiles.JSON_NAMES.get(i)).longValue(), run.toString());
            }
        }
    }

    @Test
    void severalResultsAreAnArrayOfObjects() {
        LatencyResult tc = new LatencyResult(MessageKind.TC, "process", 50_000, List.of(ramp(1)));
        LatencyResult normal = new LatencyResult(MessageKind.NORMAL, "process", 50_000, List.of(ramp(100)));
        String json = LatencyJson.json(List.of(tc, normal));
        assertTrue(json.startsWith("[\n  {\"kind\": \"tc\", \"mode\": \"process\", \"rate\": 50000, \"jdk\": "), json);
        assertTrue(json.contains("]},\n  {\"kind\": \"normal\", \"mode\": \"process\""), json);
        assertTrue(json.contains("{\"p50_ns\": " + Percentiles.of(ramp(100)).p50() + ","), json);
        assertTrue(json.endsWith("\n  ]}\n]\n"), json);
        JsonNode array = ReportJson.parse(json);
        assertEquals(2, array.size());
        assertEquals("normal", array.get(1).get("kind").stringValue());
        assertThrows(IllegalArgumentException.class, () -> LatencyJson.json(List.of()));
    }

    @Test
    void stringsAreEscapedAndReadBack() {
        RunMetadata odd = new RunMetadata("a\"b", "c\\d", 2, "2026-01-01", "e\nf\u0001");
        LatencyResult tc = new LatencyResult(MessageKind.TC, "thread", 1, List.of(ramp(1)));
        String json = ReportJson.text(LatencyJson.document(odd, List.of(LatencyJson.Entry.of(tc))));
        assertTrue(json.contains("\"jdk\": \"a\\\"b\",\n  \"cpu\": \"c\\\\d\",\n"), json);
        assertTrue(json.contains("\"command\": \"e\\nf\\u0001\""), json);
        JsonNode object = ReportJson.parse(json);
        assertEquals(List.of("a\"b", "c\\d", "e\nf\u0001"), List.of(object.get("jdk").stringValue(),
                object.get("cpu").stringValue(), object.get("command").stringValue()));
    }

    @Test
    void writtenFileReadsBackAsTheSameFigures() throws Exception {
        LatencyResult tc = new LatencyResult(MessageKind.TC, "thread", 100_000, List.of(ramp(1), ramp(3)));
        LatencyResult floor = new LatencyResult(MessageKind.FLOOR, "thread", 100_000, List.of(ramp(2), ramp(5)));
        Path file = dir.resolve("lat.json");
        LatencyJson.write(file, List.of(floor, tc));
        assertEquals(List.of(LatencyJson.Entry.of(floor), LatencyJson.Entry.of(tc)), LatencyJson.read(file));
    }

    /**
     * The committed result files keep their schema: they read back (every run's figures ordered and non-negative),
     * and written again they are the same document but for the metadata keys, which they predate.
     */
    @ParameterizedTest
    @ValueSource(strings = {"results/latency-thread.json", "results/latency-process.json"})
    void committedResultsReadBackAndWriteAgainUnchanged(String name) throws Exception {
        Path committed = Path.of(name);
        List<LatencyJson.Entry> entries = LatencyJson.read(committed);
        assertEquals(List.of("floor", "tc", "normal"), entries.stream().map(LatencyJson.Entry::kind).toList());
        assertTrue(entries.stream().allMatch(e -> e.runs().size() == 5 && e.rate() == 100_000), entries.toString());
        JsonNode again = ReportJson.parse(ReportJson.text(LatencyJson.document(RunMetadata.current(), entries)));
        for (JsonNode object : again) {
            assertEquals(RunMetadata.current().cpus(), object.get("cpus").intValue());
            ((ObjectNode) object).remove(RunMetadata.JSON_KEYS);
        }
        assertEquals(ReportJson.text(ReportJson.read(committed)), ReportJson.text(again));
    }

    @Test
    void unreadableDocumentsNameTheFileAndKey() throws Exception {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, "{\"kind\": \"tc\", \"mode\": \"thread\", \"rate\": 1, \"runs\": [{\"p50_ns\": 5}]}");
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> LatencyJson.read(file));
        assertTrue(missing.getMessage().contains("bad.json") && missing.getMessage().contains("p90_ns"),
                missing.getMessage());
        Files.writeString(file, "{\"kind\": 3, \"mode\": \"thread\", \"rate\": 1, \"runs\": []}");
        IllegalArgumentException notText = assertThrows(IllegalArgumentException.class, () -> LatencyJson.read(file));
        assertTrue(notText.getMessage().contains("\"kind\" is not a string"), notText.getMessage());
    }

    @Test
    void chartIsValidSvgWithOneLinePerKind() throws Exception {
        LatencyResult tc = new LatencyResult(MessageKind.TC, "thread", 100_000, List.of(ramp(1), ramp(1)));
        LatencyResult normal = new LatencyResult(MessageKind.NORMAL, "thread", 100_000, List.of(ramp(100)));
        Path file = dir.resolve("chart.svg");
        LatencyChart.write(file, "thread mode <test> & more", List.of(tc, normal));
        Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(Files.readString(file).getBytes(StandardCharsets.UTF_8)));
        Element root = svg.getDocumentElement();
        assertEquals("svg", root.getTagName());
        assertEquals("http://www.w3.org/2000/svg", root.getAttribute("xmlns"));
        NodeList paths = root.getElementsByTagName("path");
        assertEquals(2, paths.getLength(), "one line per kind");
        for (int i = 0; i < paths.getLength(); i++) {
            String d = ((Element) paths.item(i)).getAttribute("d");
            assertTrue(d.startsWith("M") && count(d, " L") > 10, d);
        }
        String text = root.getTextContent();
        assertTrue(text.contains("thread mode <test> & more"), "subtitle escaped and kept");
        assertTrue(text.contains("90%") && text.contains("99%") && text.contains("99.9%"), text);
        assertTrue(text.contains("trivially copyable BookUpdate") && text.contains("normal-object BookUpdate"), text);
    }

    @Test
    void percentileAxisLabels() {
        assertEquals(List.of("0%", "90%", "99%", "99.9%", "99.99%", "99.999%"),
                List.of(0, 1, 2, 3, 4, 5).stream().map(LatencyChart::percentileLabel).toList());
    }

    @Test
    void durationAxisLabelsCarryTheirUnit() {
        assertEquals(List.of("100 ns", "2 µs", "50 µs", "1 ms", "20 ms", "1 s", "10 s"),
                List.of(100L, 2_000L, 50_000L, 1_000_000L, 20_000_000L, 1_000_000_000L, 10_000_000_000L).stream()
                        .map(LatencyChart::duration).toList());
    }

    @Test
    void medianOfRunMediansAndMerge() {
        LatencyResult result = new LatencyResult(MessageKind.TC, "thread", 1, List.of(ramp(1), ramp(3), ramp(2)));
        assertEquals(1000, result.medianP50(), 1);
        assertEquals(3000, result.merged().getTotalCount());
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
                () -> new LatencyResult(MessageKind.TC, "thread", 1, List.of(ramp(1), ReceiveLoop.newHistogram())));
        assertTrue(empty.getMessage().contains("run 2"), empty.getMessage());
    }

    private static List<String> keys(JsonNode object) {
        List<String> keys = new ArrayList<>();
        object.propertyNames().forEach(keys::add);
        return keys;
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
