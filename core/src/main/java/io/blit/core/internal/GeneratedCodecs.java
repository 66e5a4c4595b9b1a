package io.blit.core.internal;

import static java.lang.constant.ConstantDescs.BSM_CLASS_DATA_AT;
import static java.lang.constant.ConstantDescs.CD_MethodHandle;
import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_void;
import static java.lang.constant.ConstantDescs.DEFAULT_NAME;
import static java.lang.constant.ConstantDescs.INIT_NAME;
import static java.lang.constant.ConstantDescs.MTD_void;

import io.blit.layout.BlockLayout;
import io.blit.layout.FieldSlot;
import io.blit.layout.FieldType;
import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.constant.ClassDesc;
import java.lang.constant.DynamicConstantDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;

/**
 * Generates, per class, a hidden class that copies the block field by field with straight-line code:
 * {@code segment.set(JAVA_LONG_UNALIGNED, offset + k, getter.invokeExact(object))} for each field in
 * offset order, zeros for the padding bytes. The getters and setters are method handles from a
 * private lookup into the field's class, passed as class data and loaded with {@code ldc} of a
 * dynamic constant, so the JIT treats them as constants and inlines each to a plain
 * {@code getfield}/{@code putfield}.
 *
 * <p>Why (docs/copy-engine.md): on JDK 25, mixing {@code Unsafe} accesses to the object with
 * {@code MemorySegment} accesses costs about 4x the {@code MemorySegment.copy} floor, because the JIT
 * cannot keep the segment's checks out of the way of raw accesses at unknown offsets; plain field
 * accesses next to {@code MemorySegment} accessors run at the floor. No {@code sun.misc.Unsafe} is used,
 * and every segment access keeps its bounds, liveness and confinement checks.
 *
 * <p>Needs private access to the class's fields: the package must be open to {@code io.blit.core}
 * (always true on the class path; a named module needs {@code opens pkg to io.blit.core}).
 */
public final class GeneratedCodecs {
    /** Fields per generated method: keeps each under the JIT's 325-byte inlining limit for hot methods. */
    private static final int FIELDS_PER_CHUNK = 12;

    private static final ClassDesc CD_MEMORY_SEGMENT = ClassDesc.of("java.lang.foreign.MemorySegment");
    private static final ClassDesc CD_VALUE_LAYOUT = ClassDesc.of("java.lang.foreign.ValueLayout");
    private static final ClassDesc CD_BLOCK_CODEC = ClassDesc.of(BlockCodec.class.getName());
    private static final MethodTypeDesc WRITE_CHUNK = MethodTypeDesc.of(CD_void, CD_Object, CD_MEMORY_SEGMENT, CD_long);
    private static final MethodTypeDesc READ_CHUNK = MethodTypeDesc.of(CD_void, CD_MEMORY_SEGMENT, CD_long, CD_Object);

    private GeneratedCodecs() {
    }

