package io.blit.core.internal;

import static java.lang.constant.ConstantDescs.BSM_CLASS_DATA_AT;
import static java.lang.constant.ConstantDescs.CD_MethodHandle;
import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_void;
import static java.lang.constant.ConstantDescs.DEFAULT_NAME;

import io.blit.layout.FieldSlot;
import java.lang.classfile.CodeBuilder;
import java.lang.constant.ClassDesc;
import java.lang.constant.DynamicConstantDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.List;

/**
 * How generated code reaches a field of the copied object. Chunk methods keep the object in local 0
 * ({@link Direct} narrows it there to the exact class, so each access is a one-byte {@code aload_0}).
 */
sealed interface FieldAccess {
    /** Emitted once at the start of each chunk method. */
    void prologue(CodeBuilder cob);

    /** Pushes the value of field {@code index}. */
    void load(CodeBuilder cob, int index);

    /** Emitted before the value to store into field {@code index} is pushed. */
    void beforeStore(CodeBuilder cob, int index);

    /** Emitted after the value is pushed: stores it. */
    void store(CodeBuilder cob, int index);

    /**
     * {@code getfield}/{@code putfield} on the object cast to its class: the fastest form, which the
     * JIT treats exactly like hand-written code. Needs a hidden class that is a nestmate of the copied
     * class (full-privilege lookup) and fields reachable from it.
     */
    record Direct(ClassDesc type, List<FieldSlot> fields) implements FieldAccess {
        @Override
        public void prologue(CodeBuilder cob) {
            cob.aload(0).checkcast(type).astore(0);
        }

        @Override
        public void load(CodeBuilder cob, int index) {
            FieldSlot field = fields.get(index);
            cob.aload(0).getfield(owner(field), field.name(), descriptor(field));
        }

        @Override
        public void beforeStore(CodeBuilder cob, int index) {
            cob.aload(0);
        }

        @Override
        public void store(CodeBuilder cob, int index) {
            FieldSlot field = fields.get(index);
            cob.putfield(owner(field), field.name(), descriptor(field));
        }

        private static ClassDesc owner(FieldSlot field) {
            return field.declaringClass().describeConstable().orElseThrow();
        }

        private static ClassDesc descriptor(FieldSlot field) {
            return field.type().javaType().describeConstable().orElseThrow();
        }
    }

    /**
     * Constant method handles (class data at index {@code i} for getter {@code i}, {@code n + i} for
     * setter {@code i}), erased to {@code Object}. Works with only a private lookup, but the JIT handles
     * the field accesses behind them as raw accesses, which keeps it from sharing the segment checks
     * between fields when the chunk is not inlined into its caller.
     */
    record Handles(List<FieldSlot> fields) implements FieldAccess {
        @Override
        public void prologue(CodeBuilder cob) {
        }

        @Override
        public void load(CodeBuilder cob, int index) {
            cob.ldc(classData(index)).aload(0).invokevirtual(CD_MethodHandle, "invokeExact",
                    MethodTypeDesc.of(value(index), CD_Object));
        }

        @Override
        public void beforeStore(CodeBuilder cob, int index) {
            cob.ldc(classData(fields.size() + index)).aload(0);
        }

        @Override
        public void store(CodeBuilder cob, int index) {
            cob.invokevirtual(CD_MethodHandle, "invokeExact", MethodTypeDesc.of(CD_void, CD_Object, value(index)));
        }

        private ClassDesc value(int index) {
            return fields.get(index).type().javaType().describeConstable().orElseThrow();
        }

        private static DynamicConstantDesc<Object> classData(int index) {
            return DynamicConstantDesc.ofNamed(BSM_CLASS_DATA_AT, DEFAULT_NAME, CD_MethodHandle, index);
        }
    }
}
