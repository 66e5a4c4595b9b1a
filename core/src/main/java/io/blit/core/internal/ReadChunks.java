package io.blit.core.internal;

import static java.lang.constant.ConstantDescs.CD_char;
import static java.lang.constant.ConstantDescs.CD_double;
import static java.lang.constant.ConstantDescs.CD_float;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_short;

import io.blit.layout.FieldSlot;
import io.blit.layout.FieldType;
import java.lang.classfile.CodeBuilder;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.EnumSet;
import java.util.List;

/**
 * The body of a generated read chunk, shared by the bulk read ({@link GeneratedCodecs}: each field from
 * its own offset) and the cross-layout read ({@link GeneratedTranslators}: each field from its writer's
 * offset, possibly byte-swapped or missing).
 */
final class ReadChunks {
    private ReadChunks() {
    }

    /** For each field its offset from the start of the block: the offsets a bulk read reads from. */
    static int[] ownOffsets(List<FieldSlot> fields, int start) {
        return fields.stream().mapToInt(field -> field.offset() - start).toArray();
    }

    /**
     * Reads fields [from, to): from the segment in local 1 at the offset in locals 2-3, or ({@code raw})
     * from the address in locals 1-2. Each source read happens before its field store.
     */
    static void emit(CodeBuilder cob, List<FieldSlot> fields, int[] offsets, boolean swap, FieldAccess access,
                     int from, int to, boolean raw) {
        access.prologue(cob);
        if (!raw) {
            EnumSet<FieldType> used = EnumSet.noneOf(FieldType.class);
            for (int i = from; i < to; i++) {
                if (offsets[i] >= 0) {
                    used.add(sourceType(fields.get(i).type(), swap));
                }
            }
            SegmentAccess.storeLayouts(cob, used);
        }
        for (int i = from; i < to; i++) {
            FieldType type = fields.get(i).type();
            access.beforeStore(cob, i);
            if (offsets[i] < 0) {
                pushZero(cob, type);
            } else {
                FieldType source = sourceType(type, swap);
                if (raw) {
                    SegmentAccess.pushAddress(cob, offsets[i]);
                    SegmentAccess.rawAccess(cob, source, false);
                } else {
                    SegmentAccess segment = SegmentAccess.of(source);
                    segment.pushSegmentLayoutAndOffset(cob, offsets[i]);
                    segment.get(cob);
                }
                if (swap) {
                    swapBytes(cob, type);
                }
            }
            access.store(cob, i);
        }
        cob.return_();
    }

    /** The type read from the source: a floating type whose bytes must be swapped is read as the integer of its size. */
    private static FieldType sourceType(FieldType type, boolean swap) {
        if (!swap) {
            return type;
        }
        return switch (type) {
            case FLOAT -> FieldType.INT;
            case DOUBLE -> FieldType.LONG;
            default -> type;
        };
    }

    /** Turns the value of {@link #sourceType} on the stack into {@code type}'s value with its bytes reversed. */
    private static void swapBytes(CodeBuilder cob, FieldType type) {
        switch (type) {
            case BOOLEAN, BYTE -> { }
            case CHAR -> cob.invokestatic(ClassDesc.of("java.lang.Character"), "reverseBytes", MethodTypeDesc.of(CD_char, CD_char));
            case SHORT -> cob.invokestatic(ClassDesc.of("java.lang.Short"), "reverseBytes", MethodTypeDesc.of(CD_short, CD_short));
            case INT -> cob.invokestatic(ClassDesc.of("java.lang.Integer"), "reverseBytes", MethodTypeDesc.of(CD_int, CD_int));
            case LONG -> cob.invokestatic(ClassDesc.of("java.lang.Long"), "reverseBytes", MethodTypeDesc.of(CD_long, CD_long));
            case FLOAT -> cob.invokestatic(ClassDesc.of("java.lang.Integer"), "reverseBytes", MethodTypeDesc.of(CD_int, CD_int))
                    .invokestatic(ClassDesc.of("java.lang.Float"), "intBitsToFloat", MethodTypeDesc.of(CD_float, CD_int));
            case DOUBLE -> cob.invokestatic(ClassDesc.of("java.lang.Long"), "reverseBytes", MethodTypeDesc.of(CD_long, CD_long))
                    .invokestatic(ClassDesc.of("java.lang.Double"), "longBitsToDouble", MethodTypeDesc.of(CD_double, CD_long));
        }
    }

    private static void pushZero(CodeBuilder cob, FieldType type) {
        switch (type) {
            case BOOLEAN, BYTE, CHAR, SHORT, INT -> cob.iconst_0();
            case LONG -> cob.lconst_0();
            case FLOAT -> cob.fconst_0();
            case DOUBLE -> cob.dconst_0();
        }
    }
}
