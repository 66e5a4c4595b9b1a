package io.blit.core.internal;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_void;
import static java.lang.constant.ConstantDescs.INIT_NAME;
import static java.lang.constant.ConstantDescs.MTD_void;

import io.blit.layout.BlockLayout;
import io.blit.layout.FieldSlot;
import io.blit.layout.FieldType;
import java.lang.classfile.ClassBuilder;
import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * Generates, per class, a hidden class implementing {@link BlockCodec} with straight-line code: for
 * each field in offset order {@code segment.set(JAVA_LONG_UNALIGNED, offset + k, <field>)} (zeros for
 * padding bytes), and the mirror image for reads, each segment read before the field store.
 *
 * <p>Field access comes in two forms ({@link FieldAccess}):
 * <ul>
 *   <li><b>direct</b> — {@code getfield}/{@code putfield} in a hidden <em>nestmate</em> of the class,
 *       used when Blit has full-privilege access to it (the class is in Blit's module, e.g. both on
 *       the class path) and every field is reachable from it. Runs at the {@code MemorySegment.copy}
 *       floor;</li>
 *   <li><b>handles</b> — constant method handles from a private lookup, otherwise. Correct everywhere
 *       the package is open to {@code io.blit.core}, slower (docs/copy-engine.md).</li>
 * </ul>
 * Each codec has two sets of methods: {@code write}/{@code read} go through the {@code MemorySegment}
 * accessors (every access checked; used for shared, global, automatic and heap segments), and
 * {@code writeRaw}/{@code readRaw} address native memory directly through {@code UnsafeAccess}, for
 * segments that {@link ConfinedAccess} has checked once (confined to the calling thread, alive, large
 * enough).
 */
public final class GeneratedCodecs {
    /**
     * Fields per generated chunk method. A hot chunk compiled on its own before its caller is never
     * inlined afterwards, so each chunk can cost a call: few, large chunks (one for MarketData's 18
     * fields) beat many small ones. 48 keeps a chunk (about 20 bytes per field) far below
     * HugeMethodLimit (8000 bytes), above which the JIT would not compile it at all.
     */
    static final int FIELDS_PER_CHUNK = 48;

    /**
     * Fields per chunk of the checked methods ({@code write}/{@code read}, segment accessors): each accessor
     * call is hundreds of C2 nodes while it is parsed, and a compilation stops inlining past a node budget
     * (PrintInlining: {@code NodeCountInliningCutoff}), after which the remaining accessors of a 48-field
     * chunk stay real calls (a 512-field block measured 1.3-2 µs instead of 0.13-0.3). 24 fields keep
     * BookUpdate in one chunk and every accessor of a wide class's chunk inlined.
     */
    static final int CHECKED_FIELDS_PER_CHUNK = 24;

    /**
     * Above this many fields the by-address copy uses the word loop instead of generated code: C1 gives
     * up on generated methods of hundreds of fields ("out of virtual registers"), which then run
     * interpreted until C2 compiles them seconds later (SizeSweepBenchmark, 512 fields).
     */
    private static final int WORD_LOOP_ABOVE_FIELDS = 64;

    private static final ClassDesc CD_MEMORY_SEGMENT = ClassDesc.of("java.lang.foreign.MemorySegment");
    private static final ClassDesc CD_BLOCK_CODEC = ClassDesc.of(BlockCodec.class.getName());
    private static final MethodTypeDesc WRITE = MethodTypeDesc.of(CD_void, CD_Object, CD_MEMORY_SEGMENT, CD_long);
    static final MethodTypeDesc READ = MethodTypeDesc.of(CD_void, CD_MEMORY_SEGMENT, CD_long, CD_Object);
    /** Chunk methods take (object, segment, offset) in both directions: locals 0, 1, 2-3. */
    static final MethodTypeDesc CHUNK = MethodTypeDesc.of(CD_void, CD_Object, CD_MEMORY_SEGMENT, CD_long);
    private static final MethodTypeDesc WRITE_RAW = MethodTypeDesc.of(CD_void, CD_Object, CD_long);
    static final MethodTypeDesc READ_RAW = MethodTypeDesc.of(CD_void, CD_long, CD_Object);
    /** Raw chunk methods take (object, address) in both directions: locals 0, 1-2. */
    static final MethodTypeDesc RAW_CHUNK = MethodTypeDesc.of(CD_void, CD_Object, CD_long);

