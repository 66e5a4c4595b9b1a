package io.blit.tools.latency;

import io.blit.tools.messages.BookUpdate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

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
    void oneResultIsTheObjectOfTheIssue() {
        LatencyResult result = new LatencyResult(MessageKind.TC, "thread", 100_000, List.of(ramp(1), ramp(2)));
        String json = LatencyJson.json(List.of(result));
        Percentiles first = result.percentiles().get(0);
        String expected = "{\"kind\": \"tc\", \"mode\": \"thread\", \"rate\": 100000, \"runs\": [\n  "
                + "{\"p50_ns\": " + first.p50() + ", \"p90_ns\": " + first.p90() + ", \"p99_ns\": " + first.p99()
                + ", \"p99_7_ns\": " + first.p99_7() + ", \"p99_9_ns\": " + first.p99_9() + ", \"p99_99_ns\": "
                + first.p99_99() + ", \"max_ns\": " + first.max() + "},\n  {";
        assertTrue(json.startsWith(expected), json);
        assertEquals(500, first.p50());
        assertEquals(1000, first.max());
        assertEquals(2, count(json, "\"p99_7_ns\": "));
        assertTrue(json.endsWith("]}\n"), json);
        assertEquals(count(json, "{"), count(json, "}"));
        assertEquals(count(json, "["), count(json, "]"));
    }

    @Test
    void severalResultsAreAnArrayOfObjects() {
        LatencyResult tc = new LatencyResult(MessageKind.TC, "process", 50_000, List.of(ramp(1)));
        LatencyResult normal = new LatencyResult(MessageKind.NORMAL, "process", 50_000, List.of(ramp(100)));
        String json = LatencyJson.json(List.of(tc, normal));
        assertTrue(json.startsWith("[\n  {\"kind\": \"tc\", \"mode\": \"process\", \"rate\": 50000, \"runs\": ["), json);
        assertTrue(json.contains("},\n  {\"kind\": \"normal\", \"mode\": \"process\""), json);
        assertTrue(json.contains("\"p50_ns\": " + Percentiles.of(ramp(100)).p50() + ","), json);
        assertTrue(json.endsWith("]}\n]\n"), json);
        assertThrows(IllegalArgumentException.class, () -> LatencyJson.json(List.of()));
    }

    @Test
    void stringsAreEscaped() {
        assertEquals("\"a\\\"b\\\\c\\nd\\u0001\"", LatencyJson.string("a\"b\\c\nd\u0001"));
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

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
