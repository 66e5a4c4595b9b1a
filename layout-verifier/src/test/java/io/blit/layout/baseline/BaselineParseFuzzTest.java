package io.blit.layout.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.LayoutDescriptor;
import io.blit.layout.testkit.Descriptors;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * Fuzz properties of {@link Baseline#parse} (docs/fuzzing.md), which reads layout baseline files: any text, random or a
 * valid baseline edited line by line, parses into a baseline whose text parses back to the same layouts, or is refused
 * with {@link BaselineFormatException} naming a line of the text; never another exception.
 */
class BaselineParseFuzzTest {
    /** Tokens that sit on the edges of the format's numbers and keywords. */
    private static final List<String> TOKENS = List.of("0", "-1", "999999999", "2147483647", "2147483648",
            "99999999999", "@", "@0", "layout", "mode=", "mode=default", "start=", "length=", "fingerprint=",
            "fingerprint=0123456789abcdef", "in", "long", "boolean", "blit-layout-baseline 1", "blit-layout-baseline 2",
            "#", "", " ", "\t", "\u00a0", "\u2028", "\r", "\\u0000");

    @Property
    void anyTextParsesOrNamesItsLine(@ForAll @Size(max = 400) String text) {
        check(text);
        check("blit-layout-baseline 1\n" + text);
    }

    @Property
    void editedBaselinesParseOrNameTheirLine(@ForAll("baselines") Baseline baseline, @ForAll("edits") List<Edit> edits) {
        List<String> lines = new ArrayList<>(List.of(baseline.format("record it again").split("\n", -1)));
        for (Edit edit : edits) {
            edit.applyTo(lines);
        }
        check(String.join("\n", lines));
    }

    @Property
    void validBaselinesRoundTrip(@ForAll("baselines") Baseline baseline) {
        String text = baseline.format("");
        assertEquals(text, Baseline.parse(text, "test").format(""));
    }

    /** Parses {@code text}: a baseline whose text parses back to the same entries, or the documented exception. */
    private static void check(String text) {
        Baseline parsed;
        try {
            parsed = Baseline.parse(text, "fuzz");
        } catch (BaselineFormatException e) {
            int lines = text.split("\r?\n", -1).length;
            assertTrue(e.line() >= 1 && e.line() <= lines, e.line() + " of " + lines + ": " + e.getMessage());
            assertTrue(e.getMessage().startsWith("fuzz:" + e.line() + ": "), e.getMessage());
            return;
        }
        String again = parsed.format("");
        Baseline reparsed = Baseline.parse(again, "again");
        assertEquals(parsed.entries().size(), reparsed.entries().size());
        for (int i = 0; i < parsed.entries().size(); i++) {
            assertTrue(parsed.entries().get(i).sameLayout(reparsed.entries().get(i)));
        }
        assertEquals(again, reparsed.format(""));
    }

    /** One line-level edit: delete, duplicate, swap with another, or put a token or random text into a line. */
    record Edit(int kind, int line, int other, int column, String token) {
        void applyTo(List<String> lines) {
            if (lines.isEmpty()) {
                return;
            }
            int at = Math.floorMod(line, lines.size());
            String text = lines.get(at);
            int column = Math.floorMod(this.column, text.length() + 1);
            switch (kind) {
                case 0 -> lines.remove(at);
                case 1 -> lines.add(at, text);
                case 2 -> java.util.Collections.swap(lines, at, Math.floorMod(other, lines.size()));
                case 3 -> lines.set(at, text.substring(0, column) + token + text.substring(column));
                default -> { // replace the token at column (up to the next space) with the token
                    int end = text.indexOf(' ', column);
                    lines.set(at, text.substring(0, column) + token + (end < 0 ? "" : text.substring(end)));
                }
            }
        }
    }

    @Provide
    Arbitrary<List<Edit>> edits() {
        Arbitrary<String> tokens = Arbitraries.oneOf(Arbitraries.of(TOKENS), Arbitraries.strings().ofMaxLength(6));
        return Combinators.combine(Arbitraries.integers().between(0, 4), Arbitraries.integers(), Arbitraries.integers(),
                Arbitraries.integers().between(0, 120), tokens).as(Edit::new).list().ofMinSize(1).ofMaxSize(4);
    }

    @Provide
    Arbitrary<Baseline> baselines() {
        Arbitrary<BaselineEntry> entries = Combinators.combine(Arbitraries.of(JvmMode.class), Descriptors.any())
                .as((mode, layout) -> new BaselineEntry(mode, nominal(mode, layout)));
        return entries.list().ofMinSize(1).ofMaxSize(4).uniqueElements(e -> e.className() + " " + e.mode())
                .map(Baseline::of);
    }

    /** {@code layout} with the JVM facts a parsed entry of {@code mode} has, so that entries compare equal. */
    private static LayoutDescriptor nominal(JvmMode mode, LayoutDescriptor layout) {
        return LayoutDescriptor.of(layout.className(), layout.fields(), BaselineEntry.nominalFacts(mode));
    }
}