    private GeneratedCodecs() {
    }

    /**
     * A generated codec for {@code layout}.
     *
     * @throws IllegalAccessException if the fields' packages are not open to this module
     */
    public static BlockCodec generate(BlockLayout layout) throws IllegalAccessException {
        return generateCodec(layout, false);
    }

    /**
     * A generated codec for {@code layout} whose checked methods use the sliced form ({@link SegmentAccess}):
     * the {@code GENERATED_FFM} engine's codec.
     *
     * @throws IllegalAccessException if the fields' packages are not open to this module
     */
    public static BlockCodec generateSliced(BlockLayout layout) throws IllegalAccessException {
        return generateCodec(layout, true);
    }

    /** Checked methods in the sliced form ({@link SegmentAccess}) if {@code sliced}, per access otherwise. */
    private static BlockCodec generateCodec(BlockLayout layout, boolean sliced) throws IllegalAccessException {
        BlockCodec generated = (BlockCodec) define(layout, true, "BlitCodec", (self, access) -> classBytes(self, layout, access, sliced));
        if (generatesByAddress(layout)) {
            return generated;
        }
        return new SplitCodec(generated, new WordLoopCodec(layout.start(), layout.length()));
    }

    /**
     * Whether generated by-address code serves {@code layout}: not above {@value #WORD_LOOP_ABOVE_FIELDS}
     * fields (the bulk copy uses its word loop there, a cross-layout read the segment accessors).
     */
    public static boolean generatesByAddress(BlockLayout layout) {
        return layout.fields().size() <= WORD_LOOP_ABOVE_FIELDS;
    }

    /**
     * A generated codec for {@code layout}; with {@code allowDirect} false always the method-handle
     * form (so that tests can compare both forms on the same classes).
     *
     * @throws IllegalAccessException if the fields' packages are not open to this module
     */
    public static BlockCodec generate(BlockLayout layout, boolean allowDirect) throws IllegalAccessException {
        return (BlockCodec) define(layout, allowDirect, "BlitCodec", (self, access) -> classBytes(self, layout, access, false));
    }

    /** Builds the bytes of a hidden class named {@code self} whose generated code reaches fields through {@code access}. */
    @FunctionalInterface
    interface ClassBytes {
        byte[] build(ClassDesc self, FieldAccess access);
    }

