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
 * <p>Chunk methods that use the segment accessors come in two forms. The per-access form calls
 * {@code segment.get(layout, offset + k)}, so every access compares its own {@code offset + k} with the
 * segment's size, and allocates nothing in any tier. The sliced form (the {@code GENERATED_FFM} engine's)
 * first replaces the segment in local 1 by a slice of exactly the block
 * ({@link #sliceBlock}: {@code segment.asSlice(offset, length)}, one bounds check), then accesses it at
 * constant offsets: C2 folds each access's bounds check against the constant slice length, removes the
 * slice object (escape analysis) and shares the remaining checks (read-only, owner thread, liveness)
 * between accesses; interpreted or C1-compiled code allocates the slice (40 bytes) per chunk call, and so
 * did C2 code for a 512-field class on a mapped segment in some runs
 * (docs/copy-engine.md, "The FFM engine"). Locals: 1 segment (then the slice), 2-3 offset, and from
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

    /** Pushes the segment in local 1, this access's layout and the offset in locals 2-3 plus {@code delta}. */
    void pushSegmentLayoutAndOffset(CodeBuilder cob, int delta) {
        cob.aload(1).aload(slot).lload(2);
        if (delta != 0) {
            cob.ldc((long) delta).ladd();
        }
    }

    /**
     * Replaces the segment in local 1 by {@code segment.asSlice(offset, length)}, offset from locals 2-3.
     * The caller has checked that the slot lies inside the segment, so the slice's own check never fails.
     */
    static void sliceBlock(CodeBuilder cob, int length) {
        cob.aload(1).lload(2).ldc((long) length)
                .invokeinterface(CD_MEMORY_SEGMENT, "asSlice", MethodTypeDesc.of(CD_MEMORY_SEGMENT, CD_long, CD_long))
                .astore(1);
    }

    /** Pushes the slice in local 1 ({@link #sliceBlock}), this access's layout and the constant {@code delta}. */
    void pushSliceLayoutAndOffset(CodeBuilder cob, int delta) {
        cob.aload(1).aload(slot);
        if (delta == 0) {
            cob.lconst_0();
        } else {
            cob.ldc((long) delta);
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
