package io.blit.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blit.layout.shapes.Shapes;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The layout model against the running JVM's real offsets, for every test shape and for classes with
 * reference fields (the model also gives the offsets in rejection messages). Runs in all three header
 * modes ({@code jvm-modes}). Tagged {@code needs-unsafe}: the real offsets need
 * {@code sun.misc.Unsafe}, so the {@code deny} execution skips it; there the model is compared with
 * JOL instead ({@link LayoutVerifierOracleTest}) and with the fingerprints of an {@code allow} JVM
 * ({@link DenyModeLayoutTest}).
 */
@Tag("jvm-modes")
@Tag("needs-unsafe")
class HotSpotLayoutModelTest {
    static class WithReferences { byte a; Object b; long c; String d; short e; }
    static class RefsBelow { int a; Object b; }
    static final class RefsAbove extends RefsBelow { byte c; Object d; long e; char f; }
    static class SuperEndsWithGap { long a; byte b; }
    static final class ManySmall extends SuperEndsWithGap { byte c; byte d; short e; int f; int g; short h; double i; }
    static final class MostlyBytes { byte a; long b; byte c; int d; byte e; short f; byte g; char h; byte i; boolean j; }

    static Stream<Class<?>> classes() {
        return Stream.concat(Shapes.ALL.stream(), Stream.of(WithReferences.class, RefsAbove.class, ManySmall.class,
                MostlyBytes.class, LayoutVerifierRejectionTest.SeveralBadFields.class,
                LayoutVerifierRejectionTest.PrimitiveChildOfReferenceBase.class, String.class, Integer.class));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("classes")
    void modelEqualsTheRealOffsetOfEveryField(Class<?> type) {
        assertEquals(List.of(), ModelAgainstRealOffsets.differences(type), "mode " + JvmFacts.current().headerMode());
    }

    @Test
    void modelPlacesFieldsInHolesAsPlatformMdDescribes() {
        // HotSpot on JDK 25: P{byte x; long y} + Q{byte z; short w; int v} -> x@12 z@13 w@14 y@16 v@24 (12-byte header).
        Map<Field, Integer> offsets = HotSpotLayoutModel.instanceFieldOffsets(Shapes.FillsSuperclassHoles.class, 12, 4, true);
        assertEquals(Map.of("x", 12, "z", 13, "w", 14, "y", 16, "v", 24), byName(offsets));
        // Compact headers change the order: A{long a; double b; int c; byte d} -> a@8 b@16 c@24 d@28.
        assertEquals(Map.of("a", 8, "b", 16, "c", 24, "d", 28),
                byName(HotSpotLayoutModel.instanceFieldOffsets(Shapes.LongDoubleIntByte.class, 8, 4, true)));
        assertEquals(Map.of("a", 16, "b", 24, "c", 12, "d", 32),
                byName(HotSpotLayoutModel.instanceFieldOffsets(Shapes.LongDoubleIntByte.class, 12, 4, true)));
    }

    @Test
    void badSizesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> HotSpotLayoutModel.instanceFieldOffsets(Shapes.OneInt.class, 10, 4, true));
        assertThrows(IllegalArgumentException.class, () -> HotSpotLayoutModel.instanceFieldOffsets(Shapes.OneInt.class, 12, 2, true));
        assertThrows(NullPointerException.class, () -> HotSpotLayoutModel.instanceFieldOffsets(null, 12, 4, true));
    }

    @Test
    void contendedUnrestrictedIsRefusedNotGuessed() {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> HotSpotLayoutModel.instanceFieldOffsets(Shapes.OneInt.class, 12, 4, false));
        assertTrue(e.getMessage().contains("-XX:-RestrictContended"), e.getMessage());
    }

    private static Map<String, Integer> byName(Map<Field, Integer> offsets) {
        return offsets.entrySet().stream().collect(java.util.stream.Collectors.toMap(e -> e.getKey().getName(), Map.Entry::getValue));
    }
}