    /**
     * Defines and instantiates (no-argument constructor) a hidden class that reaches the fields of
     * {@code layout}: a nestmate of the class with {@link FieldAccess.Direct} when {@code allowDirect}
     * and the lookup and fields allow it, otherwise a class of this package with
     * {@link FieldAccess.Handles} (getters and setters as class data).
     *
     * @throws IllegalAccessException if the fields' packages are not open to this module
     */
    static Object define(BlockLayout layout, boolean allowDirect, String simpleName, ClassBytes classBytes)
            throws IllegalAccessException {
        Class<?> type = layout.type();
        MethodHandles.Lookup typeLookup = privateLookup(type);
        try {
            MethodHandles.Lookup hidden;
            if (allowDirect && typeLookup.hasFullPrivilegeAccess() && allReachableFromNestOf(layout)) {
                ClassDesc self = ClassDesc.of(type.getPackageName().isEmpty() ? simpleName : type.getPackageName() + "." + simpleName);
                byte[] bytes = classBytes.build(self, new FieldAccess.Direct(type.describeConstable().orElseThrow(), layout.fields()));
                hidden = typeLookup.defineHiddenClass(bytes, true, MethodHandles.Lookup.ClassOption.NESTMATE);
            } else {
                ClassDesc self = ClassDesc.of(GeneratedCodecs.class.getPackageName() + "." + simpleName);
                byte[] bytes = classBytes.build(self, new FieldAccess.Handles(layout.fields()));
                hidden = MethodHandles.lookup().defineHiddenClassWithClassData(bytes, handles(layout), true);
            }
            return hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class)).invoke();
        } catch (IllegalAccessException e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("could not generate the " + simpleName + " of " + type.getName(), e);
        }
    }

    /** Whether a nestmate of the copied class can name every field: its own, or non-private ones of its package. */
    private static boolean allReachableFromNestOf(BlockLayout layout) {
        Class<?> type = layout.type();
        for (FieldSlot field : layout.fields()) {
            Class<?> owner = field.declaringClass();
            if (owner == type) {
                continue;
            }
            boolean samePackage = owner.getPackageName().equals(type.getPackageName()) && owner.getClassLoader() == type.getClassLoader();
            if (!samePackage || Modifier.isPrivate(modifiers(field))) {
                return false;
            }
        }
        return true;
    }

    private static int modifiers(FieldSlot field) {
        try {
            return field.declaringClass().getDeclaredField(field.name()).getModifiers();
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("verified field not found: " + field, e);
        }
    }

    private static MethodHandles.Lookup privateLookup(Class<?> declaringClass) throws IllegalAccessException {
        GeneratedCodecs.class.getModule().addReads(declaringClass.getModule());
        return MethodHandles.privateLookupIn(declaringClass, MethodHandles.lookup());
    }

    /** Getters, erased to {@code (Object)T}, then setters, erased to {@code (Object, T)void}. */
    private static List<MethodHandle> handles(BlockLayout layout) throws IllegalAccessException {
        List<MethodHandle> getters = new ArrayList<>();
        List<MethodHandle> setters = new ArrayList<>();
        for (FieldSlot field : layout.fields()) {
            Class<?> owner = field.declaringClass();
            Class<?> value = field.type().javaType();
            MethodHandles.Lookup lookup = privateLookup(owner);
            try {
                getters.add(lookup.findGetter(owner, field.name(), value).asType(MethodType.methodType(value, Object.class)));
                setters.add(lookup.findSetter(owner, field.name(), value).asType(MethodType.methodType(void.class, Object.class, value)));
            } catch (NoSuchFieldException e) {
                throw new IllegalStateException("verified field not found: " + field, e);
            }
        }
        getters.addAll(setters);
        return List.copyOf(getters);
    }

    private static byte[] classBytes(ClassDesc self, BlockLayout layout, FieldAccess access, boolean sliced) {
        int chunks = (layout.fields().size() + FIELDS_PER_CHUNK - 1) / FIELDS_PER_CHUNK;
        int checkedChunks = (layout.fields().size() + CHECKED_FIELDS_PER_CHUNK - 1) / CHECKED_FIELDS_PER_CHUNK;
        return ClassFile.of().build(self, clb -> {
            clb.withFlags(ClassFile.ACC_FINAL | ClassFile.ACC_SYNTHETIC);
            clb.withInterfaceSymbols(CD_BLOCK_CODEC);
            clb.withMethodBody(INIT_NAME, MTD_void, ClassFile.ACC_PUBLIC,
                    cob -> cob.aload(0).invokespecial(CD_Object, INIT_NAME, MTD_void).return_());
            clb.withMethodBody("write", WRITE, ClassFile.ACC_PUBLIC, cob -> callChunks(cob, self, "write", checkedChunks, 1, 2, 3));
            clb.withMethodBody("read", READ, ClassFile.ACC_PUBLIC, cob -> callChunks(cob, self, "read", checkedChunks, 4, 1, 2));
            clb.withMethodBody("writeRaw", WRITE_RAW, ClassFile.ACC_PUBLIC, cob -> callRawChunks(cob, self, "writeRaw", chunks, 1, 2));
            clb.withMethodBody("readRaw", READ_RAW, ClassFile.ACC_PUBLIC, cob -> callRawChunks(cob, self, "readRaw", chunks, 3, 1));
            for (int c = 0; c < checkedChunks; c++) {
                addCheckedChunks(clb, layout, access, c, sliced);
            }
            for (int c = 0; c < chunks; c++) {
                addRawChunks(clb, layout, access, c);
            }
        });
    }

    static void callChunks(CodeBuilder cob, ClassDesc self, String prefix, int chunks, int object, int segment, int offset) {
        for (int c = 0; c < chunks; c++) {
            cob.aload(object).aload(segment).lload(offset).invokestatic(self, prefix + c, CHUNK);
        }
        cob.return_();
    }

    static void callRawChunks(CodeBuilder cob, ClassDesc self, String prefix, int chunks, int object, int address) {
        for (int c = 0; c < chunks; c++) {
            cob.aload(object).lload(address).invokestatic(self, prefix + c, RAW_CHUNK);
        }
        cob.return_();
    }

    private static void addCheckedChunks(ClassBuilder clb, BlockLayout layout, FieldAccess access, int chunk, boolean sliced) {
        int from = chunk * CHECKED_FIELDS_PER_CHUNK;
        int to = Math.min(layout.fields().size(), from + CHECKED_FIELDS_PER_CHUNK);
        int flags = ClassFile.ACC_PRIVATE | ClassFile.ACC_STATIC;
        clb.withMethodBody("write" + chunk, CHUNK, flags, cob -> writeChunk(cob, layout, access, from, to, sliced));
        int[] offsets = ReadChunks.ownOffsets(layout.fields(), layout.start());
        clb.withMethodBody("read" + chunk, CHUNK, flags, cob -> ReadChunks.emit(cob, layout.fields(), offsets, false, access, from, to, false, sliced));
    }

    private static void addRawChunks(ClassBuilder clb, BlockLayout layout, FieldAccess access, int chunk) {
        int from = chunk * FIELDS_PER_CHUNK;
        int to = Math.min(layout.fields().size(), from + FIELDS_PER_CHUNK);
        int flags = ClassFile.ACC_PRIVATE | ClassFile.ACC_STATIC;
        int[] offsets = ReadChunks.ownOffsets(layout.fields(), layout.start());
        clb.withMethodBody("writeRaw" + chunk, RAW_CHUNK, flags, cob -> writeRawChunk(cob, layout, access, from, to));
        clb.withMethodBody("readRaw" + chunk, RAW_CHUNK, flags, cob -> ReadChunks.emit(cob, layout.fields(), offsets, false, access, from, to, true, false));
    }

    /** Writes fields [from, to) and zeros for their padding to the address in locals 1-2. */
    private static void writeRawChunk(CodeBuilder cob, BlockLayout layout, FieldAccess access, int from, int to) {
        List<FieldSlot> fields = layout.fields();
        access.prologue(cob);
        for (int i = from; i < to; i++) {
            FieldSlot field = fields.get(i);
            SegmentAccess.pushAddress(cob, field.offset() - layout.start());
            access.load(cob, i);
            SegmentAccess.rawAccess(cob, field.type(), true);
            int paddingEnd = i + 1 < fields.size() ? fields.get(i + 1).offset() : field.end();
            for (int pad = field.end(); pad < paddingEnd; pad++) {
                SegmentAccess.pushAddress(cob, pad - layout.start());
                cob.iconst_0();
                SegmentAccess.rawAccess(cob, FieldType.BYTE, true);
            }
        }
        cob.return_();
    }

    /** Writes fields [from, to), and zeros for the padding after each (per access, or through a slice of the block). */
    private static void writeChunk(CodeBuilder cob, BlockLayout layout, FieldAccess access, int from, int to, boolean sliced) {
        List<FieldSlot> fields = layout.fields();
        access.prologue(cob);
        if (sliced) {
            SegmentAccess.sliceBlock(cob, layout.length());
        }
        SegmentAccess.storeLayouts(cob, layout, from, to);
        for (int i = from; i < to; i++) {
            FieldSlot field = fields.get(i);
            SegmentAccess segment = SegmentAccess.of(field.type());
            push(segment, cob, field.offset() - layout.start(), sliced);
            access.load(cob, i);
            segment.set(cob);
            int paddingEnd = i + 1 < fields.size() ? fields.get(i + 1).offset() : field.end();
            SegmentAccess zero = SegmentAccess.of(FieldType.BYTE);
            for (int pad = field.end(); pad < paddingEnd; pad++) {
                push(zero, cob, pad - layout.start(), sliced);
                cob.iconst_0();
                zero.set(cob);
            }
        }
        cob.return_();
    }

    private static void push(SegmentAccess access, CodeBuilder cob, int delta, boolean sliced) {
        if (sliced) {
            access.pushSliceLayoutAndOffset(cob, delta);
        } else {
            access.pushSegmentLayoutAndOffset(cob, delta);
        }
    }
}