    /**
     * A generated codec for {@code layout}.
     *
     * @throws IllegalAccessException if the fields' packages are not open to this module
     */
    public static BlockCodec generate(BlockLayout layout) throws IllegalAccessException {
        List<FieldSlot> fields = layout.fields();
        List<MethodHandle> handles = new ArrayList<>(2 * fields.size());
        for (FieldSlot field : fields) {
            handles.add(getter(field));
        }
        for (FieldSlot field : fields) {
            handles.add(setter(field));
        }
        byte[] bytes = classBytes(layout);
        try {
            MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClassWithClassData(bytes, List.copyOf(handles), true);
            return (BlockCodec) hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class)).invoke();
        } catch (Throwable e) {
            throw new IllegalStateException("could not generate the codec of " + layout.type().getName(), e);
        }
    }

    private static MethodHandles.Lookup privateLookup(Class<?> declaringClass) throws IllegalAccessException {
        GeneratedCodecs.class.getModule().addReads(declaringClass.getModule());
        return MethodHandles.privateLookupIn(declaringClass, MethodHandles.lookup());
    }

    private static MethodHandle getter(FieldSlot field) throws IllegalAccessException {
        Class<?> type = field.type().javaType();
        try {
            return privateLookup(field.declaringClass()).findGetter(field.declaringClass(), field.name(), type)
                    .asType(MethodType.methodType(type, Object.class));
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("verified field not found: " + field, e);
        }
    }

    private static MethodHandle setter(FieldSlot field) throws IllegalAccessException {
        Class<?> type = field.type().javaType();
        try {
            return privateLookup(field.declaringClass()).findSetter(field.declaringClass(), field.name(), type)
                    .asType(MethodType.methodType(void.class, Object.class, type));
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("verified field not found: " + field, e);
        }
    }

    private static byte[] classBytes(BlockLayout layout) {
        List<FieldSlot> fields = layout.fields();
        int chunks = (fields.size() + FIELDS_PER_CHUNK - 1) / FIELDS_PER_CHUNK;
        ClassDesc self = ClassDesc.of(GeneratedCodecs.class.getPackageName() + ".GeneratedCodec");
        return ClassFile.of().build(self, clb -> {
            clb.withFlags(ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC);
            clb.withInterfaceSymbols(CD_BLOCK_CODEC);
            clb.withMethodBody(INIT_NAME, MTD_void, ClassFile.ACC_PUBLIC,
                    cob -> cob.aload(0).invokespecial(CD_Object, INIT_NAME, MTD_void).return_());
            clb.withMethodBody("write", MethodTypeDesc.of(CD_void, CD_Object, CD_MEMORY_SEGMENT, CD_long), ClassFile.ACC_PUBLIC,
                    cob -> {
                        for (int c = 0; c < chunks; c++) {
                            cob.aload(1).aload(2).lload(3).invokestatic(self, "write" + c, WRITE_CHUNK);
                        }
                        cob.return_();
                    });
            clb.withMethodBody("read", MethodTypeDesc.of(CD_void, CD_MEMORY_SEGMENT, CD_long, CD_Object), ClassFile.ACC_PUBLIC,
                    cob -> {
                        for (int c = 0; c < chunks; c++) {
                            cob.aload(1).lload(2).aload(4).invokestatic(self, "read" + c, READ_CHUNK);
                        }
                        cob.return_();
                    });
            for (int c = 0; c < chunks; c++) {
                int from = c * FIELDS_PER_CHUNK;
                int to = Math.min(fields.size(), from + FIELDS_PER_CHUNK);
                clb.withMethodBody("write" + c, WRITE_CHUNK, ClassFile.ACC_PRIVATE | ClassFile.ACC_STATIC,
                        cob -> writeChunk(cob, layout, from, to));
                clb.withMethodBody("read" + c, READ_CHUNK, ClassFile.ACC_PRIVATE | ClassFile.ACC_STATIC,
                        cob -> readChunk(cob, layout, from, to));
            }
        });
    }

    /** Locals: 0 object, 1 segment, 2-3 offset. Writes fields [from, to) and the padding after each. */
    private static void writeChunk(CodeBuilder cob, BlockLayout layout, int from, int to) {
        List<FieldSlot> fields = layout.fields();
        for (int i = from; i < to; i++) {
            FieldSlot field = fields.get(i);
            Access access = Access.of(field.type());
            cob.aload(1);
            cob.getstatic(CD_VALUE_LAYOUT, access.layoutName, access.layoutType);
            relativeOffset(cob, 2, field.offset() - layout.start());
            cob.ldc(handle(i));
            cob.aload(0);
            cob.invokevirtual(CD_MethodHandle, "invokeExact", MethodTypeDesc.of(access.valueType, CD_Object));
            cob.invokeinterface(CD_MEMORY_SEGMENT, "set", MethodTypeDesc.of(CD_void, access.layoutType, CD_long, access.valueType));
            int paddingEnd = i + 1 < fields.size() ? fields.get(i + 1).offset() : field.end();
            for (int pad = field.end(); pad < paddingEnd; pad++) {
                Access bytes = Access.of(FieldType.BYTE);
                cob.aload(1);
                cob.getstatic(CD_VALUE_LAYOUT, bytes.layoutName, bytes.layoutType);
                relativeOffset(cob, 2, pad - layout.start());
                cob.iconst_0();
                cob.invokeinterface(CD_MEMORY_SEGMENT, "set", MethodTypeDesc.of(CD_void, bytes.layoutType, CD_long, bytes.valueType));
            }
        }
        cob.return_();
    }

    /** Locals: 0 segment, 1-2 offset, 3 object. Reads fields [from, to); the segment is read before each store. */
    private static void readChunk(CodeBuilder cob, BlockLayout layout, int from, int to) {
        List<FieldSlot> fields = layout.fields();
        for (int i = from; i < to; i++) {
            FieldSlot field = fields.get(i);
            Access access = Access.of(field.type());
            cob.ldc(handle(fields.size() + i));
            cob.aload(3);
            cob.aload(0);
            cob.getstatic(CD_VALUE_LAYOUT, access.layoutName, access.layoutType);
            relativeOffset(cob, 1, field.offset() - layout.start());
            cob.invokeinterface(CD_MEMORY_SEGMENT, "get", MethodTypeDesc.of(access.valueType, access.layoutType, CD_long));
            cob.invokevirtual(CD_MethodHandle, "invokeExact", MethodTypeDesc.of(CD_void, CD_Object, access.valueType));
        }
        cob.return_();
    }

    private static void relativeOffset(CodeBuilder cob, int offsetSlot, int delta) {
        cob.lload(offsetSlot);
        if (delta != 0) {
            cob.ldc((long) delta);
            cob.ladd();
        }
    }

    private static DynamicConstantDesc<MethodHandle> handle(int index) {
        return DynamicConstantDesc.ofNamed(BSM_CLASS_DATA_AT, DEFAULT_NAME, CD_MethodHandle, index);
    }

    /** The {@code ValueLayout} constant and Java type used for a field type (unaligned, native order). */
    private record Access(String layoutName, ClassDesc layoutType, ClassDesc valueType) {
        static Access of(FieldType type) {
            return switch (type) {
                case BOOLEAN -> new Access("JAVA_BOOLEAN", inner("OfBoolean"), ClassDesc.ofDescriptor("Z"));
                case BYTE -> new Access("JAVA_BYTE", inner("OfByte"), ClassDesc.ofDescriptor("B"));
                case CHAR -> new Access("JAVA_CHAR_UNALIGNED", inner("OfChar"), ClassDesc.ofDescriptor("C"));
                case SHORT -> new Access("JAVA_SHORT_UNALIGNED", inner("OfShort"), ClassDesc.ofDescriptor("S"));
                case INT -> new Access("JAVA_INT_UNALIGNED", inner("OfInt"), ClassDesc.ofDescriptor("I"));
                case FLOAT -> new Access("JAVA_FLOAT_UNALIGNED", inner("OfFloat"), ClassDesc.ofDescriptor("F"));
                case LONG -> new Access("JAVA_LONG_UNALIGNED", inner("OfLong"), ClassDesc.ofDescriptor("J"));
                case DOUBLE -> new Access("JAVA_DOUBLE_UNALIGNED", inner("OfDouble"), ClassDesc.ofDescriptor("D"));
            };
        }

        private static ClassDesc inner(String name) {
            return CD_VALUE_LAYOUT.nested(name);
        }
    }

}
