package io.blit.core.internal;

import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_void;

import io.blit.layout.BlockLayout;
import io.blit.layout.FieldSlot;
import io.blit.layout.FieldType;
import java.lang.classfile.CodeBuilder;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * How generated code reaches one primitive in a segment: through the {@code MemorySegment} accessor of
 * its type (unaligned, native byte order), or by address through {@code UnsafeAccess}.
 *
 * <p>Chunk methods that use the segment accessors keep: 1 segment, 2-3 offset, and from
 * {@link #FIRST_LAYOUT_SLOT} one {@code ValueLayout} per type, loaded once per chunk so that each access
 * costs two bytes of bytecode instead of a {@code getstatic}'s three: a chunk of MarketData's 18 fields
 * then stays under the JIT's 325-byte limit for inlining hot methods. Chunk methods that address memory
 * keep the address in locals 1-2.
 */
record SegmentAccess(String layoutName, ClassDesc layoutType, ClassDesc valueType, int slot) {
    static final int FIRST_LAYOUT_SLOT = 4;

    private static final ClassDesc CD_MEMORY_SEGMENT = ClassDesc.of("java.lang.foreign.MemorySegment");
    private static final ClassDesc CD_VALUE_LAYOUT = ClassDesc.of("java.lang.foreign.ValueLayout");
    private static final ClassDesc CD_UNSAFE_ACCESS = ClassDesc.of("io.blit.layout.internal.UnsafeAccess");

    /** Loads into its local each layout that fields [from, to) or their padding use. */
    static void storeLayouts(CodeBuilder cob, BlockLayout layout, int from, int to) {
        EnumSet<FieldType> used = EnumSet.noneOf(FieldType.class);
        List<FieldSlot> fields = layout.fields();
        for (int i = from; i < to; i++) {
            used.add(fields.get(i).type());
            if (i + 1 < fields.size() && fields.get(i + 1).offset() > fields.get(i).end()) {
                used.add(FieldType.BYTE);
            }
        }
        storeLayouts(cob, used);
    }

    /** Loads into its local the layout of each of {@code types}. */
    static void storeLayouts(CodeBuilder cob, Set<FieldType> types) {
        for (FieldType type : types) {
            SegmentAccess access = of(type);
            cob.getstatic(CD_VALUE_LAYOUT, access.layoutName, access.layoutType).astore(access.slot);
        }
    }

    static SegmentAccess of(FieldType type) {
        ClassDesc value = type.javaType().describeConstable().orElseThrow();
        return switch (type) {
            case BOOLEAN -> new SegmentAccess("JAVA_BOOLEAN", CD_VALUE_LAYOUT.nested("OfBoolean"), value, FIRST_LAYOUT_SLOT);
            case BYTE -> new SegmentAccess("JAVA_BYTE", CD_VALUE_LAYOUT.nested("OfByte"), value, FIRST_LAYOUT_SLOT + 1);
            case CHAR -> new SegmentAccess("JAVA_CHAR_UNALIGNED", CD_VALUE_LAYOUT.nested("OfChar"), value, FIRST_LAYOUT_SLOT + 2);
            case SHORT -> new SegmentAccess("JAVA_SHORT_UNALIGNED", CD_VALUE_LAYOUT.nested("OfShort"), value, FIRST_LAYOUT_SLOT + 3);
            case INT -> new SegmentAccess("JAVA_INT_UNALIGNED", CD_VALUE_LAYOUT.nested("OfInt"), value, FIRST_LAYOUT_SLOT + 4);
            case FLOAT -> new SegmentAccess("JAVA_FLOAT_UNALIGNED", CD_VALUE_LAYOUT.nested("OfFloat"), value, FIRST_LAYOUT_SLOT + 5);
            case LONG -> new SegmentAccess("JAVA_LONG_UNALIGNED", CD_VALUE_LAYOUT.nested("OfLong"), value, FIRST_LAYOUT_SLOT + 6);
            case DOUBLE -> new SegmentAccess("JAVA_DOUBLE_UNALIGNED", CD_VALUE_LAYOUT.nested("OfDouble"), value, FIRST_LAYOUT_SLOT + 7);
        };
    }

    void pushSegmentLayoutAndOffset(CodeBuilder cob, int delta) {
        cob.aload(1).aload(slot).lload(2);
        if (delta != 0) {
            cob.ldc((long) delta).ladd();
        }
    }

    void set(CodeBuilder cob) {
        cob.invokeinterface(CD_MEMORY_SEGMENT, "set", MethodTypeDesc.of(CD_void, layoutType, CD_long, valueType));
    }

    void get(CodeBuilder cob) {
        cob.invokeinterface(CD_MEMORY_SEGMENT, "get", MethodTypeDesc.of(valueType, layoutType, CD_long));
    }

    /** Pushes the address in locals 1-2 plus {@code delta}. */
    static void pushAddress(CodeBuilder cob, int delta) {
        cob.lload(1);
        if (delta != 0) {
            cob.ldc((long) delta).ladd();
        }
    }

    /** {@code UnsafeAccess.put<Type>(long, value)} or {@code get<Type>(long)}. */
    static void rawAccess(CodeBuilder cob, FieldType type, boolean put) {
        ClassDesc value = type.javaType().describeConstable().orElseThrow();
        String name = Character.toUpperCase(type.keyword().charAt(0)) + type.keyword().substring(1);
        if (put) {
            cob.invokestatic(CD_UNSAFE_ACCESS, "put" + name, MethodTypeDesc.of(CD_void, CD_long, value));
        } else {
            cob.invokestatic(CD_UNSAFE_ACCESS, "get" + name, MethodTypeDesc.of(value, CD_long));
        }
    }
}
