package io.blit.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.FieldDescriptor;
import io.blit.layout.FieldType;
import io.blit.layout.JvmFacts;
import io.blit.layout.LayoutDescriptor;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The C header of a layout: names C accepts, explicit padding, packing only where C would pad otherwise. */
class CHeaderTest {
    private static final JvmFacts JVM = new JvmFacts(12, false, true, 8, "test VM", "25", ByteOrder.LITTLE_ENDIAN);

    private static String header(String className, FieldDescriptor... fields) {
        return CHeader.render("a test", List.of(new CHeader.Entry(3, LayoutDescriptor.of(className, List.of(fields), JVM))));
    }

    @Test
    void alignedFieldsGetExplicitPaddingAndNoPragma() {
        String header = header("a.b.Quote", new FieldDescriptor("flag", "a.b.Quote", FieldType.BOOLEAN, 16),
                new FieldDescriptor("price", "a.b.Quote", FieldType.DOUBLE, 24));
        assertTrue(header.contains("    uint8_t flag;"), header);
        assertTrue(header.contains("    uint8_t blit_pad0[7];"), header);
        assertTrue(header.contains("_Static_assert(offsetof(Quote, price) == 8,"), header);
        assertTrue(header.contains("_Static_assert(sizeof(Quote) == 16,"), header);
        assertTrue(header.contains("#define BLIT_QUOTE_TYPE_ID 3"), header);
        assertFalse(header.contains("#pragma pack"), header);
    }

    @Test
    void aBlockStartingAtAnOffsetItsLongsDoNotDivideIsPacked() {
        String header = header("Odd", new FieldDescriptor("i", "Odd", FieldType.INT, 12),
                new FieldDescriptor("l", "Odd", FieldType.LONG, 16));
        assertTrue(header.contains("#pragma pack(push, 1)"), header);
        assertTrue(header.contains("_Static_assert(offsetof(Odd, l) == 4,"), header);
        assertTrue(header.contains("_Static_assert(sizeof(Odd) == 12,"), header);
    }

    @Test
    void hiddenFieldsAndCKeywordsGetNamesCAccepts() {
        String header = header("p.Outer$Inner", new FieldDescriptor("x", "p.Base", FieldType.INT, 12),
                new FieldDescriptor("x", "p.Outer$Inner", FieldType.INT, 16),
                new FieldDescriptor("unsigned", "p.Outer$Inner", FieldType.INT, 20));
        assertTrue(header.contains("} Outer_Inner;"), header);
        assertTrue(header.contains("    int32_t x;"), header);
        assertTrue(header.contains("    int32_t Inner_x;"), header);
        assertTrue(header.contains("    int32_t unsigned_;"), header);
    }
}
