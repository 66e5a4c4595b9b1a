package io.blit.tools.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The shared chart's geometry: what the latency and benchmark charts rely on. */
class ChartTest {
    @Test
    void valueAxisSpansWholeDecadesAndLabelsTwoAndFiveOnShortAxes() throws Exception {
        Element svg = parse(new Chart(400, 300, 50, 50, 20, 50).valueAxis(3, 70, v -> "v" + Math.round(v), "t").svg());
        List<String> labels = texts(svg);
        assertTrue(labels.containsAll(List.of("v1", "v2", "v5", "v10", "v20", "v50", "v100")), labels.toString());
        assertTrue(!labels.contains("v200") && !labels.contains("v3"), labels.toString());
        Element wide = parse(new Chart(400, 300, 50, 50, 20, 50).valueAxis(1, 1e6, v -> "v" + Math.round(v), "t").svg());
        assertTrue(!texts(wide).contains("v2") && texts(wide).contains("v1000000"), texts(wide).toString());
    }

    @Test
    void barsRiseToTheirValueOnTheLogScale() throws Exception {
        // plot from y=50 (10^2) to y=250 (10^0): the value 10 is half-way up, at y=150
        Chart chart = new Chart(400, 300, 50, 50, 20, 50).valueAxis(1, 100, v -> "", "t");
        Element svg = parse(chart.bar(100, 20, 10, 0, "#000000", "ten").svg());
        NodeList rects = svg.getElementsByTagName("rect");
        Element bar = (Element) rects.item(rects.getLength() - 1);
        assertEquals("150.0", bar.getAttribute("y"));
        assertEquals("100.0", bar.getAttribute("height"));
        assertTrue(texts(svg).contains("ten"));
        assertEquals(50 + 330 / 4.0 * 2.5, chart.groupCentre(2, 4), 1e-9);
    }

    @Test
    void linesFollowTheLogXAxis() throws Exception {
        Chart chart = new Chart(400, 300, 50, 50, 50, 50).valueAxis(1, 100, v -> "", "t")
                .logXAxis(2, d -> "d" + d, "x");
        Element svg = parse(chart.line(List.of(new double[] {1, 1}, new double[] {10, 10}, new double[] {100, 100}),
                "#123456").svg());
        assertEquals("M50.0 250.0 L200.0 150.0 L350.0 50.0",
                ((Element) svg.getElementsByTagName("path").item(0)).getAttribute("d"));
        assertTrue(texts(svg).containsAll(List.of("d0", "d1", "d2", "x")), texts(svg).toString());
    }

    @Test
    void rejectsImpossibleAxesAndMargins() {
        assertThrows(IllegalArgumentException.class, () -> new Chart(100, 100, 60, 10, 40, 10));
        Chart chart = new Chart(400, 300, 50, 50, 20, 50);
        assertThrows(IllegalArgumentException.class, () -> chart.valueAxis(0, 10, v -> "", "t"));
        assertThrows(IllegalArgumentException.class, () -> chart.valueAxis(5, 4, v -> "", "t"));
        assertThrows(IllegalArgumentException.class, () -> chart.logXAxis(0, d -> "", "t"));
    }

    private static Element parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
    }

    private static List<String> texts(Element svg) {
        NodeList nodes = svg.getElementsByTagName("text");
        return IntStream.range(0, nodes.getLength()).mapToObj(i -> nodes.item(i).getTextContent())
                .toList();
    }
}
