package io.blit.layout.testkit;

import io.blit.layout.FieldDescriptor;
import io.blit.layout.FieldType;
import io.blit.layout.JvmFacts;
import io.blit.layout.LayoutDescriptor;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Valid {@link LayoutDescriptor}s for the fuzz properties (docs/fuzzing.md): 1 to 12 fields of any type, names with non-ASCII letters. */
public final class Descriptors {
    private Descriptors() {
    }

    /** Names without white space: 1 to 24 of a-z, '_', '$', '.', 'é', '中'. */
    public static Arbitrary<String> names() {
        return Arbitraries.strings().withCharRange('a', 'z').withChars('_', '$', 'é', '中', '.').ofMinLength(1)
                .ofMaxLength(24);
    }

    /** Descriptors of fields laid out from an offset of 0 to 64, with gaps of 0 to 9 bytes, under any JVM facts. */
    public static Arbitrary<LayoutDescriptor> any() {
        Arbitrary<List<FieldDescriptor>> fields = Combinators.combine(
                names().list().ofMinSize(1).ofMaxSize(12),
                Arbitraries.of(FieldType.class).list().ofSize(12),
                Arbitraries.integers().between(0, 9).list().ofSize(12),
                Arbitraries.integers().between(0, 64), names())
                .as((fieldNames, types, gaps, start, host) -> {
                    List<FieldDescriptor> out = new ArrayList<>();
                    int offset = start;
                    for (int i = 0; i < fieldNames.size(); i++) {
                        out.add(new FieldDescriptor(fieldNames.get(i), host, types.get(i), offset));
                        offset += types.get(i).size() + gaps.get(i);
                    }
                    return out;
                });
        Arbitrary<JvmFacts> facts = Combinators.combine(Arbitraries.integers().between(1, 32), Arbitraries.of(true, false),
                Arbitraries.of(true, false), Arbitraries.integers().between(1, 64), names(),
                Arbitraries.strings().ofMaxLength(8).withCharRange('0', '9'),
                Arbitraries.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN))
                .as(JvmFacts::new);
        return Combinators.combine(names(), fields, facts).as(LayoutDescriptor::of);
    }
}
