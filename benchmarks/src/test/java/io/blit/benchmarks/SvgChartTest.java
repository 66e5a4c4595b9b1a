package io.blit.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

class SvgChartTest {
    @Test
    void drawsAWriteAndAReadBarPerVariantOnALogAxis() throws Exception {
        Document svg = parse(SvgChart.svg(SummaryTestData.INFO, SummaryTestData.sample()));
        List<String> texts = texts(svg);
        // default, blit, floor: one bar each for write and read (plus the background and two legend swatches)
        assertEquals(3 * 2 + 3, svg.getElementsByTagName("rect").getLength());
        assertTrue(texts.containsAll(List.of("default", "blit", "floor", "144 B", "size ?", "write", "read")), texts.toString());
        assertTrue(texts.containsAll(List.of("1", "10", "100")), "decade ticks: " + texts);
        assertTrue(texts.stream().anyMatch(t -> t.contains("mode quick") && t.contains("25.0.3")), texts.toString());
        assertTrue(texts.stream().anyMatch(t -> t.contains("Test CPU")), texts.toString());
    }

    @Test
    void saysSoWhenThereAreNoMarketDataResults() throws Exception {
        List<String> texts = texts(parse(SvgChart.svg(SummaryTestData.INFO, List.of(SummaryTestData.sweep("blit", "write", 144, 9)))));
        assertTrue(texts.contains("no MarketData results in this run"), texts.toString());
    }

    private static Document parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> texts(Document svg) {
        NodeList nodes = svg.getElementsByTagName("text");
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            texts.add(nodes.item(i).getTextContent());
        }
        return texts;
    }
}
