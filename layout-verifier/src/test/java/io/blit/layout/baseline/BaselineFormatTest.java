package io.blit.layout.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.LayoutVerifier;
import io.blit.layout.shapes.Shapes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The baseline text format: round trips of every test shape, stable order, and errors that name the line. */
class BaselineFormatTest {
    private static final String HEADER = "blit-layout-baseline 1\n";
    private static final String MARKET_DATA_LIKE = """
            layout example.Tick mode=default start=16 length=16 fingerprint=%s
              @16 long id in example.Tick
              @24 double price in example.Tick
            """;

    @Test
    void everyShapeRoundTripsThroughTheText() {
        List<BaselineEntry> entries = new ArrayList<>();
        for (Class<?> shape : Shapes.concrete()) {
            entries.add(BaselineEntry.of(JvmMode.current(), LayoutVerifier.verify(shape)));
        }
        Baseline baseline = Baseline.of(entries);

        Baseline parsed = Baseline.parse(baseline.format("java -jar layout-verifier.jar record ..."), "test");

        assertEquals(baseline.entries().size(), parsed.entries().size());
        for (int i = 0; i < baseline.entries().size(); i++) {
            assertTrue(baseline.entries().get(i).sameLayout(parsed.entries().get(i)), baseline.entries().get(i).toString());
            assertEquals(baseline.entries().get(i).layout().fingerprint(), parsed.entries().get(i).layout().fingerprint());
        }
        assertEquals(baseline.format("x"), parsed.format("x"), "formatting is stable: parse and format give the same text");
    }

    @Test
    void entriesAreSortedByClassThenModeWhateverTheInputOrder() {
        BaselineEntry longs = BaselineEntry.of(JvmMode.DEFAULT, LayoutVerifier.verify(Shapes.ThreeInts.class));
        BaselineEntry bytes = BaselineEntry.of(JvmMode.DEFAULT, LayoutVerifier.verify(Shapes.ThreeBytes.class));
        String text = Baseline.of(List.of(longs, bytes)).format("");

        assertTrue(text.indexOf("Shapes$ThreeBytes") < text.indexOf("Shapes$ThreeInts"), text);
    }

    @Test
    void commentsAndBlankLinesAreIgnored() {
        String text = "# a comment\n\n" + HEADER + "  # indented comment\n" + MARKET_DATA_LIKE.formatted(fingerprint()) + "\n# end\n";

        Baseline baseline = Baseline.parse(text, "f.txt");

        assertEquals(1, baseline.entries().size());
        assertEquals(16, baseline.entry("example.Tick", JvmMode.DEFAULT).orElseThrow().layout().length());
    }

    @Test
    void missingFormatLineIsRefused() {
        assertError("layout x mode=default start=12 length=4 fingerprint=0000000000000000\n", 1,
                "f.txt:1: expected 'blit-layout-baseline 1' before anything else");
        assertError("# only comments\n", 1, "f.txt:1: not a layout baseline");
        assertError("blit-layout-baseline 2\n", 1, "f.txt:1: unsupported baseline format");
    }

    @Test
    void unknownModeNamesTheLineAndTheKnownModes() {
        assertError(HEADER + "layout example.Tick mode=tiny start=16 length=8 fingerprint=0000000000000000\n", 2,
                "f.txt:2: unknown JVM mode 'tiny'; known modes: default, compact-headers, uncompressed-class-pointers");
    }

    @Test
    void malformedLinesNameTheirLine() {
        assertError(HEADER + "layout example.Tick mode=default start=16\n", 2, "f.txt:2: malformed layout line");
        assertError(HEADER + MARKET_DATA_LIKE.formatted(fingerprint()).replace("@24 double", "@24 dbl"), 4,
                "f.txt:4: unknown field type 'dbl'");
        assertError(HEADER + MARKET_DATA_LIKE.formatted(fingerprint()).replace("@24 double price in", "@24 double price at"), 4,
                "f.txt:4: malformed field line");
        assertError(HEADER + "  @16 long id in example.Tick\n", 2, "f.txt:2: field line before any 'layout' line");
        assertError(HEADER + "something else\n", 2, "f.txt:2: expected a 'layout CLASS");
    }

    @Test
    void overlappingOrUnsortedFieldsNameTheFieldLine() {
        assertError(HEADER + MARKET_DATA_LIKE.formatted(fingerprint()).replace("@24 double", "@20 double"), 4,
                "f.txt:4: field Tick.price @20 (double, 8) is not after the previous field Tick.id @16 (long, 8)");
    }

    @Test
    void handEditThatBreaksTheFingerprintNamesTheEntryLine() {
        assertError(HEADER + MARKET_DATA_LIKE.formatted("0123456789abcdef"), 2,
                "f.txt:2: entry does not agree with its field lines (edited by hand? re-record instead): example.Tick: fingerprint 0123456789abcdef does not match");
    }

    @Test
    void duplicateEntryNamesBothLines() {
        String entry = MARKET_DATA_LIKE.formatted(fingerprint());
        assertError(HEADER + entry + entry, 5, "f.txt:5: a second entry for example.Tick in mode default (the first is at line 2)");
    }

    @Test
    void entryWithoutFieldsIsRefused() {
        assertError(HEADER + "layout example.Tick mode=default start=16 length=16 fingerprint=0000000000000000\n", 2,
                "f.txt:2: layout entry without field lines");
    }

    /** The fingerprint of {@link #MARKET_DATA_LIKE}, computed by the library rather than written down. */
    private static String fingerprint() {
        return io.blit.layout.LayoutDescriptor.of("example.Tick", List.of(
                new io.blit.layout.FieldDescriptor("id", "example.Tick", io.blit.layout.FieldType.LONG, 16),
                new io.blit.layout.FieldDescriptor("price", "example.Tick", io.blit.layout.FieldType.DOUBLE, 24)),
                BaselineEntry.nominalFacts(JvmMode.DEFAULT)).fingerprint();
    }

    private static void assertError(String text, int line, String messageStart) {
        BaselineFormatException error = assertThrows(BaselineFormatException.class, () -> Baseline.parse(text, "f.txt"));
        assertEquals(line, error.line(), error.getMessage());
        assertEquals("f.txt", error.source());
        assertTrue(error.getMessage().startsWith(messageStart), "expected to start with: " + messageStart + "\nbut was: " + error.getMessage());
    }
}
