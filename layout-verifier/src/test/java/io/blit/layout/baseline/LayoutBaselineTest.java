package io.blit.layout.baseline;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.baseline.GeneratedClasses.Field;
import io.blit.layout.FieldType;
import io.blit.layout.LayoutVerifier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JUnit-side assertion, {@link LayoutBaseline#assertMatches(Path, Class[])}, in this JVM's mode.
 * Each test records a class, then loads another variant of the same-named class (generated into
 * another directory) and checks what the assertion says. Offsets are taken from the verifier, so the
 * tests hold in every header mode, and run again under each ({@code jvm-modes}, docs/build.md).
 */
@Tag("jvm-modes")
class LayoutBaselineTest {
    private static final String QUOTE = "example.Quote";

    @TempDir
    Path tmp;
    private Path base;
    private Path file;

    @BeforeEach
    void writeBase() {
        base = tmp.resolve("base");
        GeneratedClasses.writeTriviallyCopyable(base);
        file = tmp.resolve("layout-baseline.txt");
    }

    @Test
    void passesWhenTheLayoutIsTheRecordedOne() throws IOException {
        Class<?> quote = variant("v1", Field.of("price", "J"), Field.of("qty", "I"), Field.of("venue", "S"));
        record(quote);

        String text = Files.readString(file);
        assertTrue(text.contains("layout example.Quote mode=" + JvmMode.current().id()), text);
        assertTrue(text.contains("-Dblit.layout.baseline.record=true"), "the file says how to re-record it:\n" + text);
        assertDoesNotThrow(() -> LayoutBaseline.assertMatches(file, quote));
        assertTrue(LayoutBaseline.check(file, quote).passed());
    }

    @Test
    void typeChangeFailsNamingClassFieldAndOldAndNewOffsets() {
        Class<?> before = variant("v1", Field.of("price", "J"), Field.of("qty", "I"), Field.of("venue", "S"));
        Class<?> after = variant("v2", Field.of("price", "J"), Field.of("qty", "J"), Field.of("venue", "S"));
        record(before);
        int oldOffset = LayoutVerifier.verify(before).field("qty").offset();
        int newOffset = LayoutVerifier.verify(after).field("qty").offset();

        AssertionError error = assertThrows(AssertionError.class, () -> LayoutBaseline.assertMatches(file, after));

        String message = error.getMessage();
        assertTrue(message.contains(QUOTE + " [" + JvmMode.current().id() + "]: layout changed"), message);
        assertTrue(message.contains("field 'qty' type changed from int @" + oldOffset + " to long @" + newOffset), message);
        assertTrue(message.contains("-Dtest=LayoutBaselineTest -Dblit.layout.baseline.record=true"), message);
        assertTrue(message.contains(file.toString()), message);
    }

    @Test
    void orderChangeFailsNamingEveryMovedFieldWithOldAndNewOffsets() {
        Class<?> before = variant("v1", Field.of("bid", "J"), Field.of("ask", "J"));
        Class<?> after = variant("v2", Field.of("ask", "J"), Field.of("bid", "J"));
        record(before);
        int start = LayoutVerifier.verify(before).start();

        String message = assertThrows(AssertionError.class, () -> LayoutBaseline.assertMatches(file, after)).getMessage();

        assertTrue(message.contains("field 'bid' moved from @" + start + " to @" + (start + 8) + " (block-relative +0 -> +8)"), message);
        assertTrue(message.contains("field 'ask' moved from @" + (start + 8) + " to @" + start + " (block-relative +8 -> +0)"), message);
        assertTrue(message.contains("field order changed from bid, ask to ask, bid"), message);
    }

    @Test
    void orderChangeReportsOnlyTheStretchThatChanged() {
        Class<?> before = variant("v1", Field.of("a", "J"), Field.of("b", "J"), Field.of("c", "J"), Field.of("d", "J"));
        Class<?> after = variant("v2", Field.of("a", "J"), Field.of("c", "J"), Field.of("b", "J"), Field.of("d", "J"));
        record(before);

        String message = assertThrows(AssertionError.class, () -> LayoutBaseline.assertMatches(file, after)).getMessage();

        assertTrue(message.contains("field order changed from b, c to c, b\n"), message);
        assertFalse(message.contains("field 'a'") || message.contains("field 'd'"), "a and d did not move:\n" + message);
    }

    @Test
    void removedAndAddedFieldsAreNamedWithTheirOffsets() {
        Class<?> before = variant("v1", Field.of("price", "J"), Field.of("venue", "S"));
        Class<?> after = variant("v2", Field.of("price", "J"), Field.of("size", "I"));
        record(before);
        int venue = LayoutVerifier.verify(before).field("venue").offset();
        int size = LayoutVerifier.verify(after).field("size").offset();

        String message = assertThrows(AssertionError.class, () -> LayoutBaseline.assertMatches(file, after)).getMessage();

        assertTrue(message.contains("field 'venue' (short @" + venue + ") was removed"), message);
        assertTrue(message.contains("field 'size' (int @" + size + ") was added"), message);
    }

    @Test
    void classMissingFromTheBaselineFails() {
        Class<?> quote = variant("v1", Field.of("price", "J"));
        record(quote);
        GeneratedClasses.write(tmp.resolve("other"), "example.Trade", ClassScanner.TRIVIALLY_COPYABLE, Field.of("id", "J"));
        Class<?> trade = GeneratedClasses.load(List.of(base, tmp.resolve("other")), "example.Trade").getFirst();

        String message = assertThrows(AssertionError.class, () -> LayoutBaseline.assertMatches(file, quote, trade)).getMessage();

        assertTrue(message.contains("example.Trade [" + JvmMode.current().id() + "]: not in the baseline"), message);
        assertFalse(message.contains(QUOTE + " ["), "Quote matches and is not reported:\n" + message);
    }

    @Test
    void classThatIsNotTriviallyCopyableFailsNamingTheField() {
        Class<?> quote = variant("v1", Field.of("price", "J"), Field.of("symbol", "Ljava/lang/String;"));

        BaselineCheck check = LayoutBaseline.check(file, quote);

        assertFalse(check.passed());
        String report = check.report(file.toString(), "re-record");
        assertTrue(report.contains("example.Quote is not trivially copyable: field Quote.symbol"), report);
    }

    @Test
    void missingBaselineFileFailsSayingHowToRecordIt() {
        Class<?> quote = variant("v1", Field.of("price", "J"));

        String message = assertThrows(AssertionError.class, () -> LayoutBaseline.assertMatches(file, quote)).getMessage();

        assertTrue(message.contains("layout baseline " + file + " does not exist"), message);
        assertTrue(message.contains("-Dblit.layout.baseline.record=true"), message);
    }

    @Test
    void recordingReplacesOnlyItsOwnClassesAndKeepsOtherEntries() throws IOException {
        GeneratedClasses.write(tmp.resolve("other"), "example.Trade", ClassScanner.TRIVIALLY_COPYABLE, Field.of("id", "J"));
        Class<?> trade = GeneratedClasses.load(List.of(base, tmp.resolve("other")), "example.Trade").getFirst();
        record(trade);
        Class<?> before = variant("v1", Field.of("price", "J"));
        Class<?> after = variant("v2", Field.of("price", "D"));
        record(before);
        record(after);

        Baseline recorded = Baseline.read(file);

        assertEquals(List.of("example.Quote", "example.Trade"), recorded.entries().stream().map(BaselineEntry::className).toList());
        assertEquals(FieldType.DOUBLE, recorded.entry(QUOTE, JvmMode.current()).orElseThrow().layout().field("price").type());
        assertDoesNotThrow(() -> LayoutBaseline.assertMatches(file, after, trade));
    }

    @Test
    void malformedBaselineFailsNamingTheLine() throws IOException {
        Class<?> quote = variant("v1", Field.of("price", "J"));
        Files.writeString(file, "blit-layout-baseline 1\nlayout example.Quote mode=sideways start=16 length=8 fingerprint=0000000000000000\n");

        BaselineFormatException error = assertThrows(BaselineFormatException.class, () -> LayoutBaseline.assertMatches(file, quote));

        assertEquals(2, error.line());
        assertTrue(error.getMessage().startsWith(file + ":2: unknown JVM mode 'sideways'"), error.getMessage());
    }

    /** Generates {@code example.Quote} with these fields into {@code tmp/dir} and loads it. */
    private Class<?> variant(String dir, Field... fields) {
        GeneratedClasses.write(tmp.resolve(dir), QUOTE, ClassScanner.TRIVIALLY_COPYABLE, fields);
        return GeneratedClasses.load(List.of(base, tmp.resolve(dir)), QUOTE).getFirst();
    }

    private void record(Class<?>... classes) {
        System.setProperty(LayoutBaseline.RECORD_PROPERTY, "true");
        try {
            LayoutBaseline.assertMatches(file, classes);
        } finally {
            System.clearProperty(LayoutBaseline.RECORD_PROPERTY);
        }
    }
}
