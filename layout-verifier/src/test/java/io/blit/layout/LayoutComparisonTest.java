package io.blit.layout;

import static io.blit.layout.LayoutDescriptorTest.HOST;
import static io.blit.layout.LayoutDescriptorTest.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.LayoutDifference.ExtraInReader;
import io.blit.layout.LayoutDifference.LengthChanged;
import io.blit.layout.LayoutDifference.MissingInReader;
import io.blit.layout.LayoutDifference.OffsetChanged;
import io.blit.layout.LayoutDifference.TypeChanged;
import io.blit.layout.shapes.Shapes;
import java.util.List;
import org.junit.jupiter.api.Test;

class LayoutComparisonTest {
    private static final JvmFacts DEFAULT = new JvmFacts(12, false, true, 8, "test-vm", "25");
    private static final JvmFacts COMPACT = new JvmFacts(8, true, true, 8, "test-vm", "25");

    private static LayoutDescriptor layout(JvmFacts jvm, FieldDescriptor... fields) {
        return LayoutDescriptor.of(HOST, List.of(fields), jvm);
    }

    private static LayoutDescriptor ab() {
        return layout(DEFAULT, field("a", FieldType.INT, 12), field("b", FieldType.INT, 16));
    }

    @Test
    void identicalLayoutsHaveNoDifferences() {
        LayoutDescriptor verified = LayoutVerifier.verify(Shapes.LevelThree.class).descriptor();
        LayoutComparison comparison = verified.compatibility(LayoutVerifier.verify(Shapes.LevelThree.class).descriptor());
        assertTrue(comparison.identical());
        assertEquals(List.of(), comparison.differences());
        assertTrue(comparison.report().startsWith("layouts identical: "), comparison.report());
    }

    @Test
    void sameRelativeLayoutAtAnotherStartIsIdentical() {
        LayoutDescriptor shifted = layout(COMPACT, field("a", FieldType.INT, 8), field("b", FieldType.INT, 12));
        assertTrue(ab().compatibility(shifted).identical(), ab().compatibility(shifted).report());
    }

    @Test
    void fieldAddedInReaderIsReportedAsExtraWithTheLengthChange() {
        LayoutDescriptor reader = layout(DEFAULT, field("a", FieldType.INT, 12), field("b", FieldType.INT, 16), field("c", FieldType.LONG, 24));
        LayoutComparison comparison = ab().compatibility(reader);
        assertFalse(comparison.identical());
        assertEquals(List.of(new ExtraInReader(HOST, reader.field("c"), 12), new LengthChanged(HOST, 8, 20)), comparison.differences());
        assertReportMentions(comparison, "'c'", "extra in the reader", "long at +12", "length changed from 8 (writer) to 20 (reader)");
    }

    @Test
    void fieldRemovedInReaderIsReportedAsMissing() {
        LayoutDescriptor reader = layout(DEFAULT, field("a", FieldType.INT, 12));
        LayoutComparison comparison = ab().compatibility(reader);
        assertEquals(List.of(new MissingInReader(HOST, ab().field("b"), 4), new LengthChanged(HOST, 8, 4)), comparison.differences());
        assertReportMentions(comparison, "'b'", "missing in the reader", "int at +4");
    }

    @Test
    void typeChangedIsReportedWithOldAndNewType() {
        LayoutDescriptor reader = layout(DEFAULT, field("a", FieldType.INT, 12), field("b", FieldType.FLOAT, 16));
        LayoutComparison comparison = ab().compatibility(reader);
        assertEquals(List.of(new TypeChanged(HOST, "b", FieldType.INT, FieldType.FLOAT)), comparison.differences());
        assertReportMentions(comparison, "'b' type changed from int (writer) to float (reader)", "1 difference");
    }

    @Test
    void orderChangedIsReportedAsMovedFields() {
        LayoutDescriptor reader = layout(DEFAULT, field("b", FieldType.INT, 12), field("a", FieldType.INT, 16));
        LayoutComparison comparison = ab().compatibility(reader);
        assertEquals(List.of(new OffsetChanged(HOST, "a", 0, 4), new OffsetChanged(HOST, "b", 4, 0)), comparison.differences());
        assertReportMentions(comparison, "'a' moved from +0 (writer) to +4 (reader)", "'b' moved from +4 (writer) to +0 (reader)");
    }

    /** HotSpot on JDK 25: default c@12 a@16 b@24 d@32, compact headers a@8 b@16 c@24 d@28. */
    @Test
    void compactHeadersReorderLongDoubleIntByteAndTheReportNamesTheMovedFields() {
        String host = Shapes.LongDoubleIntByte.class.getName();
        LayoutDescriptor defaultHeaders = LayoutDescriptor.of(host, List.of(new FieldDescriptor("c", host, FieldType.INT, 12),
                new FieldDescriptor("a", host, FieldType.LONG, 16), new FieldDescriptor("b", host, FieldType.DOUBLE, 24),
                new FieldDescriptor("d", host, FieldType.BYTE, 32)), DEFAULT);
        LayoutDescriptor compactHeaders = LayoutDescriptor.of(host, List.of(new FieldDescriptor("a", host, FieldType.LONG, 8),
                new FieldDescriptor("b", host, FieldType.DOUBLE, 16), new FieldDescriptor("c", host, FieldType.INT, 24),
                new FieldDescriptor("d", host, FieldType.BYTE, 28)), COMPACT);
        LayoutComparison comparison = defaultHeaders.compatibility(compactHeaders);
        assertFalse(comparison.identical());
        assertEquals(List.of(new OffsetChanged(host, "c", 0, 16), new OffsetChanged(host, "a", 4, 0), new OffsetChanged(host, "b", 12, 8)),
                comparison.differences(), comparison.report());
        assertReportMentions(comparison, "LongDoubleIntByte", "compressed-class-pointers", "compact-headers", "3 differences",
                "'c' moved from +0 (writer) to +16", "'a' moved from +4 (writer) to +0", "'b' moved from +12 (writer) to +8");
        assertFalse(comparison.report().contains("'d'"), "d stays at +20 in both: " + comparison.report());
    }

    @Test
    void syntheticDefaultLayoutMatchesTheVerifiedOneUnderDefaultHeaders() {
        BlockLayout verified = LayoutVerifier.verify(Shapes.LongDoubleIntByte.class);
        if (verified.jvm().headerMode().equals("compressed-class-pointers")) {
            assertEquals(List.of("c@12", "a@16", "b@24", "d@32"),
                    verified.fields().stream().map(f -> f.name() + "@" + f.offset()).toList(), verified.describe());
        }
    }

    @Test
    void shadowedFieldNamesArePairedByOccurrence() {
        LayoutDescriptor writer = layout(DEFAULT, field("x", FieldType.INT, 12), new FieldDescriptor("x", "p.Sub", FieldType.INT, 16));
        LayoutDescriptor reader = layout(DEFAULT, field("x", FieldType.INT, 12), new FieldDescriptor("x", "p.Sub", FieldType.LONG, 16));
        assertEquals(List.of(new TypeChanged(HOST, "x", FieldType.INT, FieldType.LONG), new LengthChanged(HOST, 8, 12)),
                writer.compatibility(reader).differences());
    }

    private static void assertReportMentions(LayoutComparison comparison, String... expected) {
        String report = comparison.report();
        assertTrue(report.startsWith("layout mismatch: writer " + comparison.writer().className()), report);
        for (String e : expected) {
            assertTrue(report.contains(e), "'" + e + "' in:\n" + report);
        }
        assertEquals(1 + comparison.differences().size(), report.lines().count(), report);
    }
}
